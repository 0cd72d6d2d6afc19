extension Conv2DReference {
    /// uint8 CONV_2D with per-tensor asymmetric quantization (TFLite `reference_ops::Conv`).
    public static func uint8(_ g: ConvolutionGeometry, _ q: QuantizedConvolutionParameters,
                             input: UnsafePointer<UInt8>, filter: UnsafePointer<UInt8>,
                             bias: UnsafePointer<Int32>?, output: UnsafeMutablePointer<UInt8>) {
        quantized(g, q, input: input, filter: filter, bias: bias, output: output)
    }
}
