/// The portable microkernel of `QuantizedGEMM` (architectures without an intrinsic kernel;
/// compiled and tested everywhere): 4 pixels × 16 output channels in `SIMD16<Int32>`, the
/// panel's weight pairs split into their even and odd channel halves.
extension QuantizedGEMM {
    /// Runs 4 pixels (table entries `pointers[t·rowStride + r]`, r < 4) against the panel at
    /// `weights`; sums of pixel `r` land at `acc[32·r ..< 32·r + 16]`.
    @inline(__always)
    static func portableTile4x16(_ pointers: UnsafePointer<UnsafePointer<Int16>>, rowStride: Int, taps: Int, pairs: Int,
                                 weights: UnsafePointer<Int16>, into acc: UnsafeMutablePointer<Int32>) {
        var a0 = SIMD16<Int32>(), a1 = a0, a2 = a0, a3 = a0
        var w = UnsafeRawPointer(weights)
        for t in 0..<taps {
            let row = pointers + t * rowStride
            let x0 = row[0], x1 = row[1], x2 = row[2], x3 = row[3]
            for j in 0..<pairs {
                let packed = w.loadUnaligned(as: SIMD32<Int16>.self)
                let even = SIMD16<Int32>(truncatingIfNeeded: packed.evenHalf)
                let odd = SIMD16<Int32>(truncatingIfNeeded: packed.oddHalf)
                let c = 2 * j
                a0 = a0 &+ even &* SIMD16(repeating: Int32(x0[c])) &+ odd &* SIMD16(repeating: Int32(x0[c + 1]))
                a1 = a1 &+ even &* SIMD16(repeating: Int32(x1[c])) &+ odd &* SIMD16(repeating: Int32(x1[c + 1]))
                a2 = a2 &+ even &* SIMD16(repeating: Int32(x2[c])) &+ odd &* SIMD16(repeating: Int32(x2[c + 1]))
                a3 = a3 &+ even &* SIMD16(repeating: Int32(x3[c])) &+ odd &* SIMD16(repeating: Int32(x3[c + 1]))
                w += 64
            }
        }
        let out = UnsafeMutableRawPointer(acc)
        out.storeBytes(of: a0, as: SIMD16<Int32>.self)
        (out + 128).storeBytes(of: a1, as: SIMD16<Int32>.self)
        (out + 256).storeBytes(of: a2, as: SIMD16<Int32>.self)
        (out + 384).storeBytes(of: a3, as: SIMD16<Int32>.self)
    }
}
