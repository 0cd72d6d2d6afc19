/// The microkernel family a `QuantizedGEMM` call runs. All produce identical (exact) sums.
enum QuantizedGEMMKernel: Sendable, CaseIterable {
    /// 8 pixels × 32 channels with `vpdpwssd` (builds with `LITEVISION_AVX512`).
    case avx512
    /// 4 pixels × 8 channels with `pmaddwd` (any x86-64 build).
    case sse2
    /// 4 pixels × 16 channels in portable Swift SIMD (every architecture).
    case portable

    /// The fastest kernel this build compiles.
    static var best: QuantizedGEMMKernel {
        #if LITEVISION_AVX512
        return .avx512
        #elseif arch(x86_64)
        return .sse2
        #else
        return .portable
        #endif
    }

    /// The kernels this build compiles (the others fall back to `portable`).
    static var compiled: [QuantizedGEMMKernel] {
        #if LITEVISION_AVX512
        return [.avx512, .sse2, .portable]
        #elseif arch(x86_64)
        return [.sse2, .portable]
        #else
        return [.portable]
        #endif
    }
}

/// Quantized CONV_2D (uint8, int8, hybrid) and FULLY_CONNECTED (as a 1×1 convolution over its
/// batch rows) as an indirect, im2col-free integer GEMM over the int16-pair layout of
/// `Int16PairPacking`: for a tile of `tilePixels` output pixels, a table holds each pixel's
/// input run for every filter tap (the trailing zero pixel for taps in the padding), and a
/// microkernel sums `Σ (w + filterOffset)(x + inputOffset)` pairwise in exact Int32 for one or
/// two 16-channel weight panels; the epilogue adds the bias and requantizes (or rescales, for
/// hybrid) the finished rows. Results are bit-exact with `Conv2DReference`.
public enum QuantizedGEMM {
    /// Output pixels per tile (the unit the thread pool splits).
    public static let tilePixels = 8

    /// Number of tiles covering the output of `g`.
    public static func tileCount(_ g: ConvolutionGeometry) -> Int {
        (g.batches * g.outputHeight * g.outputWidth + tilePixels - 1) / tilePixels
    }

    /// uint8 CONV_2D tiles, bit-exact with `Conv2DReference.uint8`. `input` is the paired
    /// activation buffer (`Int16PairPacking.convert`, with its trailing zero pixel), the filter
    /// packed by `Int16PairPacking.pack` with the filter offset. Needs `groups == 1`.
    public static func uint8(_ g: ConvolutionGeometry, _ q: ConvRequantizer, input: UnsafePointer<Int16>,
                             packedFilter: UnsafePointer<Int16>, bias: UnsafePointer<Int32>?,
                             output: UnsafeMutablePointer<UInt8>, tiles: Range<Int>) {
        run(g, input: input, packedFilter: packedFilter, bias: bias,
            epilogue: ConvRequantizeEpilogue<UInt8>(requantizer: q), output: output, tiles: tiles)
    }

    /// int8 CONV_2D tiles, bit-exact with `Conv2DReference.int8` (see `uint8`).
    public static func int8(_ g: ConvolutionGeometry, _ q: ConvRequantizer, input: UnsafePointer<Int16>,
                            packedFilter: UnsafePointer<Int16>, bias: UnsafePointer<Int32>?,
                            output: UnsafeMutablePointer<Int8>, tiles: Range<Int>) {
        run(g, input: input, packedFilter: packedFilter, bias: bias,
            epilogue: ConvRequantizeEpilogue<Int8>(requantizer: q), output: output, tiles: tiles)
    }

    /// Hybrid CONV_2D tiles: `input` holds each batch's on-the-fly quantized input minus its
    /// offset, with per-batch `inputScales`; the filter was packed with offset 0.
    public static func hybrid(_ g: ConvolutionGeometry, _ p: HybridConvolutionParameters, input: UnsafePointer<Int16>,
                              inputScales: UnsafePointer<Float>, packedFilter: UnsafePointer<Int16>,
                              bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>, tiles: Range<Int>) {
        run(g, input: input, packedFilter: packedFilter, bias: nil,
            epilogue: ConvHybridEpilogue(parameters: p, inputScales: inputScales, bias: bias),
            output: output, tiles: tiles)
    }

