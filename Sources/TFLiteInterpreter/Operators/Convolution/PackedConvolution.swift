import TFLiteKernels

/// The packed-weight GEMM path that CONV_2D and FULLY_CONNECTED (a 1×1 convolution over its batch
/// rows) share: the float kernel, or the uint8/int8/hybrid integer GEMM with the input first turned
/// into the operands' layout (`QuantizedGEMMOperands`), split over pixel tiles across the thread pool.
enum PackedConvolution {
    /// Runs `mode`'s optimized kernel on geometry `g` with weights packed at prepare.
    static func invoke(_ g: ConvolutionGeometry, mode: ConvComputeMode, floatRange: (min: Float, max: Float),
                       requantizer: ConvRequantizer?, hybrid: HybridConvolutionParameters?,
                       scratch: inout HybridScratch, packedFloat: AlignedArray<Float>?, integer: QuantizedGEMMOperands?,
                       zeroRun: [Float], threads: ThreadPool, fusesMultiplyAdd: Bool,
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
                                              tiles: part, fusedMultiplyAdd: fusesMultiplyAdd)
                    }
                }
            }
        case .uint8, .int8:
            let q = requantizer!
            let bias = b.map { UnsafePointer($0.assumingMemoryBound(to: Int32.self)) }
            let operands = integer!
            if operands.quads != nil {
                invokeQuads(g, q, operands: operands, threads: threads, input: x, bias: bias, output: y)
                return
            }
            let isU8 = mode == .uint8
            let gemm = operands.geometry
            let offset = q.parameters.inputOffset
            let packed = operands.pairs!.weights
            operands.pairs!.input.withUnsafeMutableBufferPointer { paired in
                let xp = paired.baseAddress!
                for batch in 0..<g.batches {
                    let start = batch * g.inputHeight * g.inputWidth * g.inputDepth
                    if isU8 {
                        fillPairs(g, operands: operands, batch: batch, threads: threads, into: xp,
                                  source: x.assumingMemoryBound(to: UInt8.self) + start, offset: offset,
                                  gather: QuantizedConvPatches.gatherPairs, convert: Int16PairPacking.convert)
                    } else {
                        fillPairs(g, operands: operands, batch: batch, threads: threads, into: xp,
                                  source: x.assumingMemoryBound(to: Int8.self) + start, offset: offset,
                                  gather: QuantizedConvPatches.gatherPairs, convert: Int16PairPacking.convert)
                    }
                }
                let xin = UnsafePointer(xp)
                packed.withUnsafeBufferPointer { w in
                    threads.parallelFor(QuantizedGEMM.tileCount(gemm), minChunk: integerMinChunk(gemm)) { part in
                        if isU8 {
                            QuantizedGEMM.uint8(gemm, q, input: xin, packedFilter: w.baseAddress!, bias: bias,
                                                output: y.assumingMemoryBound(to: UInt8.self), tiles: part)
                        } else {
                            QuantizedGEMM.int8(gemm, q, input: xin, packedFilter: w.baseAddress!, bias: bias,
                                               output: y.assumingMemoryBound(to: Int8.self), tiles: part)
                        }
                    }
                }
            }
        case .hybrid(let asymmetric):
            let p = hybrid!
            let operands = integer!
            let gemm = operands.geometry
            let rowSize = g.inputHeight * g.inputWidth * g.inputDepth
            let packed = operands.pairs!.weights
            scratch.quantize(x.assumingMemoryBound(to: Float.self), batches: g.batches, rowSize: rowSize,
                             asymmetric: asymmetric) { q, scales, offsets in
                operands.pairs!.input.withUnsafeMutableBufferPointer { paired in
                    let xp = paired.baseAddress!
                    for batch in 0..<g.batches {
                        fillPairs(g, operands: operands, batch: batch, threads: threads, into: xp,
                                  source: UnsafePointer(q + batch * rowSize), offset: -offsets[batch],
                                  gather: QuantizedConvPatches.gatherPairs, convert: Int16PairPacking.convert)
                    }
                    let xin = UnsafePointer(xp)
                    packed.withUnsafeBufferPointer { w in
                        threads.parallelFor(QuantizedGEMM.tileCount(gemm), minChunk: integerMinChunk(gemm)) { part in
                            QuantizedGEMM.hybrid(gemm, p, input: xin, inputScales: scales, packedFilter: w.baseAddress!,
                                                 bias: b.map { UnsafePointer($0.assumingMemoryBound(to: Float.self)) },
                                                 output: y.assumingMemoryBound(to: Float.self), tiles: part)
                        }
                    }
                }
            }
        }
    }

    /// Fills batch `batch`'s rows of the int16-pair GEMM input from that batch's image `source`,
    /// split across the pool: patch rows (`gather`, over output pixels) when the operands are in
    /// patch form, else the input pixels in the paired layout (`convert`), both with `offset` added.
    private static func fillPairs<Source>(
        _ g: ConvolutionGeometry, operands: QuantizedGEMMOperands, batch: Int, threads: ThreadPool,
        into base: UnsafeMutablePointer<Int16>, source: UnsafePointer<Source>, offset: Int32,
        gather: (UnsafePointer<Source>, ConvolutionGeometry, Range<Int>, Int32, UnsafeMutablePointer<Int16>) -> Void,
        convert: (UnsafePointer<Source>, Int, Int, Int32, UnsafeMutablePointer<Int16>) -> Void
    ) {
        let gemm = operands.geometry
        let rows = gemm.inputHeight * gemm.inputWidth
        let stride = Int16PairPacking.pairedDepth(gemm.inputDepth)
        let image = base + batch * rows * stride
        let patches = operands.patches
        threads.parallelFor(rows, minChunk: max(1, 65_536 / max(1, gemm.inputDepth))) { pixels in
            if patches {
                gather(source, g, pixels, offset, image)
            } else {
                convert(source + pixels.lowerBound * g.inputDepth, pixels.count, g.inputDepth, offset,
                        image + pixels.lowerBound * stride)
            }
        }
    }

    /// The quad operands: int8 input as unsigned bytes, or uint8 input as signed bytes with pixel
    /// sums (or patches of either); bias plus the zero-point correction.
    private static func invokeQuads(_ g: ConvolutionGeometry, _ q: ConvRequantizer, operands: QuantizedGEMMOperands,
                                    threads: ThreadPool, input x: UnsafeMutableRawPointer, bias: UnsafePointer<Int32>?,
                                    output y: UnsafeMutableRawPointer) {
        let gemm = operands.geometry
        let rows = gemm.inputHeight * gemm.inputWidth
        let stride = Int8QuadPacking.quadDepth(gemm.inputDepth)
        let quads = operands.quads!
        let unsigned = quads.unsignedWeights
        let packed = quads.weights
        for c in 0..<g.outputDepth { quads.bias[c] = (bias?[c] ?? 0) &+ quads.correction[c] }
        let combined = quads.bias
        let filterOffset = quads.filterOffset
        let inputOffset = q.parameters.inputOffset
        let imageSize = g.inputHeight * g.inputWidth * g.inputDepth
        quads.sums.withUnsafeMutableBufferPointer { sumsBuffer in
            let sums = sumsBuffer.baseAddress
            quads.input.withUnsafeMutableBufferPointer { bytes in
                let xp = bytes.baseAddress!
                for batch in 0..<g.batches {
                    let image = xp + batch * rows * stride
                    threads.parallelFor(rows, minChunk: max(1, 65_536 / max(1, gemm.inputDepth))) { part in
                        if unsigned {
                            let source = x.assumingMemoryBound(to: UInt8.self) + batch * imageSize
                            let imageSums = sums! + batch * rows
                            if operands.patches {
                                QuantizedConvPatches.gatherSignedQuads(source, g, pixels: part, inputOffset: inputOffset,
                                                                       into: image, sums: imageSums)
                            } else {
                                Int8QuadPacking.convert(source + part.lowerBound * g.inputDepth, pixels: part.count,
                                                        depth: g.inputDepth, into: image + part.lowerBound * stride,
                                                        sums: imageSums + part.lowerBound)
                            }
                        } else {
                            let source = x.assumingMemoryBound(to: Int8.self) + batch * imageSize
                            if operands.patches {
                                QuantizedConvPatches.gatherQuads(source, g, pixels: part, inputOffset: inputOffset, into: image)
                            } else {
                                Int8QuadPacking.convert(source + part.lowerBound * g.inputDepth, pixels: part.count,
                                                        depth: g.inputDepth, into: image + part.lowerBound * stride)
                            }
                        }
                    }
                }
                let xin = UnsafePointer(xp)
                packed.withUnsafeBufferPointer { w in
                    combined.withUnsafeBufferPointer { bb in
                        threads.parallelFor(QuantizedGEMM.tileCount(gemm), minChunk: integerMinChunk(gemm)) { part in
                            if unsigned {
                                let padding = Int32(g.inputDepth) &* (0 &- inputOffset &- 128)
                                let windowSums = QuantizedGEMMWindowSums(pixelSums: UnsafePointer(sums!), padding: padding,
                                                                         scale: filterOffset)
                                QuantizedGEMM.uint8Quads(gemm, q, input: xin, packedFilter: w.baseAddress!, bias: bb.baseAddress!,
                                                         windowSums: windowSums, output: y.assumingMemoryBound(to: UInt8.self),
                                                         tiles: part)
                            } else {
                                QuantizedGEMM.int8Quads(gemm, q, input: xin,
                                                        packedFilter: UnsafeRawPointer(w.baseAddress!).assumingMemoryBound(to: Int8.self),
                                                        bias: bb.baseAddress!, output: y.assumingMemoryBound(to: Int8.self),
                                                        tiles: part)
                            }
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
}
