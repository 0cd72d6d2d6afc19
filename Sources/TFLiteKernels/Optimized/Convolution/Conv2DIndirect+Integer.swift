/// What the integer indirect convolution does with a finished tile row of 16 Int32
/// accumulators (bias already included for quantized outputs).
protocol ConvIntegerEpilogue {
    associatedtype Output
    /// Writes `lanes` results of output pixel `pixel` (batch `batch`), channels `n0 ..< n0 + lanes`.
    func store(_ acc: SIMD16<Int32>, pixel: Int, batch: Int, channel n0: Int, lanes: Int,
               outputDepth: Int, to output: UnsafeMutablePointer<Output>)
}

/// Requantization to uint8/int8, bit-exact with the reference kernels.
struct ConvRequantizeEpilogue<Element: FixedWidthInteger>: ConvIntegerEpilogue {
    let parameters: QuantizedConvolutionParameters
    @inline(__always)
    func store(_ acc: SIMD16<Int32>, pixel: Int, batch: Int, channel n0: Int, lanes: Int,
               outputDepth: Int, to output: UnsafeMutablePointer<Element>) {
        let dst = output + pixel * outputDepth + n0
        for l in 0..<lanes {
            dst[l] = Element(truncatingIfNeeded: parameters.requantize(acc[l], channel: n0 + l))
        }
    }
}

/// Hybrid output: `clamp(acc · filterScale_c · inputScale_b + bias_c)` in float.
struct ConvHybridEpilogue: ConvIntegerEpilogue {
    let parameters: HybridConvolutionParameters
    let inputScales: UnsafePointer<Float>
    let bias: UnsafePointer<Float>?
    @inline(__always)
    func store(_ acc: SIMD16<Int32>, pixel: Int, batch: Int, channel n0: Int, lanes: Int,
               outputDepth: Int, to output: UnsafeMutablePointer<Float>) {
        let dst = output + pixel * outputDepth + n0
        let s = inputScales[batch]
        for l in 0..<lanes {
            var v = Float(acc[l]) * parameters.filterScales[n0 + l] * s
            if let bias { v += bias[n0 + l] }
            dst[l] = min(max(v, parameters.activationMin), parameters.activationMax)
        }
    }
}

extension Conv2DOptimized {
    /// The integer indirect GEMM shared by uint8, int8 and hybrid convolutions:
    /// `acc = bias + Σ w'·(x + inputOffsets[b])` with `w'` packed by `ConvFilterPacking.packInteger`.
    /// Taps in the padding read `padding + b·cin`, a run whose values cancel the offset.
    @inline(__always)
    static func integer<Element: FixedWidthInteger, E: ConvIntegerEpilogue>(
        _ g: ConvolutionGeometry, input: UnsafePointer<Element>, packedFilter: UnsafePointer<Int32>,
        bias: UnsafePointer<Int32>?, inputOffsets: UnsafePointer<Int32>, padding: UnsafePointer<Element>,
        perBatch: Bool, epilogue: E, output: UnsafeMutablePointer<E.Output>, tiles: Range<Int>
    ) {
        let offsetStride = perBatch ? 1 : 0
        let paddingStride = perBatch ? g.inputDepth : 0
        let pixels = g.batches * g.outputHeight * g.outputWidth
        let cin = g.inputDepth
        let depth = g.filterHeight * g.filterWidth * cin
        let panels = ConvFilterPacking.panelCount(outputDepth: g.outputDepth)
        var inY = (0, 0, 0, 0), inX = (0, 0, 0, 0), batch = (0, 0, 0, 0)
        for tile in tiles {
            let first = tile * tileRows
            let rows = min(tileRows, pixels - first)
            for r in 0..<tileRows {
                let p = first + min(r, rows - 1)
                let ox = p % g.outputWidth, rest = p / g.outputWidth
                let oy = rest % g.outputHeight, b = rest / g.outputHeight
                let y = oy * g.strideHeight - g.padTop, x = ox * g.strideWidth - g.padLeft
                switch r {
                case 0: inY.0 = y; inX.0 = x; batch.0 = b
                case 1: inY.1 = y; inX.1 = x; batch.1 = b
                case 2: inY.2 = y; inX.2 = x; batch.2 = b
                default: inY.3 = y; inX.3 = x; batch.3 = b
                }
            }
            @inline(__always) func run(_ y: Int, _ x: Int, _ b: Int, _ fy: Int, _ fx: Int) -> UnsafePointer<Element> {
                let iy = y + fy * g.dilationHeight, ix = x + fx * g.dilationWidth
                if iy < 0 || iy >= g.inputHeight || ix < 0 || ix >= g.inputWidth { return padding + b * paddingStride }
                return input + ((b * g.inputHeight + iy) * g.inputWidth + ix) * cin
            }
            let o0 = inputOffsets[batch.0 * offsetStride], o1 = inputOffsets[batch.1 * offsetStride]
            let o2 = inputOffsets[batch.2 * offsetStride], o3 = inputOffsets[batch.3 * offsetStride]
            for panel in 0..<panels {
                let n0 = panel * ConvFilterPacking.panelWidth
                let lanes = min(16, g.outputDepth - n0)
                var b0 = SIMD16<Int32>()
                if let bias { for l in 0..<lanes { b0[l] = bias[n0 + l] } }
                var a0 = b0, a1 = b0, a2 = b0, a3 = b0
                var w = packedFilter + panel * depth * 16
                for fy in 0..<g.filterHeight {
                    for fx in 0..<g.filterWidth {
                        let p0 = run(inY.0, inX.0, batch.0, fy, fx), p1 = run(inY.1, inX.1, batch.1, fy, fx)
                        let p2 = run(inY.2, inX.2, batch.2, fy, fx), p3 = run(inY.3, inX.3, batch.3, fy, fx)
                        for ic in 0..<cin {
                            let wv = UnsafeRawPointer(w).loadUnaligned(as: SIMD16<Int32>.self)
                            a0 = SIMD16(repeating: Int32(p0[ic]) &+ o0) &* wv &+ a0
                            a1 = SIMD16(repeating: Int32(p1[ic]) &+ o1) &* wv &+ a1
                            a2 = SIMD16(repeating: Int32(p2[ic]) &+ o2) &* wv &+ a2
                            a3 = SIMD16(repeating: Int32(p3[ic]) &+ o3) &* wv &+ a3
                            w += 16
                        }
                    }
                }
                let bs = (batch.0, batch.1, batch.2, batch.3)
                if rows > 0 { epilogue.store(a0, pixel: first, batch: bs.0, channel: n0, lanes: lanes, outputDepth: g.outputDepth, to: output) }
                if rows > 1 { epilogue.store(a1, pixel: first + 1, batch: bs.1, channel: n0, lanes: lanes, outputDepth: g.outputDepth, to: output) }
                if rows > 2 { epilogue.store(a2, pixel: first + 2, batch: bs.2, channel: n0, lanes: lanes, outputDepth: g.outputDepth, to: output) }
                if rows > 3 { epilogue.store(a3, pixel: first + 3, batch: bs.3, channel: n0, lanes: lanes, outputDepth: g.outputDepth, to: output) }
            }
        }
    }

