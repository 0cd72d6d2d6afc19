extension Conv2DReference {
    /// Hybrid CONV_2D (TFLite `reference_ops::HybridConvPerChannel`): the float input has been
    /// quantized per batch into `quantizedInput` with `inputScales[b]` and `inputOffsets[b]`
    /// (see `HybridInputQuantizer`); int8 weights carry `filterScales[c]`.
    /// `out = clamp(Σ w·(xq − offset_b) · filterScale_c · inputScale_b + bias_c)`.
    public static func hybrid(_ g: ConvolutionGeometry, _ p: HybridConvolutionParameters,
                              quantizedInput: UnsafePointer<Int8>, inputScales: UnsafePointer<Float>,
                              inputOffsets: UnsafePointer<Int32>, filter: UnsafePointer<Int8>,
                              bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>) {
        let filtersPerGroup = max(1, g.outputDepth / max(1, g.groups))
        for b in 0..<g.batches {
            let offset = inputOffsets[b]
            for oy in 0..<g.outputHeight {
                let inYOrigin = oy * g.strideHeight - g.padTop
                for ox in 0..<g.outputWidth {
                    let inXOrigin = ox * g.strideWidth - g.padLeft
                    for oc in 0..<g.outputDepth {
                        let group = oc / filtersPerGroup
                        var acc: Int32 = 0
                        for fy in 0..<g.filterHeight {
                            let iy = inYOrigin + g.dilationHeight * fy
                            if iy < 0 || iy >= g.inputHeight { continue }
                            for fx in 0..<g.filterWidth {
                                let ix = inXOrigin + g.dilationWidth * fx
                                if ix < 0 || ix >= g.inputWidth { continue }
                                let inBase = ((b * g.inputHeight + iy) * g.inputWidth + ix) * g.inputDepth
                                    + group * g.filterInputDepth
                                let fBase = ((oc * g.filterHeight + fy) * g.filterWidth + fx) * g.filterInputDepth
                                for ic in 0..<g.filterInputDepth {
                                    acc = acc &+ Int32(filter[fBase + ic]) &* (Int32(quantizedInput[inBase + ic]) &- offset)
                                }
                            }
                        }
                        var value = p.rescale(acc, channel: oc, inputScale: inputScales[b])
                        if let bias { value += bias[oc] }
                        output[((b * g.outputHeight + oy) * g.outputWidth + ox) * g.outputDepth + oc] =
                            min(max(value, p.activationMin), p.activationMax)
                    }
                }
            }
        }
    }
}
