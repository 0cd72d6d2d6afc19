extension FullyConnectedReference {
    /// Hybrid FULLY_CONNECTED (TFLite `EvalHybrid`): each input row was quantized to int8 with
    /// `inputScales[b]` / `inputOffsets[b]`; `out = clamp(bias_o + Σ w·(xq − offset_b) · (inputScale_b · filterScale_o))`.
    public static func hybrid(_ g: FullyConnectedGeometry, _ p: HybridConvolutionParameters,
                              quantizedInput: UnsafePointer<Int8>, inputScales: UnsafePointer<Float>,
                              inputOffsets: UnsafePointer<Int32>, weights: UnsafePointer<Int8>,
                              bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>) {
        for b in 0..<g.batches {
            let row = quantizedInput + b * g.inputSize
            let offset = inputOffsets[b]
            for o in 0..<g.outputSize {
                let w = weights + o * g.inputSize
                var acc: Int32 = 0
                for i in 0..<g.inputSize { acc = acc &+ Int32(w[i]) &* (Int32(row[i]) &- offset) }
                let value = (bias?[o] ?? 0) + Float(acc) * (inputScales[b] * p.filterScales[o])
                output[b * g.outputSize + o] = min(max(value, p.activationMin), p.activationMax)
            }
        }
    }
}
