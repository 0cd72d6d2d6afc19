/// Optimized DEPTHWISE_CONV_2D for depth multiplier 1 (every real mobile network): NHWC keeps
/// channels contiguous, so each output pixel is computed 16 channels at a time with one
/// `SIMD16` accumulator per block, for any filter size, stride and dilation. Taps in the
/// padding are skipped exactly as the reference does. Work is split by output rows
/// (`batches · outputHeight` of them).
public enum DepthwiseConv2DOptimized {
    /// True when these kernels apply (`depthMultiplier == 1`, and few enough taps for the
    /// quantized kernels' exact float partial sums).
    public static func supports(_ g: ConvolutionGeometry) -> Bool {
        g.inputDepth == g.outputDepth && g.filterHeight * g.filterWidth <= Conv2DOptimized.exactSteps
    }

    /// Number of output rows (the unit to split across threads).
    public static func rowCount(_ g: ConvolutionGeometry) -> Int { g.batches * g.outputHeight }

    /// Float depthwise convolution of output rows `rows`.
    public static func float(_ g: ConvolutionGeometry, activationMin: Float, activationMax: Float,
                             input: UnsafePointer<Float>, filter: UnsafePointer<Float>,
                             bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>, rows: Range<Int>) {
        let c = g.inputDepth
        let blocks = c / 16
        let lo = SIMD16<Float>(repeating: activationMin), hi = SIMD16<Float>(repeating: activationMax)
        for row in rows {
            let b = row / g.outputHeight, oy = row % g.outputHeight
            let y0 = oy * g.strideHeight - g.padTop
            for ox in 0..<g.outputWidth {
                let x0 = ox * g.strideWidth - g.padLeft
                let dst = output + ((b * g.outputHeight + oy) * g.outputWidth + ox) * c
                for blk in 0..<blocks {
                    let ch = blk * 16
                    var acc = SIMD16<Float>()
                    for fy in 0..<g.filterHeight {
                        let iy = y0 + fy * g.dilationHeight
                        if iy < 0 || iy >= g.inputHeight { continue }
                        let inRow = input + (b * g.inputHeight + iy) * g.inputWidth * c + ch
                        let fRow = filter + fy * g.filterWidth * c + ch
                        for fx in 0..<g.filterWidth {
                            let ix = x0 + fx * g.dilationWidth
                            if ix < 0 || ix >= g.inputWidth { continue }
                            let x = UnsafeRawPointer(inRow + ix * c).loadUnaligned(as: SIMD16<Float>.self)
                            let w = UnsafeRawPointer(fRow + fx * c).loadUnaligned(as: SIMD16<Float>.self)
                            acc = x * w + acc
                        }
                    }
                    if let bias { acc += UnsafeRawPointer(bias + ch).loadUnaligned(as: SIMD16<Float>.self) }
                    acc = acc.replacing(with: lo, where: acc .< lo).replacing(with: hi, where: acc .> hi)
                    UnsafeMutableRawPointer(dst + ch).storeBytes(of: acc, as: SIMD16<Float>.self)
                }
                for ch in (blocks * 16)..<c {
                    var acc: Float = 0
                    for fy in 0..<g.filterHeight {
                        let iy = y0 + fy * g.dilationHeight
                        if iy < 0 || iy >= g.inputHeight { continue }
                        for fx in 0..<g.filterWidth {
                            let ix = x0 + fx * g.dilationWidth
                            if ix < 0 || ix >= g.inputWidth { continue }
                            acc = input[((b * g.inputHeight + iy) * g.inputWidth + ix) * c + ch]
                                * filter[(fy * g.filterWidth + fx) * c + ch] + acc
                        }
                    }
                    dst[ch] = min(max(acc + (bias?[ch] ?? 0), activationMin), activationMax)
                }
            }
        }
    }

