/// Reference (oracle) CONV_2D kernels: plain scalar loops with TFLite's exact arithmetic.
public enum Conv2DReference {}

extension Conv2DReference {
    /// Float CONV_2D (grouped when `filterInputDepth < inputDepth`), NHWC input, OHWI filter.
    ///
    /// Taps outside the input contribute nothing (zero padding); each output is
    /// `clamp(Σ x·w + bias, activationMin, activationMax)`.
    /// - Complexity: O(outputCount · filterHeight · filterWidth · filterInputDepth).
    public static func float(_ g: ConvolutionGeometry, activationMin: Float, activationMax: Float,
                             input: UnsafePointer<Float>, filter: UnsafePointer<Float>,
                             bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>) {
        let filtersPerGroup = max(1, g.outputDepth / max(1, g.groups))
        for b in 0..<g.batches {
            for oy in 0..<g.outputHeight {
                let inYOrigin = oy * g.strideHeight - g.padTop
                for ox in 0..<g.outputWidth {
                    let inXOrigin = ox * g.strideWidth - g.padLeft
                    for oc in 0..<g.outputDepth {
                        let group = oc / filtersPerGroup
                        var total: Float = 0
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
                                    total += input[inBase + ic] * filter[fBase + ic]
                                }
                            }
                        }
                        let value = total + (bias?[oc] ?? 0)
                        output[((b * g.outputHeight + oy) * g.outputWidth + ox) * g.outputDepth + oc] =
                            min(max(value, activationMin), activationMax)
                    }
                }
            }
        }
    }
}
