import TFLiteKernels

/// The packed-weight GEMM path that CONV_2D and FULLY_CONNECTED (a 1×1 convolution over its batch
/// rows) share: the float kernel, or the uint8/int8/hybrid integer GEMM with the input first turned
/// into the operands' layout (`QuantizedGEMMOperands`), split over pixel tiles across the thread pool.
enum PackedConvolution {
    /// Runs `mode`'s optimized kernel on geometry `g` with weights packed at prepare.
    static func invoke(_ g: ConvolutionGeometry, mode: ConvComputeMode, floatRange: (min: Float, max: Float),
                       requantizer: ConvRequantizer?, hybrid: HybridConvolutionParameters?,
                       scratch: inout HybridScratch, packedFloat: [Float]?, integer: QuantizedGEMMOperands?,
                       zeroRun: [Float], threads: ThreadPool,
                       input x: UnsafeMutableRawPointer, bias b: UnsafeMutableRawPointer?,
                       output y: UnsafeMutableRawPointer) {
        switch mode {
        case .float:
            let rows = Conv2DOptimized.floatTileRows(g)
            let floatChunk = max(1, 100_000 / max(1, rows * g.outputDepth * g.filterHeight * g.filterWidth * g.inputDepth))
            let range = floatRange
            let floatTiles = Conv2DOptimized.floatTileCount(g)
            packedFloat!.withUnsafeBufferPointer { w in
                zeroRun.withUnsafeBufferPointer { z in
                    threads.parallelFor(floatTiles, minChunk: floatChunk) { part in
                        Conv2DOptimized.float(g, activationMin: range.min, activationMax: range.max,
                                              input: x.assumingMemoryBound(to: Float.self), packedFilter: w.baseAddress!,
                                              bias: b.map { UnsafePointer($0.assumingMemoryBound(to: Float.self)) },
                                              zeros: z.baseAddress!, output: y.assumingMemoryBound(to: Float.self),
                                              tiles: part)
                    }
                }
            }
        case .uint8, .int8:
            let q = requantizer!
            let bias = b.map { UnsafePointer($0.assumingMemoryBound(to: Int32.self)) }
            if integer!.quads != nil {
                invokeQuads(g, q, operands: integer!, threads: threads, input: x, bias: bias, output: y)
                return
            }
            let isU8 = mode == .uint8
            let pixels = g.batches * g.inputHeight * g.inputWidth
            let packed = integer!.pairs!.weights
            integer!.pairs!.input.withUnsafeMutableBufferPointer { paired in
                let xp = paired.baseAddress!
                convert(pixels: pixels, depth: g.inputDepth, stride: Int16PairPacking.pairedDepth(g.inputDepth),
                        threads: threads) { first, count, out in
                    if isU8 {
                        Int16PairPacking.convert(x.assumingMemoryBound(to: UInt8.self) + first * g.inputDepth, pixels: count,
                                                 depth: g.inputDepth, offset: q.parameters.inputOffset, into: xp + out)
                    } else {
                        Int16PairPacking.convert(x.assumingMemoryBound(to: Int8.self) + first * g.inputDepth, pixels: count,
                                                 depth: g.inputDepth, offset: q.parameters.inputOffset, into: xp + out)
                    }
                }
                let xin = UnsafePointer(xp)
                packed.withUnsafeBufferPointer { w in
                    threads.parallelFor(QuantizedGEMM.tileCount(g), minChunk: integerMinChunk(g)) { part in
                        if isU8 {
                            QuantizedGEMM.uint8(g, q, input: xin, packedFilter: w.baseAddress!, bias: bias,
                                                output: y.assumingMemoryBound(to: UInt8.self), tiles: part)
                        } else {
                            QuantizedGEMM.int8(g, q, input: xin, packedFilter: w.baseAddress!, bias: bias,
                                               output: y.assumingMemoryBound(to: Int8.self), tiles: part)
                        }
                    }
                }
            }
        case .hybrid(let asymmetric):
            let p = hybrid!
            let imagePixels = g.inputHeight * g.inputWidth
            let rowSize = imagePixels * g.inputDepth
            let stride = Int16PairPacking.pairedDepth(g.inputDepth)
            let packed = integer!.pairs!.weights
            scratch.quantize(x.assumingMemoryBound(to: Float.self), batches: g.batches, rowSize: rowSize,
                             asymmetric: asymmetric) { q, scales, offsets in
                integer!.pairs!.input.withUnsafeMutableBufferPointer { paired in
                    let xp = paired.baseAddress!
                    for batch in 0..<g.batches {
                        Int16PairPacking.convert(q + batch * rowSize, pixels: imagePixels, depth: g.inputDepth,
                                                 offset: -offsets[batch], into: xp + batch * imagePixels * stride)
                    }
                    let xin = UnsafePointer(xp)
                    packed.withUnsafeBufferPointer { w in
                        threads.parallelFor(QuantizedGEMM.tileCount(g), minChunk: integerMinChunk(g)) { part in
                            QuantizedGEMM.hybrid(g, p, input: xin, inputScales: scales, packedFilter: w.baseAddress!,
                                                 bias: b.map { UnsafePointer($0.assumingMemoryBound(to: Float.self)) },
                                                 output: y.assumingMemoryBound(to: Float.self), tiles: part)
                        }
                    }
                }
            }
        }
    }

