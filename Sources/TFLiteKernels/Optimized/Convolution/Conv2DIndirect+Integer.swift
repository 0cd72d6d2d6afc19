/// What the integer indirect convolution does with a finished tile row of 16 Int32
/// accumulators (bias already included for quantized outputs).
protocol ConvIntegerEpilogue {
    associatedtype Output
    /// Writes `lanes` results of output pixel `pixel` (batch `batch`), channels `n0 ..< n0 + lanes`.
    func store(_ acc: SIMD16<Int32>, pixel: Int, batch: Int, channel n0: Int, lanes: Int,
               outputDepth: Int, to output: UnsafeMutablePointer<Output>)
}

/// Requantization to uint8/int8, bit-exact with the reference kernels (16 lanes at a time).
struct ConvRequantizeEpilogue<Element: FixedWidthInteger & SIMDScalar>: ConvIntegerEpilogue {
    let requantizer: ConvRequantizer
    @inline(__always)
    func store(_ acc: SIMD16<Int32>, pixel: Int, batch: Int, channel n0: Int, lanes: Int,
               outputDepth: Int, to output: UnsafeMutablePointer<Element>) {
        let dst = output + pixel * outputDepth + n0
        requantizer.store(acc, channel: n0, lanes: lanes, to: dst)
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
            var v = parameters.rescale(acc[l], channel: n0 + l, inputScale: s)
            if let bias { v += bias[n0 + l] }
            dst[l] = min(max(v, parameters.activationMin), parameters.activationMax)
        }
    }
}

extension Conv2DOptimized {
    /// Float partial sums stay below 2^22 for this many steps (|product| ≤ 255 · 255), so
    /// adding 1.5 · 2^23 and reinterpreting the bits yields the exact integer.
    static let exactSteps = 64

    /// The exact float-to-Int32 conversion of integral values below 2^22 in magnitude.
    @inline(__always)
    static func exactInteger(_ v: SIMD16<Float>) -> SIMD16<Int32> {
        let biased = v + SIMD16<Float>(repeating: 12_582_912)
        return unsafeBitCast(biased, to: SIMD16<Int32>.self) &- SIMD16<Int32>(repeating: 0x4B40_0000)
    }

    /// Converts quantized values to exact floats `x + offset` (|x + offset| ≤ 255), the input
    /// form of the integer convolution kernels. Call once per invoke (per batch for hybrid).
    public static func offsetInput(_ x: UnsafePointer<UInt8>, count: Int, offset: Int32,
                                   into out: UnsafeMutablePointer<Float>) {
        let f = Float(offset)
        for i in 0..<count { out[i] = Float(x[i]) + f }
    }

    /// `offsetInput` for int8 values.
    public static func offsetInput(_ x: UnsafePointer<Int8>, count: Int, offset: Int32,
                                   into out: UnsafeMutablePointer<Float>) {
        let f = Float(offset)
        for i in 0..<count { out[i] = Float(x[i]) + f }
    }

