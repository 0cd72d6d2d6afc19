extension DepthwiseConv2DReference {
    /// Hybrid DEPTHWISE_CONV_2D (TFLite `reference_integer_ops::DepthwiseConvHybridPerChannel`):
    /// per-batch quantized input, int8 weights with per-channel scales, float output.
    public static func hybrid(_ g: ConvolutionGeometry, _ p: HybridConvolutionParameters,
                              quantizedInput: UnsafePointer<Int8>, inputScales: UnsafePointer<Float>,
                              inputOffsets: UnsafePointer<Int32>, filter: UnsafePointer<Int8>,
                              bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>) {
        ConvolutionWindowWalk.depthwise(g, zero: Int32(0), tap: { acc, b, x, w in
            acc = acc &+ Int32(filter[w]) &* (Int32(quantizedInput[x]) &- inputOffsets[b])
        }, finish: { acc, b, oc, o in
            var value = Float(acc) * (p.filterScales[oc] * inputScales[b])
            if let bias { value += bias[oc] }
            output[o] = min(max(value, p.activationMin), p.activationMax)
        })
    }
}
