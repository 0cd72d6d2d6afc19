/// Reference (oracle) DEPTHWISE_CONV_2D kernels. Filter layout `[1, fh, fw, outputDepth]`;
/// output channel `oc = ic · depthMultiplier + m` reads input channel `ic`.
public enum DepthwiseConv2DReference {}

extension DepthwiseConv2DReference {
    /// Float DEPTHWISE_CONV_2D (TFLite `reference_ops::DepthwiseConv`).
    /// - Complexity: O(outputCount · filterHeight · filterWidth).
    public static func float(_ g: ConvolutionGeometry, activationMin: Float, activationMax: Float,
                             input: UnsafePointer<Float>, filter: UnsafePointer<Float>,
                             bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>) {
        ConvolutionWindowWalk.depthwise(g, zero: Float(0), tap: { total, _, x, w in
            total += input[x] * filter[w]
        }, finish: { total, _, oc, o in
            let value = total + (bias?[oc] ?? 0)
            output[o] = min(max(value, activationMin), activationMax)
        })
    }
}
