/// Reference (oracle) DEPTHWISE_CONV_2D kernels. Filter layout `[1, fh, fw, outputDepth]`;
/// output channel `oc = ic · depthMultiplier + m` reads input channel `ic`.
public enum DepthwiseConv2DReference {}

extension DepthwiseConv2DReference {
    /// Float DEPTHWISE_CONV_2D (TFLite `reference_ops::DepthwiseConv`).
    /// - Complexity: O(outputCount · filterHeight · filterWidth).
    public static func float(_ g: ConvolutionGeometry, activationMin: Float, activationMax: Float,
                             input: UnsafePointer<Float>, filter: UnsafePointer<Float>,
                             bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>) {
        let multiplier = g.depthMultiplier
        for b in 0..<g.batches {
            for oy in 0..<g.outputHeight {
                let inYOrigin = oy * g.strideHeight - g.padTop
                for ox in 0..<g.outputWidth {
                    let inXOrigin = ox * g.strideWidth - g.padLeft
                    for ic in 0..<g.inputDepth {
                        for m in 0..<multiplier {
                            let oc = ic * multiplier + m
                            var total: Float = 0
                            for fy in 0..<g.filterHeight {
                                let iy = inYOrigin + g.dilationHeight * fy
                                if iy < 0 || iy >= g.inputHeight { continue }
                                for fx in 0..<g.filterWidth {
                                    let ix = inXOrigin + g.dilationWidth * fx
                                    if ix < 0 || ix >= g.inputWidth { continue }
                                    let x = input[((b * g.inputHeight + iy) * g.inputWidth + ix) * g.inputDepth + ic]
                                    let w = filter[(fy * g.filterWidth + fx) * g.outputDepth + oc]
                                    total += x * w
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
}
