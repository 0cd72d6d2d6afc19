// Float SOFTMAX and LOG_SOFTMAX over the last dimension.

/// SOFTMAX / LOG_SOFTMAX kernels.
public enum SoftmaxReference {
    /// `out = softmax(beta · x)` along rows of `depth` elements, for rows in `rows`.
    /// - Precondition: `depth ≥ 0`, `rows.lowerBound ≥ 0`; `x` and `out` hold `rows.upperBound × depth` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func float32(beta: Float, depth: Int, rows: Range<Int>, _ x: UnsafePointer<Float>,
                               _ out: UnsafeMutablePointer<Float>) {
        KernelPrecondition.check(depth >= 0 && rows.lowerBound >= 0, "depth \(depth), rows \(rows)")
        guard depth > 0 else { return }
        for r in rows {
            let xi = x + r * depth, oi = out + r * depth
            var maxValue = -Float.greatestFiniteMagnitude
            for c in 0..<depth { maxValue = Swift.max(maxValue, xi[c]) }
            var sum: Float = 0
            for c in 0..<depth {
                let e = ElementwiseMath.exp((xi[c] - maxValue) * beta)
                oi[c] = e
                sum += e
            }
            for c in 0..<depth { oi[c] = oi[c] / sum }
        }
    }

    /// `out = log_softmax(x)` along rows of `depth` elements.
    /// - Precondition: `depth ≥ 0`, `rows.lowerBound ≥ 0`; `x` and `out` hold `rows.upperBound × depth` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func logSoftmaxFloat32(depth: Int, rows: Range<Int>, _ x: UnsafePointer<Float>,
                                         _ out: UnsafeMutablePointer<Float>) {
        KernelPrecondition.check(depth >= 0 && rows.lowerBound >= 0, "depth \(depth), rows \(rows)")
        guard depth > 0 else { return }
        for r in rows {
            let xi = x + r * depth, oi = out + r * depth
            var maxValue = -Float.greatestFiniteMagnitude
            for c in 0..<depth { maxValue = Swift.max(maxValue, xi[c]) }
            var sum: Float = 0
            for c in 0..<depth { sum += ElementwiseMath.exp(xi[c] - maxValue) }
            let logSum = ElementwiseMath.log(sum)
            for c in 0..<depth { oi[c] = xi[c] - maxValue - logSum }
        }
    }
}
