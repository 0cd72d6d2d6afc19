extension Conv2DReference {
    /// int8 CONV_2D with per-channel weights (TFLite `reference_integer_ops::ConvPerChannel`).
    public static func int8(_ g: ConvolutionGeometry, _ q: QuantizedConvolutionParameters,
                            input: UnsafePointer<Int8>, filter: UnsafePointer<Int8>,
                            bias: UnsafePointer<Int32>?, output: UnsafeMutablePointer<Int8>) {
        quantized(g, q, input: input, filter: filter, bias: bias, output: output)
    }
}
