import TFLiteKernels

/// The packed-weight GEMM path that CONV_2D and FULLY_CONNECTED (a 1×1 convolution over its batch
/// rows) share: the float kernel, or the uint8/int8/hybrid integer GEMM with the input first turned
/// into the int16-pair layout (`Int16PairPacking`), split over pixel tiles across the thread pool.
enum PackedConvolution {
    /// Runs `mode`'s optimized kernel on geometry `g` with weights packed at prepare.
    /// `pairedInput` must hold `Int16PairPacking.activationCount` elements whose trailing zero
    /// pixel stays zero (the integer modes fill the rest per invoke).
    static func invoke(_ g: ConvolutionGeometry, mode: ConvComputeMode, floatRange: (min: Float, max: Float),
                       requantizer: ConvRequantizer?, hybrid: HybridConvolutionParameters?,
                       scratch: inout HybridScratch, packedFloat: [Float]?, packedInteger: [Int16]?,
                       zeroRun: [Float], pairedInput: inout [Int16], threads: ThreadPool,
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
            let isU8 = mode == .uint8
            let bias = b.map { UnsafePointer($0.assumingMemoryBound(to: Int32.self)) }
            let pixels = g.batches * g.inputHeight * g.inputWidth
            pairedInput.withUnsafeMutableBufferPointer { paired in
                let xp = paired.baseAddress!
                convert(pixels: pixels, depth: g.inputDepth, threads: threads) { first, count, out in
                    if isU8 {
                        Int16PairPacking.convert(x.assumingMemoryBound(to: UInt8.self) + first * g.inputDepth, pixels: count,
                                                 depth: g.inputDepth, offset: q.parameters.inputOffset, into: xp + out)
                    } else {
                        Int16PairPacking.convert(x.assumingMemoryBound(to: Int8.self) + first * g.inputDepth, pixels: count,
                                                 depth: g.inputDepth, offset: q.parameters.inputOffset, into: xp + out)
                    }
                }
                let xin = UnsafePointer(xp)
                packedInteger!.withUnsafeBufferPointer { w in
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
            scratch.quantize(x.assumingMemoryBound(to: Float.self), batches: g.batches, rowSize: rowSize,
                             asymmetric: asymmetric) { q, scales, offsets in
                pairedInput.withUnsafeMutableBufferPointer { paired in
                    let xp = paired.baseAddress!
                    for batch in 0..<g.batches {
                        Int16PairPacking.convert(q + batch * rowSize, pixels: imagePixels, depth: g.inputDepth,
                                                 offset: -offsets[batch], into: xp + batch * imagePixels * stride)
                    }
                    let xin = UnsafePointer(xp)
                    packedInteger!.withUnsafeBufferPointer { w in
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

    /// Tiles per thread chunk: at least ~200k multiply-adds, so small layers stay on one thread.
    private static func integerMinChunk(_ g: ConvolutionGeometry) -> Int {
        let perTile = QuantizedGEMM.tilePixels * g.outputDepth * g.filterHeight * g.filterWidth * g.inputDepth
        return max(1, 200_000 / max(1, perTile))
    }

    /// Converts `pixels` pixels into the paired layout, split across the pool for large inputs:
    /// `body(firstPixel, pixelCount, outputElementOffset)`.
    private static func convert(pixels: Int, depth: Int, threads: ThreadPool,
                                _ body: (Int, Int, Int) -> Void) {
        let stride = Int16PairPacking.pairedDepth(depth)
        threads.parallelFor(pixels, minChunk: max(1, 65_536 / max(1, depth))) { part in
            body(part.lowerBound, part.count, part.lowerBound * stride)
        }
    }
}
