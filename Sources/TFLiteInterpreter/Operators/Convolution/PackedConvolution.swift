import TFLiteKernels

/// The packed-weight GEMM path that CONV_2D and FULLY_CONNECTED (a 1×1 convolution over its batch
/// rows) share: the float kernel, or the uint8/int8/hybrid kernels with the input first turned
/// into exact offset floats, split over 4-pixel tiles across the thread pool.
enum PackedConvolution {
    /// Runs `mode`'s optimized kernel on geometry `g` with weights packed at prepare.
    static func invoke(_ g: ConvolutionGeometry, mode: ConvComputeMode, floatRange: (min: Float, max: Float),
                       requantizer: ConvRequantizer?, hybrid: HybridConvolutionParameters?,
                       scratch: inout HybridScratch, packedFloat: [Float]?, packedInteger: [Float]?,
                       zeroRun: [Float], offsetInput: inout [Float], threads: ThreadPool,
                       input x: UnsafeMutableRawPointer, bias b: UnsafeMutableRawPointer?,
                       output y: UnsafeMutableRawPointer) {
        let tiles = Conv2DOptimized.tileCount(g)
        let minChunk = max(1, 100_000 / max(1, 4 * g.outputDepth * g.filterHeight * g.filterWidth * g.inputDepth))
        switch mode {
        case .float:
            let range = floatRange
            packedFloat!.withUnsafeBufferPointer { w in
                zeroRun.withUnsafeBufferPointer { z in
                    threads.parallelFor(tiles, minChunk: minChunk) { part in
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
            offsetInput.withUnsafeMutableBufferPointer { xf in
                if isU8 {
                    Conv2DOptimized.offsetInput(x.assumingMemoryBound(to: UInt8.self), count: g.inputCount,
                                                offset: q.parameters.inputOffset, into: xf.baseAddress!)
                } else {
                    Conv2DOptimized.offsetInput(x.assumingMemoryBound(to: Int8.self), count: g.inputCount,
                                                offset: q.parameters.inputOffset, into: xf.baseAddress!)
                }
                let xin = UnsafePointer(xf.baseAddress!)
                packedInteger!.withUnsafeBufferPointer { w in
                    zeroRun.withUnsafeBufferPointer { z in
                        threads.parallelFor(tiles, minChunk: minChunk) { part in
                            if isU8 {
                                Conv2DOptimized.uint8(g, q, offsetInput: xin, packedFilter: w.baseAddress!, bias: bias,
                                                      zeros: z.baseAddress!, output: y.assumingMemoryBound(to: UInt8.self),
                                                      tiles: part)
                            } else {
                                Conv2DOptimized.int8(g, q, offsetInput: xin, packedFilter: w.baseAddress!, bias: bias,
                                                     zeros: z.baseAddress!, output: y.assumingMemoryBound(to: Int8.self),
                                                     tiles: part)
                            }
                        }
                    }
                }
            }
        case .hybrid(let asymmetric):
            let p = hybrid!
            let rowSize = g.inputHeight * g.inputWidth * g.inputDepth
            scratch.quantize(x.assumingMemoryBound(to: Float.self), batches: g.batches, rowSize: rowSize,
                             asymmetric: asymmetric) { q, scales, offsets in
                offsetInput.withUnsafeMutableBufferPointer { xf in
                    for batch in 0..<g.batches {
                        Conv2DOptimized.offsetInput(q + batch * rowSize, count: rowSize, offset: -offsets[batch],
                                                    into: xf.baseAddress! + batch * rowSize)
                    }
                    let xin = UnsafePointer(xf.baseAddress!)
                    packedInteger!.withUnsafeBufferPointer { w in
                        zeroRun.withUnsafeBufferPointer { z in
                            threads.parallelFor(tiles, minChunk: minChunk) { part in
                                Conv2DOptimized.hybrid(g, p, offsetInput: xin, inputScales: scales, packedFilter: w.baseAddress!,
                                                       bias: b.map { UnsafePointer($0.assumingMemoryBound(to: Float.self)) },
                                                       zeros: z.baseAddress!, output: y.assumingMemoryBound(to: Float.self),
                                                       tiles: part)
                            }
                        }
                    }
                }
            }
        }
    }
}