    /// int8 with the int8-quad operands: input as unsigned bytes, bias plus the zero-point correction.
    private static func invokeQuads(_ g: ConvolutionGeometry, _ q: ConvRequantizer, operands: QuantizedGEMMOperands,
                                    threads: ThreadPool, input x: UnsafeMutableRawPointer, bias: UnsafePointer<Int32>?,
                                    output y: UnsafeMutableRawPointer) {
        let pixels = g.batches * g.inputHeight * g.inputWidth
        let packed = operands.quads!.weights
        for c in 0..<g.outputDepth { operands.quads!.bias[c] = (bias?[c] ?? 0) &+ operands.quads!.correction[c] }
        let combined = operands.quads!.bias
        operands.quads!.input.withUnsafeMutableBufferPointer { bytes in
            let xp = bytes.baseAddress!
            convert(pixels: pixels, depth: g.inputDepth, stride: Int8QuadPacking.quadDepth(g.inputDepth),
                    threads: threads) { first, count, out in
                Int8QuadPacking.convert(x.assumingMemoryBound(to: Int8.self) + first * g.inputDepth, pixels: count,
                                        depth: g.inputDepth, into: xp + out)
            }
            let xin = UnsafePointer(xp)
            packed.withUnsafeBufferPointer { w in
                combined.withUnsafeBufferPointer { bb in
                    threads.parallelFor(QuantizedGEMM.tileCount(g), minChunk: integerMinChunk(g)) { part in
                        QuantizedGEMM.int8Quads(g, q, input: xin, packedFilter: w.baseAddress!, bias: bb.baseAddress!,
                                                output: y.assumingMemoryBound(to: Int8.self), tiles: part)
                    }
                }
            }
        }
    }

    /// Tiles per thread chunk: at least ~200k multiply-adds, so small layers stay on one thread.
    private static func integerMinChunk(_ g: ConvolutionGeometry) -> Int {
        let perTile = QuantizedGEMM.tilePixels * g.outputDepth * g.filterHeight * g.filterWidth * g.inputDepth
        return max(1, 200_000 / max(1, perTile))
    }

    /// Converts `pixels` pixels into the paired layout, split across the pool for large inputs:
    /// `body(firstPixel, pixelCount, outputElementOffset)`.
    private static func convert(pixels: Int, depth: Int, stride: Int, threads: ThreadPool,
                                _ body: (Int, Int, Int) -> Void) {
        threads.parallelFor(pixels, minChunk: max(1, 65_536 / max(1, depth))) { part in
            body(part.lowerBound, part.count, part.lowerBound * stride)
        }
    }
}