    /// The shared tile loop: indirection table, microkernel, bias and epilogue.
    @inline(__always)
    static func run<E: ConvIntegerEpilogue>(
        _ g: ConvolutionGeometry, input: UnsafePointer<Int16>, packedFilter: UnsafePointer<Int16>,
        bias: UnsafePointer<Int32>?, epilogue: E, output: UnsafeMutablePointer<E.Output>, tiles: Range<Int>,
        kernel: QuantizedGEMMKernel = .best
    ) {
        let pixels = g.batches * g.outputHeight * g.outputWidth
        let perImage = g.outputHeight * g.outputWidth
        let stride = Int16PairPacking.pairedDepth(g.inputDepth)
        let pairs = stride / 2
        let taps = g.filterHeight * g.filterWidth
        let panelWidth = Int16PairPacking.panelWidth
        let panels = Int16PairPacking.panelCount(outputDepth: g.outputDepth)
        let panelStride = taps * pairs * 2 * panelWidth
        let zeros = input + g.batches * g.inputHeight * g.inputWidth * stride
        let imageSize = g.inputHeight * g.inputWidth * stride
        let n = tilePixels
        withUnsafeTemporaryAllocation(of: UnsafePointer<Int16>.self, capacity: taps * n) { table in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: n * 2 * panelWidth) { accBuffer in
                let pointers = table.baseAddress!, acc = accBuffer.baseAddress!
                for tile in tiles {
                    let first = tile * n
                    let rows = min(n, pixels - first)
                    for r in 0..<n {
                        let p = first + min(r, rows - 1)
                        let ox = p % g.outputWidth, rest = p / g.outputWidth
                        let oy = rest % g.outputHeight, b = rest / g.outputHeight
                        let y0 = oy * g.strideHeight - g.padTop, x0 = ox * g.strideWidth - g.padLeft
                        let image = input + b * imageSize
                        for fy in 0..<g.filterHeight {
                            let iy = y0 + fy * g.dilationHeight
                            let rowInside = iy >= 0 && iy < g.inputHeight
                            for fx in 0..<g.filterWidth {
                                let ix = x0 + fx * g.dilationWidth
                                pointers[(fy * g.filterWidth + fx) * n + r] =
                                    rowInside && ix >= 0 && ix < g.inputWidth ? image + (iy * g.inputWidth + ix) * stride : zeros
                            }
                        }
                    }
                    var panel = 0
                    while panel < panels {
                        let block = accumulate(kernel, pointers: pointers, taps: taps, pairs: pairs, rows: rows,
                                               weights: packedFilter + panel * panelStride, panelStride: panelStride,
                                               panelsLeft: panels - panel, into: acc)
                        for k in 0..<block {
                            let n0 = (panel + k) * panelWidth
                            let lanes = min(panelWidth, g.outputDepth - n0)
                            var b0 = SIMD16<Int32>()
                            if let bias {
                                if lanes == panelWidth {
                                    b0 = UnsafeRawPointer(bias + n0).loadUnaligned(as: SIMD16<Int32>.self)
                                } else {
                                    for l in 0..<lanes { b0[l] = bias[n0 + l] }
                                }
                            }
                            for r in 0..<rows {
                                let sums = UnsafeRawPointer(acc + r * 2 * panelWidth + k * panelWidth)
                                    .loadUnaligned(as: SIMD16<Int32>.self)
                                let pixel = first + r
                                epilogue.store(sums &+ b0, pixel: pixel, batch: pixel / perImage, channel: n0, lanes: lanes,
                                               outputDepth: g.outputDepth, to: output)
                            }
                        }
                        panel += block
                    }
                }
            }
        }
    }

    /// Runs `kernel` on one tile for the panels starting at `weights`; writes the sums of pixel
    /// `r`, panel `k` to `acc[r·32 + k·16 ..< +16]`. Returns how many panels (1 or 2) it did.
    @inline(__always)
    static func accumulate(_ kernel: QuantizedGEMMKernel, pointers: UnsafePointer<UnsafePointer<Int16>>,
                           taps: Int, pairs: Int, rows: Int, weights: UnsafePointer<Int16>, panelStride: Int,
                           panelsLeft: Int, into acc: UnsafeMutablePointer<Int32>) -> Int {
        let n = tilePixels
        switch kernel {
        case .avx512:
            #if LITEVISION_AVX512
            if panelsLeft >= 2 {
                avx512Tile8x32(pointers, taps: taps, pairs: pairs, weights: weights, panelStride: panelStride, into: acc)
                return 2
            }
            avx512Tile8x16(pointers, taps: taps, pairs: pairs, weights: weights, into: acc)
            return 1
            #else
            break
            #endif
        case .sse2:
            #if arch(x86_64)
            for half in stride(from: 0, to: rows, by: 4) {
                for quarter in 0..<2 {
                    sse2Tile4x8(pointers + half, rowStride: n, taps: taps, pairs: pairs, weights: weights + quarter * 16,
                                into: acc + half * 32 + quarter * 8)
                }
            }
            return 1
            #else
            break
            #endif
        case .portable:
            break
        }
        for half in stride(from: 0, to: rows, by: 4) {
            portableTile4x16(pointers + half, rowStride: n, taps: taps, pairs: pairs, weights: weights,
                             into: acc + half * 32)
        }
        return 1
    }
}