    /// The integer indirect GEMM shared by uint8, int8 and hybrid convolutions:
    /// `acc = bias + Σ w'·x'` where `x' = x + inputOffset` comes from `offsetInput` and
    /// `w' = w + filterOffset` from `ConvFilterPacking.packInteger`, both exact in Float.
    /// Products are summed in float for at most `exactSteps` steps, then moved to Int32, so
    /// the total is the exact integer the reference computes. Taps in the padding read
    /// `zeros` (x' = 0, i.e. the zero point).
    @inline(__always)
    static func integer<E: ConvIntegerEpilogue>(
        _ g: ConvolutionGeometry, input: UnsafePointer<Float>, packedFilter: UnsafePointer<Float>,
        bias: UnsafePointer<Int32>?, zeros: UnsafePointer<Float>,
        epilogue: E, output: UnsafeMutablePointer<E.Output>, tiles: Range<Int>
    ) {
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
            @inline(__always) func run(_ y: Int, _ x: Int, _ b: Int, _ fy: Int, _ fx: Int) -> UnsafePointer<Float> {
                let iy = y + fy * g.dilationHeight, ix = x + fx * g.dilationWidth
                if iy < 0 || iy >= g.inputHeight || ix < 0 || ix >= g.inputWidth { return zeros }
                return input + ((b * g.inputHeight + iy) * g.inputWidth + ix) * cin
            }
            for panel in 0..<panels {
                let n0 = panel * ConvFilterPacking.panelWidth
                let lanes = min(16, g.outputDepth - n0)
                var b0 = SIMD16<Int32>()
                if let bias {
                    if lanes == 16 { b0 = UnsafeRawPointer(bias + n0).loadUnaligned(as: SIMD16<Int32>.self) } else {
                        for l in 0..<lanes { b0[l] = bias[n0 + l] }
                    }
                }
                var a0 = b0, a1 = b0, a2 = b0, a3 = b0
                var f0 = SIMD16<Float>(), f1 = SIMD16<Float>(), f2 = SIMD16<Float>(), f3 = SIMD16<Float>()
                var steps = 0
                var w = packedFilter + panel * depth * 16
                for fy in 0..<g.filterHeight {
                    for fx in 0..<g.filterWidth {
                        let p0 = run(inY.0, inX.0, batch.0, fy, fx), p1 = run(inY.1, inX.1, batch.1, fy, fx)
                        let p2 = run(inY.2, inX.2, batch.2, fy, fx), p3 = run(inY.3, inX.3, batch.3, fy, fx)
                        var ic = 0
                        while ic < cin {
                            let n = min(cin - ic, exactSteps - steps)
                            for k in ic..<(ic + n) {
                                let wv = UnsafeRawPointer(w).loadUnaligned(as: SIMD16<Float>.self)
                                f0 = SIMD16(repeating: p0[k]) * wv + f0
                                f1 = SIMD16(repeating: p1[k]) * wv + f1
                                f2 = SIMD16(repeating: p2[k]) * wv + f2
                                f3 = SIMD16(repeating: p3[k]) * wv + f3
                                w += 16
                            }
                            ic += n; steps += n
                            if steps == exactSteps {
                                a0 &+= exactInteger(f0); a1 &+= exactInteger(f1)
                                a2 &+= exactInteger(f2); a3 &+= exactInteger(f3)
                                f0 = SIMD16(); f1 = SIMD16(); f2 = SIMD16(); f3 = SIMD16()
                                steps = 0
                            }
                        }
                    }
                }
                a0 &+= exactInteger(f0); a1 &+= exactInteger(f1)
                a2 &+= exactInteger(f2); a3 &+= exactInteger(f3)
                let bs = (batch.0, batch.1, batch.2, batch.3)
                if rows > 0 { epilogue.store(a0, pixel: first, batch: bs.0, channel: n0, lanes: lanes, outputDepth: g.outputDepth, to: output) }
                if rows > 1 { epilogue.store(a1, pixel: first + 1, batch: bs.1, channel: n0, lanes: lanes, outputDepth: g.outputDepth, to: output) }
                if rows > 2 { epilogue.store(a2, pixel: first + 2, batch: bs.2, channel: n0, lanes: lanes, outputDepth: g.outputDepth, to: output) }
                if rows > 3 { epilogue.store(a3, pixel: first + 3, batch: bs.3, channel: n0, lanes: lanes, outputDepth: g.outputDepth, to: output) }
            }
        }
    }

    /// uint8 CONV_2D tiles, bit-exact with `Conv2DReference.uint8`: `offsetInput` holds
    /// `x + inputOffset` (from `offsetInput(_:count:offset:into:)`), `zeros` at least
    /// `inputDepth` zeros; the filter was packed with the filter offset.
    public static func uint8(_ g: ConvolutionGeometry, _ q: ConvRequantizer,
                             offsetInput: UnsafePointer<Float>, packedFilter: UnsafePointer<Float>,
                             bias: UnsafePointer<Int32>?, zeros: UnsafePointer<Float>,
                             output: UnsafeMutablePointer<UInt8>, tiles: Range<Int>) {
        integer(g, input: offsetInput, packedFilter: packedFilter, bias: bias, zeros: zeros,
                epilogue: ConvRequantizeEpilogue<UInt8>(requantizer: q), output: output, tiles: tiles)
    }

    /// int8 CONV_2D tiles, bit-exact with `Conv2DReference.int8` (see `uint8`).
    public static func int8(_ g: ConvolutionGeometry, _ q: ConvRequantizer,
                            offsetInput: UnsafePointer<Float>, packedFilter: UnsafePointer<Float>,
                            bias: UnsafePointer<Int32>?, zeros: UnsafePointer<Float>,
                            output: UnsafeMutablePointer<Int8>, tiles: Range<Int>) {
        integer(g, input: offsetInput, packedFilter: packedFilter, bias: bias, zeros: zeros,
                epilogue: ConvRequantizeEpilogue<Int8>(requantizer: q), output: output, tiles: tiles)
    }

    /// Hybrid CONV_2D tiles: `offsetInput` holds each batch's on-the-fly quantized input minus
    /// its zero point, with per-batch `inputScales`; filter packed with offset 0.
    public static func hybrid(_ g: ConvolutionGeometry, _ p: HybridConvolutionParameters,
                              offsetInput: UnsafePointer<Float>, inputScales: UnsafePointer<Float>,
                              packedFilter: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
                              zeros: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, tiles: Range<Int>) {
        integer(g, input: offsetInput, packedFilter: packedFilter, bias: nil, zeros: zeros,
                epilogue: ConvHybridEpilogue(parameters: p, inputScales: inputScales, bias: bias),
                output: output, tiles: tiles)
    }
}