    /// Quantized (uint8 / int8) depthwise convolution of output rows `rows`, bit-exact with
    /// the reference: `offsetInput` holds `x + inputOffset` as exact floats (see
    /// `Conv2DOptimized.offsetInput`), `packedFilter` `w + filterOffset` in filter order; the
    /// float sums of at most `Conv2DOptimized.exactSteps` taps are exact integers.
    static func quantized<Element: FixedWidthInteger & SIMDScalar>(
        _ g: ConvolutionGeometry, _ requantizer: ConvRequantizer, offsetInput: UnsafePointer<Float>,
        packedFilter: UnsafePointer<Float>, bias: UnsafePointer<Int32>?,
        output: UnsafeMutablePointer<Element>, rows: Range<Int>
    ) {
        let q = requantizer.parameters
        let c = g.inputDepth
        let blocks = c / 16
        for row in rows {
            let b = row / g.outputHeight, oy = row % g.outputHeight
            let y0 = oy * g.strideHeight - g.padTop
            for ox in 0..<g.outputWidth {
                let x0 = ox * g.strideWidth - g.padLeft
                let dst = output + ((b * g.outputHeight + oy) * g.outputWidth + ox) * c
                for blk in 0..<blocks {
                    let ch = blk * 16
                    var acc = SIMD16<Float>()
                    for fy in 0..<g.filterHeight {
                        let iy = y0 + fy * g.dilationHeight
                        if iy < 0 || iy >= g.inputHeight { continue }
                        let inRow = offsetInput + (b * g.inputHeight + iy) * g.inputWidth * c + ch
                        let fRow = packedFilter + fy * g.filterWidth * c + ch
                        for fx in 0..<g.filterWidth {
                            let ix = x0 + fx * g.dilationWidth
                            if ix < 0 || ix >= g.inputWidth { continue }
                            let x = UnsafeRawPointer(inRow + ix * c).loadUnaligned(as: SIMD16<Float>.self)
                            let w = UnsafeRawPointer(fRow + fx * c).loadUnaligned(as: SIMD16<Float>.self)
                            acc = x * w + acc
                        }
                    }
                    var total = Conv2DOptimized.exactInteger(acc)
                    if let bias { total &+= UnsafeRawPointer(bias + ch).loadUnaligned(as: SIMD16<Int32>.self) }
                    requantizer.store(total, channel: ch, lanes: 16, to: dst + ch)
                }
                for ch in (blocks * 16)..<c {
                    var acc: Int32 = bias?[ch] ?? 0
                    for fy in 0..<g.filterHeight {
                        let iy = y0 + fy * g.dilationHeight
                        if iy < 0 || iy >= g.inputHeight { continue }
                        for fx in 0..<g.filterWidth {
                            let ix = x0 + fx * g.dilationWidth
                            if ix < 0 || ix >= g.inputWidth { continue }
                            let x = Int32(offsetInput[((b * g.inputHeight + iy) * g.inputWidth + ix) * c + ch])
                            acc = x &* Int32(packedFilter[(fy * g.filterWidth + fx) * c + ch]) &+ acc
                        }
                    }
                    dst[ch] = Element(truncatingIfNeeded: q.requantize(acc, channel: ch))
                }
            }
        }
    }

    /// uint8 depthwise rows (see `quantized`).
    public static func uint8(_ g: ConvolutionGeometry, _ q: ConvRequantizer, offsetInput: UnsafePointer<Float>,
                             packedFilter: UnsafePointer<Float>, bias: UnsafePointer<Int32>?,
                             output: UnsafeMutablePointer<UInt8>, rows: Range<Int>) {
        quantized(g, q, offsetInput: offsetInput, packedFilter: packedFilter, bias: bias, output: output, rows: rows)
    }

    /// int8 depthwise rows (see `quantized`).
    public static func int8(_ g: ConvolutionGeometry, _ q: ConvRequantizer, offsetInput: UnsafePointer<Float>,
                            packedFilter: UnsafePointer<Float>, bias: UnsafePointer<Int32>?,
                            output: UnsafeMutablePointer<Int8>, rows: Range<Int>) {
        quantized(g, q, offsetInput: offsetInput, packedFilter: packedFilter, bias: bias, output: output, rows: rows)
    }
}
