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
    /// `ActivationReference.preluFloat32`, in the generated kernel where there is one
    /// (`PreluFloatAVX`), else sixteen lanes at a time (a NaN takes the product, as there). Rows
    /// shorter than 64 elements run as one stretch against alpha repeated over a whole number of
    /// vectors (`repeatedAlphaFloats`), so an 8-channel layer is not a row of scalars.
    /// O(rows.count · inner).
    public static func preluFloat32(rows: Range<Int>, inner: Int, _ x: UnsafePointer<Float>, _ alpha: UnsafePointer<Float>,
                                    _ out: UnsafeMutablePointer<Float>) {
        KernelPrecondition.check(rows.lowerBound >= 0 && inner >= 0, "rows \(rows) of \(inner)")
        if inner > 0 && inner < 64 {
            let period = repeatedAlphaFloats(inner)
            withUnsafeTemporaryAllocation(of: Float.self, capacity: period) { pattern in
                for k in 0..<period { pattern[k] = alpha[k % inner] }
                let first = rows.lowerBound * inner, count = rows.count * inner
                let (xs, ys) = (x + first, out + first)
                // Whole periods in the generated kernel when there is one (a period is whole vectors).
                var k = generatedPrelu(rows: count / period, width: period, xs, UnsafePointer(pattern.baseAddress!), ys) == period
                    ? count / period * period : 0
                while k + period <= count {
                    for c in stride(from: 0, to: period, by: 16) {
                        let v = UnsafeRawPointer(xs + k + c).loadUnaligned(as: SIMD16<Float>.self)
                        let a = UnsafeRawPointer(pattern.baseAddress! + c).loadUnaligned(as: SIMD16<Float>.self)
                        UnsafeMutableRawPointer(ys + k + c).storeBytes(of: (v * a).replacing(with: v, where: v .>= 0),
                                                                       as: SIMD16<Float>.self)
                    }
                    k += period
                }
                while k < count { let v = xs[k]; ys[k] = v >= 0 ? v : v * pattern[k % period]; k += 1 }
            }
            return
        }
        let generatedColumns = generatedPrelu(rows: rows.count, width: inner, x + rows.lowerBound * inner, alpha,
                                              out + rows.lowerBound * inner)
        for r in rows {
            let (xr, yr) = (x + r * inner, out + r * inner)
            var c = generatedColumns
            while c + 16 <= inner {
                let v = UnsafeRawPointer(xr + c).loadUnaligned(as: SIMD16<Float>.self)
                let a = UnsafeRawPointer(alpha + c).loadUnaligned(as: SIMD16<Float>.self)
                UnsafeMutableRawPointer(yr + c).storeBytes(of: (v * a).replacing(with: v, where: v .>= 0), as: SIMD16<Float>.self)
                c += 16
            }
            while c < inner { let v = xr[c]; yr[c] = v >= 0 ? v : v * alpha[c]; c += 1 }
        }
    }

    /// Runs `PreluFloatAVX` (when generated) over `rows` rows of `width` values at `x` and
    /// `out` against the `width` values of `alpha`, as far as whole vectors go. Returns the
    /// values of each row it computed, `width / lanes · lanes`: 0 without the kernel, without a
    /// row or without a whole vector (the caller computes the rest).
    private static func generatedPrelu(rows: Int, width: Int, _ x: UnsafePointer<Float>, _ alpha: UnsafePointer<Float>,
                                       _ out: UnsafeMutablePointer<Float>) -> Int {
        guard rows > 0, let (function, lanes) = GeneratedKernels.current?.preluFloat, width >= lanes else { return 0 }
        var arguments = GeneratedPreluArguments(x: UnsafeRawPointer(x), alpha: UnsafeRawPointer(alpha),
                                                output: UnsafeMutableRawPointer(out), rows: rows,
                                                stepsPerRow: width / lanes, rowStride: width * MemoryLayout<Float>.stride)
        withUnsafePointer(to: &arguments) { function(UnsafeRawPointer($0)) }
        return width / lanes * lanes
    }

    /// Floats of alpha repeated for `preluFloat32`'s stretches of rows of `inner` elements
    /// (1 ≤ inner < 64): the least common multiple of `inner` and 16, so the pattern is whole
    /// rows and whole vectors (at most 1008 floats).
    static func repeatedAlphaFloats(_ inner: Int) -> Int {
        var (a, b) = (inner, 16)
        while b != 0 { (a, b) = (b, a % b) }
        return inner / a * 16
    }

    /// `out = x · logistic(x)` over `range`: a float LOGISTIC and the MUL of its output by its
    /// input in one pass (SiLU), with the two reference kernels' values bit for bit.
    /// - Precondition: as `float32`'s.
    public static func float32LogisticTimesInput(range: Range<Int>, _ x: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>) {
        KernelPrecondition.validRange(range)
        ExactFloatExp.logistic(x + range.lowerBound, out + range.lowerBound, count: range.count, timesInput: true)
    }
}
