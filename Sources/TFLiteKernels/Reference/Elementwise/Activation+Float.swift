// Float activations: RELU family, LEAKY_RELU, PRELU, HARD_SWISH, LOGISTIC, TANH, ELU.

/// Activation kernels.
public enum ActivationReference {
    /// A one-input float activation.
    public enum Float32Function: Sendable, Equatable {
        /// `clamp(x, lo, hi)`: RELU (0, ∞), RELU6 (0, 6), RELU_N1_TO_1 (-1, 1), RELU_0_TO_1 (0, 1).
        case clamp(Float, Float)
        /// `x ≥ 0 ? x : alpha·x`.
        case leakyRelu(alpha: Float)
        /// `x · relu6(x + 3) / 6`.
        case hardSwish
        /// `1 / (1 + e^-x)` with the reference's cut-offs.
        case logistic
        /// Hyperbolic tangent.
        case tanh
        /// `x < 0 ? e^x − 1 : x`.
        case elu
    }

    /// The reference's float logistic.
    @inline(__always)
    public static func logistic(_ x: Float) -> Float {
        let cutoffUpper: Float = 16.619047164916992188
        let cutoffLower: Float = -9
        if x > cutoffUpper { return 1 }
        if x < cutoffLower { return ElementwiseMath.exp(x) }
        return 1 / (1 + ElementwiseMath.exp(-x))
    }

    /// `out = f(x)` over `range`.
    /// - Precondition: `range.lowerBound ≥ 0`; every pointer holds at least `range.upperBound` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func float32(_ f: Float32Function, range: Range<Int>, _ x: UnsafePointer<Float>,
                               _ out: UnsafeMutablePointer<Float>) {
        KernelPrecondition.validRange(range)
        let x = x + range.lowerBound, out = out + range.lowerBound, n = range.count
        switch f {
        case let .clamp(lo, hi):
            for i in 0..<n { out[i] = Swift.min(Swift.max(x[i], lo), hi) }
        case let .leakyRelu(alpha):
            for i in 0..<n { let v = x[i]; out[i] = v > 0 ? v : v * alpha }
        case .hardSwish:
            for i in 0..<n {
                let v = x[i]
                out[i] = v * Swift.min(6, Swift.max(0, v + 3)) / 6
            }
        case .logistic:
            for i in 0..<n { out[i] = logistic(x[i]) }
        case .tanh:
            for i in 0..<n { out[i] = ElementwiseMath.tanh(x[i]) }
        case .elu:
            for i in 0..<n { let v = x[i]; out[i] = v < 0 ? ElementwiseMath.expm1(v) : v }
        }
    }

    /// PRELU: `out = x ≥ 0 ? x : x · alpha` with alpha broadcast onto x, for the innermost
    /// `rows` of the layout.
    /// - Precondition: `rows` lies in `0..<layout.rowCount`; the pointers hold the layout's operand and output elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func preluFloat32(layout: BroadcastLayout, rows: Range<Int>, _ x: UnsafePointer<Float>,
                                    _ alpha: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>) {
        KernelPrecondition.check(rows.lowerBound >= 0 && rows.upperBound <= layout.rowCount, "rows \(rows) outside 0..<\(layout.rowCount)")
        broadcastBinary(layout, rows: rows, x, alpha, out) { v, a in v >= 0 ? v : v * a }
    }
}
