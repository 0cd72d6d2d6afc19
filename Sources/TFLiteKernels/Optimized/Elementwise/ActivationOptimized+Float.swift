// Optimized float32 LOGISTIC, TANH, HARD_SWISH, LEAKY_RELU and clamps (RELU family):
// branch-free scalar loops the compiler vectorizes; TANH uses the polynomial exp of
// `ElementwiseFastMath` (within the float tolerance of the reference); LOGISTIC is bit-exact
// with the reference through `ExactFloatExp` (hybrid models quantize its outputs on the fly,
// where one ulp can flip a rounding). Tested against `ActivationReference.float32`.

/// Optimized one-input float activations.
public enum ActivationOptimized {
    /// `out = f(x)` over `range`.
    /// - Precondition: `range.lowerBound ≥ 0`; every pointer holds at least `range.upperBound` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func float32(_ f: ActivationReference.Float32Function, range: Range<Int>,
                               _ x: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>) {
        KernelPrecondition.validRange(range)
        let x = x + range.lowerBound, out = out + range.lowerBound, n = range.count
        switch f {
        case let .clamp(lo, hi):
            for i in 0..<n { out[i] = Swift.min(Swift.max(x[i], lo), hi) }
        case let .leakyRelu(alpha):
            for i in 0..<n { let v = x[i]; out[i] = v > 0 ? v : v * alpha }
        case .hardSwish:
            for i in 0..<n { let v = x[i]; out[i] = v * Swift.min(6, Swift.max(0, v + 3)) / 6 }
        case .logistic:
            ExactFloatExp.logistic(x, out, count: n)
        case .tanh:
            for i in 0..<n { out[i] = 1 - 2 / (ElementwiseFastMath.exp(2 * x[i]) + 1) }
        case .elu:
            ActivationReference.float32(f, range: 0..<n, x, out)
        }
    }

    /// PRELU where alpha repeats along the rows (`BroadcastLayout.repeatsBAlongRows`): rows
    /// `rows` of `inner` elements at `x` and `out`, `alpha` one row; `x ≥ 0 ? x : x · alpha` as
    /// `ActivationReference.preluFloat32`, sixteen lanes at a time (a NaN takes the product, as
    /// there). O(rows.count · inner).
    public static func preluFloat32(rows: Range<Int>, inner: Int, _ x: UnsafePointer<Float>, _ alpha: UnsafePointer<Float>,
                                    _ out: UnsafeMutablePointer<Float>) {
        KernelPrecondition.check(rows.lowerBound >= 0 && inner >= 0, "rows \(rows) of \(inner)")
        for r in rows {
            let (xr, yr) = (x + r * inner, out + r * inner)
            var c = 0
            while c + 16 <= inner {
                let v = UnsafeRawPointer(xr + c).loadUnaligned(as: SIMD16<Float>.self)
                let a = UnsafeRawPointer(alpha + c).loadUnaligned(as: SIMD16<Float>.self)
                UnsafeMutableRawPointer(yr + c).storeBytes(of: (v * a).replacing(with: v, where: v .>= 0), as: SIMD16<Float>.self)
                c += 16
            }
            while c < inner { let v = xr[c]; yr[c] = v >= 0 ? v : v * alpha[c]; c += 1 }
        }
    }

    /// `out = x · logistic(x)` over `range`: a float LOGISTIC and the MUL of its output by its
    /// input in one pass (SiLU), with the two reference kernels' values bit for bit.
    /// - Precondition: as `float32`'s.
    public static func float32LogisticTimesInput(range: Range<Int>, _ x: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>) {
        KernelPrecondition.validRange(range)
        ExactFloatExp.logistic(x + range.lowerBound, out + range.lowerBound, count: range.count, timesInput: true)
    }
}