    /// uint8 CONV_2D tiles, bit-exact with `Conv2DReference.uint8`. `padding` holds
    /// `filterInputDepth` copies of the input zero point; the filter was packed with the
    /// filter offset.
    public static func uint8(_ g: ConvolutionGeometry, _ q: QuantizedConvolutionParameters,
                             input: UnsafePointer<UInt8>, packedFilter: UnsafePointer<Int32>,
                             bias: UnsafePointer<Int32>?, padding: UnsafePointer<UInt8>,
                             output: UnsafeMutablePointer<UInt8>, tiles: Range<Int>) {
        var offset = q.inputOffset
        integer(g, input: input, packedFilter: packedFilter, bias: bias, inputOffsets: &offset, padding: padding,
                perBatch: false, epilogue: ConvRequantizeEpilogue<UInt8>(parameters: q), output: output, tiles: tiles)
    }

    /// int8 CONV_2D tiles, bit-exact with `Conv2DReference.int8`.
    public static func int8(_ g: ConvolutionGeometry, _ q: QuantizedConvolutionParameters,
                            input: UnsafePointer<Int8>, packedFilter: UnsafePointer<Int32>,
                            bias: UnsafePointer<Int32>?, padding: UnsafePointer<Int8>,
                            output: UnsafeMutablePointer<Int8>, tiles: Range<Int>) {
        var offset = q.inputOffset
        integer(g, input: input, packedFilter: packedFilter, bias: bias, inputOffsets: &offset, padding: padding,
                perBatch: false, epilogue: ConvRequantizeEpilogue<Int8>(parameters: q), output: output, tiles: tiles)
    }

    /// Hybrid CONV_2D tiles: `quantizedInput` with per-batch `inputScales`/`inputOffsets`
    /// (zero points), `padding` holding each batch's zero point repeated `filterInputDepth`
    /// times (`[batch][cin]`), filter packed with offset 0.
    public static func hybrid(_ g: ConvolutionGeometry, _ p: HybridConvolutionParameters,
                              quantizedInput: UnsafePointer<Int8>, inputScales: UnsafePointer<Float>,
                              negatedInputOffsets: UnsafePointer<Int32>, packedFilter: UnsafePointer<Int32>,
                              bias: UnsafePointer<Float>?, padding: UnsafePointer<Int8>,
                              output: UnsafeMutablePointer<Float>, tiles: Range<Int>) {
        integer(g, input: quantizedInput, packedFilter: packedFilter, bias: nil, inputOffsets: negatedInputOffsets,
                padding: padding, perBatch: true,
                epilogue: ConvHybridEpilogue(parameters: p, inputScales: inputScales, bias: bias),
                output: output, tiles: tiles)
    }
}
