// Branch-free exp for the optimized elementwise kernels: range reduction to
// x = n·ln2 + r and a degree-6 polynomial (relative error ≈ 2e-7 on the clamped range),
// written with plain `a * b + c` and bit casts so loops that call it vectorize.

/// Fast float math for vectorizable loops.
enum ElementwiseFastMath {
    /// `e^x` (input clamped to [-87.3, 88.7]).
    @inline(__always)
    static func exp(_ x: Float) -> Float {
        let clamped = Swift.min(Swift.max(x, -87.3), 88.7)
        // Round x·log2(e) to nearest with the 1.5·2^23 trick (no libm call).
        let magic: Float = 12582912
        let shifted = clamped * 1.44269504 + magic
        let n = shifted - magic
        let ni = Int32(bitPattern: shifted.bitPattern) &- Int32(bitPattern: magic.bitPattern)
        let r = clamped - n * 0.693145751953125 - n * 1.428606765330187e-06
        var p: Float = 1.0 / 720
        p = p * r + 1.0 / 120
        p = p * r + 1.0 / 24
        p = p * r + 1.0 / 6
        p = p * r + 0.5
        p = p * r + 1
        p = p * r + 1
        return p * Float(bitPattern: UInt32(bitPattern: (ni &+ 127) &<< 23))
    }
}
