extension DepthwiseConv2DReference {
    /// Quantized DEPTHWISE_CONV_2D shared by the uint8 (per-tensor) and int8 (per-channel) entry points.
    static func quantized<Element: FixedWidthInteger, Weight: FixedWidthInteger>(
        _ g: ConvolutionGeometry, _ q: QuantizedConvolutionParameters,
        input: UnsafePointer<Element>, filter: UnsafePointer<Weight>,
        bias: UnsafePointer<Int32>?, output: UnsafeMutablePointer<Element>
    ) {
        ConvolutionWindowWalk.depthwise(g, zero: Int32(0), tap: { acc, _, x, w in
            acc = acc &+ (Int32(filter[w]) &+ q.filterOffset) &* (Int32(input[x]) &+ q.inputOffset)
        }, finish: { acc, _, oc, o in
            output[o] = Element(truncatingIfNeeded: q.requantize(acc &+ (bias?[oc] ?? 0), channel: oc))
        })
    }

    /// uint8 DEPTHWISE_CONV_2D, per-tensor asymmetric (TFLite `reference_ops::DepthwiseConv`).
    public static func uint8(_ g: ConvolutionGeometry, _ q: QuantizedConvolutionParameters,
                             input: UnsafePointer<UInt8>, filter: UnsafePointer<UInt8>,
                             bias: UnsafePointer<Int32>?, output: UnsafeMutablePointer<UInt8>) {
        quantized(g, q, input: input, filter: filter, bias: bias, output: output)
    }

    /// int8 DEPTHWISE_CONV_2D, per-channel weights (TFLite `reference_integer_ops::DepthwiseConvPerChannel`).
    public static func int8(_ g: ConvolutionGeometry, _ q: QuantizedConvolutionParameters,
                            input: UnsafePointer<Int8>, filter: UnsafePointer<Int8>,
                            bias: UnsafePointer<Int32>?, output: UnsafeMutablePointer<Int8>) {
        quantized(g, q, input: input, filter: filter, bias: bias, output: output)
    }
}
