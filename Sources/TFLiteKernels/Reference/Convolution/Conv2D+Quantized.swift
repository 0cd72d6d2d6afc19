extension Conv2DReference {
    /// Quantized CONV_2D shared by the uint8 and int8 entry points:
    /// `acc = Σ (w + filterOffset)(x + inputOffset) + bias_c`, then requantized per channel.
    /// Taps outside the input are skipped (they stand for the real value 0).
    static func quantized<Element: FixedWidthInteger, Weight: FixedWidthInteger>(
        _ g: ConvolutionGeometry, _ q: QuantizedConvolutionParameters,
        input: UnsafePointer<Element>, filter: UnsafePointer<Weight>,
        bias: UnsafePointer<Int32>?, output: UnsafeMutablePointer<Element>
    ) {
        ConvolutionWindowWalk.convolution(g, zero: Int32(0), tap: { acc, _, x, w in
            for ic in 0..<g.filterInputDepth {
                acc = acc &+ (Int32(filter[w + ic]) &+ q.filterOffset) &* (Int32(input[x + ic]) &+ q.inputOffset)
            }
        }, finish: { acc, _, oc, o in
            output[o] = Element(truncatingIfNeeded: q.requantize(acc &+ (bias?[oc] ?? 0), channel: oc))
        })
    }
}
