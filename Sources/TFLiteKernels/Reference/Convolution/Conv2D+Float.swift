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
        ConvolutionWindowWalk.convolution(g, zero: Float(0), tap: { total, _, x, w in
            for ic in 0..<g.filterInputDepth { total += input[x + ic] * filter[w + ic] }
        }, finish: { total, _, oc, o in
            let value = total + (bias?[oc] ?? 0)
            output[o] = min(max(value, activationMin), activationMax)
        })
    }
}
