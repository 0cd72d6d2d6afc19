extension DepthwiseConv2DReference {
    /// Hybrid DEPTHWISE_CONV_2D (TFLite `reference_integer_ops::DepthwiseConvHybridPerChannel`):
    /// per-batch quantized input, int8 weights with per-channel scales, float output.
    public static func hybrid(_ g: ConvolutionGeometry, _ p: HybridConvolutionParameters,
                              quantizedInput: UnsafePointer<Int8>, inputScales: UnsafePointer<Float>,
                              inputOffsets: UnsafePointer<Int32>, filter: UnsafePointer<Int8>,
                              bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>) {
        let multiplier = g.depthMultiplier
        for b in 0..<g.batches {
            let offset = inputOffsets[b]
            for oy in 0..<g.outputHeight {
                let inYOrigin = oy * g.strideHeight - g.padTop
                for ox in 0..<g.outputWidth {
                    let inXOrigin = ox * g.strideWidth - g.padLeft
                    for ic in 0..<g.inputDepth {
                        for m in 0..<multiplier {
                            let oc = ic * multiplier + m
                            var acc: Int32 = 0
                            for fy in 0..<g.filterHeight {
                                let iy = inYOrigin + g.dilationHeight * fy
                                if iy < 0 || iy >= g.inputHeight { continue }
                                for fx in 0..<g.filterWidth {
                                    let ix = inXOrigin + g.dilationWidth * fx
                                    if ix < 0 || ix >= g.inputWidth { continue }
                                    let x = Int32(quantizedInput[((b * g.inputHeight + iy) * g.inputWidth + ix) * g.inputDepth + ic])
                                    let w = Int32(filter[(fy * g.filterWidth + fx) * g.outputDepth + oc])
                                    acc = acc &+ w &* (x &- offset)
                                }
                            }
                            var value = Float(acc) * (p.filterScales[oc] * inputScales[b])
                            if let bias { value += bias[oc] }
                            output[((b * g.outputHeight + oy) * g.outputWidth + ox) * g.outputDepth + oc] =
                                min(max(value, p.activationMin), p.activationMax)
                        }
                    }
                }
            }
        }
    }
}
