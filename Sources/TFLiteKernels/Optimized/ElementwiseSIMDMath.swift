// Vector math shared by the optimized elementwise kernels: exp by range reduction and a
// degree-6 polynomial (relative error ≈ 2e-7 on the clamped range), written with plain
// `a * b + c` so it vectorizes without a target-cpu flag.

/// 16-lane float vector helpers.
enum ElementwiseSIMD {
    typealias F = SIMD16<Float>
    typealias I = SIMD16<Int32>

    /// `e^x` for every lane (inputs clamped to [-87.3, 88.7]).
    @inline(__always)
    static func exp(_ x: F) -> F {
        let clamped = pointwiseMin(pointwiseMax(x, F(repeating: -87.3)), F(repeating: 88.7))
        // Round x·log2(e) to nearest with the 1.5·2^23 trick (no libm call per lane).
        let magic = F(repeating: 12582912)
        let shifted = clamped * 1.44269504 + magic
        let n = shifted - magic
        let ni = unsafeBitCast(shifted, to: I.self) &- unsafeBitCast(magic, to: I.self)
        let r = clamped - n * 0.693145751953125 - n * 1.428606765330187e-06
        var p = F(repeating: 1.0 / 720)
        p = p * r + 1.0 / 120
        p = p * r + 1.0 / 24
        p = p * r + 1.0 / 6
        p = p * r + 0.5
        p = p * r + 1
        p = p * r + 1
        let scale = unsafeBitCast((ni &+ 127) &<< 23, to: F.self)
        return p * scale
    }

    /// `1 / (1 + e^-x)` for every lane.
    @inline(__always)
    static func logistic(_ x: F) -> F {
        F(repeating: 1) / (exp(-x) + 1)
    }

    /// `tanh(x) = 1 − 2 / (e^{2x} + 1)` for every lane.
    @inline(__always)
    static func tanh(_ x: F) -> F {
        let e = exp(x * 2)
        return F(repeating: 1) - F(repeating: 2) / (e + 1)
    }
}
