// Optimized float32 LOGISTIC, TANH, HARD_SWISH and clamps (RELU family): 16-lane vector
// loops; LOGISTIC / TANH use the vector exp of `ElementwiseSIMD` (within the float
// tolerance of the reference). Tested against `ActivationKernels.float32`.

/// Optimized one-input float activations.
public enum OptimizedActivation {
    @inline(__always)
    static func map(_ range: Range<Int>, _ x: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>,
                    _ v: (SIMD16<Float>) -> SIMD16<Float>) {
        typealias F = SIMD16<Float>
        var i = range.lowerBound
        let end = range.upperBound
        let rawX = UnsafeRawPointer(x), rawO = UnsafeMutableRawPointer(out)
        while i + 16 <= end {
            rawO.storeBytes(of: v(rawX.loadUnaligned(fromByteOffset: i * 4, as: F.self)), toByteOffset: i * 4, as: F.self)
            i += 16
        }
        if i < end {
            // Finish the tail through a padded vector so the tail matches the vector path.
            var tail = F(repeating: 0)
            for k in 0..<(end - i) { tail[k] = x[i + k] }
            let r = v(tail)
            for k in 0..<(end - i) { out[i + k] = r[k] }
        }
    }

    /// `out = f(x)` over `range`.
    public static func float32(_ f: ActivationKernels.Float32Function, range: Range<Int>,
                               _ x: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>) {
        typealias F = SIMD16<Float>
        switch f {
        case let .clamp(lo, hi):
            let vlo = F(repeating: lo), vhi = F(repeating: hi)
            map(range, x, out, { pointwiseMin(pointwiseMax($0, vlo), vhi) })
        case let .leakyRelu(alpha):
            map(range, x, out, { $0.replacing(with: $0 * alpha, where: $0 .<= 0) })
        case .hardSwish:
            let zero = F(repeating: 0), six = F(repeating: 6)
            map(range, x, out, { $0 * pointwiseMin(six, pointwiseMax(zero, $0 + 3)) / 6 })
        case .logistic:
            map(range, x, out, { ElementwiseSIMD.logistic($0) })
        case .tanh:
            map(range, x, out, { ElementwiseSIMD.tanh($0) })
        case .elu:
            ActivationKernels.float32(f, range: range, x, out)
        }
    }
}
