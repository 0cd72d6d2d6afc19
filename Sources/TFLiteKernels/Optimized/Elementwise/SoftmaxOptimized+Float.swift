/// Float SOFTMAX rows equal to `SoftmaxReference.float32` bit for bit, without a C library call
/// per element: the exponentials are the C library's `expf` computed inline
/// (`ExactFloatExp.exp`), eight at a time, and the maximum, the scaled differences and the
/// quotients run eight lanes at a time. The sum of the exponentials stays one running sum in
/// element order, as the reference adds them.
///
/// The row maximum is taken lane by lane, then across lanes; like the reference's scan it never
/// takes a NaN. It may differ from the scan's only in the sign of a zero, which changes no
/// exponential: `x − (±0)` differs only for `x = ±0`, where both give `e^(±0) = 1`.
public enum SoftmaxOptimized {
    /// `out = softmax(beta · x)` along rows of `depth` elements, for rows in `rows` (in place
    /// allowed: each element is read before it is written).
    /// - Precondition: `depth ≥ 0`, `rows.lowerBound ≥ 0`; `x` and `out` hold `rows.upperBound × depth` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func float32(beta: Float, depth: Int, rows: Range<Int>, _ x: UnsafePointer<Float>,
                               _ out: UnsafeMutablePointer<Float>) {
        KernelPrecondition.check(depth >= 0 && rows.lowerBound >= 0, "depth \(depth), rows \(rows)")
        guard depth > 0 else { return }
        let scale = SIMD8<Float>(repeating: beta)
        for r in rows {
            let xi = x + r * depth, oi = out + r * depth
            let maximum = rowMaximum(xi, depth)
            let shift = SIMD8<Float>(repeating: maximum)
            var sum: Float = 0
            var c = 0
            while c + 8 <= depth {
                let argument = (UnsafeRawPointer(xi + c).loadUnaligned(as: SIMD8<Float>.self) - shift) * scale
                var e = SIMD8<Float>()
                if !ExactFloatExp.lanesInRange(argument) {
                    for l in 0..<8 { e[l] = ExactFloatExp.exp(argument[l]) }
                } else {
                    e = ExactFloatExp.exp(argument)
                }
                UnsafeMutableRawPointer(oi + c).storeBytes(of: e, as: SIMD8<Float>.self)
                for l in 0..<8 { sum += e[l] }
                c += 8
            }
            while c < depth {
                let e = ExactFloatExp.exp((xi[c] - maximum) * beta)
                oi[c] = e
                sum += e
                c += 1
            }
            let divisor = SIMD8<Float>(repeating: sum)
            c = 0
            while c + 8 <= depth {
                let quotient = UnsafeRawPointer(oi + c).loadUnaligned(as: SIMD8<Float>.self) / divisor
                UnsafeMutableRawPointer(oi + c).storeBytes(of: quotient, as: SIMD8<Float>.self)
                c += 8
            }
            while c < depth { oi[c] = oi[c] / sum; c += 1 }
        }
    }

    /// The largest of `depth` values at `xi`, NaNs skipped, from `-Float.greatestFiniteMagnitude`
    /// (the reference's start).
    @inline(__always)
    private static func rowMaximum(_ xi: UnsafePointer<Float>, _ depth: Int) -> Float {
        var maximum = -Float.greatestFiniteMagnitude
        var c = 0
        if depth >= 8 {
            var lanes = SIMD8<Float>(repeating: maximum)
            while c + 8 <= depth {
                let v = UnsafeRawPointer(xi + c).loadUnaligned(as: SIMD8<Float>.self)
                lanes = lanes.replacing(with: v, where: v .> lanes)
                c += 8
            }
            for l in 0..<8 where lanes[l] > maximum { maximum = lanes[l] }
        }
        while c < depth { if xi[c] > maximum { maximum = xi[c] }; c += 1 }
        return maximum
    }
}
