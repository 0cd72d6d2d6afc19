extension Conv2DReference {
    /// Hybrid CONV_2D (TFLite `reference_ops::HybridConvPerChannel`): the float input has been
    /// quantized per batch into `quantizedInput` with `inputScales[b]` and `inputOffsets[b]`
    /// (see `HybridInputQuantizer`); int8 weights carry `filterScales[c]`.
    /// `out = clamp(Σ w·(xq − offset_b) · filterScale_c · inputScale_b + bias_c)`.
    public static func hybrid(_ g: ConvolutionGeometry, _ p: HybridConvolutionParameters,
                              quantizedInput: UnsafePointer<Int8>, inputScales: UnsafePointer<Float>,
                              inputOffsets: UnsafePointer<Int32>, filter: UnsafePointer<Int8>,
                              bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>) {
        ConvolutionWindowWalk.convolution(g, zero: Int32(0), tap: { acc, b, x, w in
            let offset = inputOffsets[b]
            for ic in 0..<g.filterInputDepth {
                acc = acc &+ Int32(filter[w + ic]) &* (Int32(quantizedInput[x + ic]) &- offset)
            }
        }, finish: { acc, b, oc, o in
            var value = p.rescale(acc, channel: oc, inputScale: inputScales[b])
            if let bias { value += bias[oc] }
            output[o] = min(max(value, p.activationMin), p.activationMax)
        })
    }
}
