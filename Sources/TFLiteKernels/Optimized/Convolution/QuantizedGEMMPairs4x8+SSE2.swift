#if arch(x86_64)
import _Builtin_intrinsics.intel

/// The SSE2 microkernel of `QuantizedGEMM` (the default x86-64 build): 4 pixels × 8 output
/// channels in 8 xmm accumulators, `pmaddwd` of a broadcast input pair against 4 channels' weight
/// pairs, then `paddd`. Sums of pixel `r` land at `acc[32·r ..< 32·r + 8]`.
extension QuantizedGEMM {
    /// Runs 4 pixels (table entries `pointers[t·rowStride + r]`, r < 4) against the 8 channels of
    /// an int16-pair panel that start at `weights` (the panel base, or 32 bytes further for its upper half).
    @inline(__always)
    static func sse2PairTile4x8(_ pointers: UnsafePointer<UnsafeRawPointer>, rowStride: Int, taps: Int, words: Int,
                                weights: UnsafeRawPointer, into acc: UnsafeMutablePointer<Int32>) {
        let zero = _mm_setzero_si128()
        var a0 = zero, b0 = zero
        var a1 = zero, b1 = zero
        var a2 = zero, b2 = zero
        var a3 = zero, b3 = zero
        var w = weights
        for t in 0..<taps {
            let row = pointers + t * rowStride
            let x0 = row[0]
            let x1 = row[1]
            let x2 = row[2]
            let x3 = row[3]
            var offset = 0
            let end = words * 4
            while offset < end {
                let wa = w.loadUnaligned(as: __m128i.self)
                let wb = w.loadUnaligned(fromByteOffset: 16, as: __m128i.self)
                // Adds pixel `x`'s input pair times both 4-channel weight groups to `a` and `b`.
                @inline(__always) func pixel(_ x: UnsafeRawPointer, _ a: inout __m128i, _ b: inout __m128i) {
                    let s = _mm_set1_epi32(x.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                    a = _mm_add_epi32(a, _mm_madd_epi16(s, wa))
                    b = _mm_add_epi32(b, _mm_madd_epi16(s, wb))
                }
                pixel(x0, &a0, &b0)
                pixel(x1, &a1, &b1)
                pixel(x2, &a2, &b2)
                pixel(x3, &a3, &b3)
                w += 64; offset += 4
            }
        }
        let out = UnsafeMutableRawPointer(acc)
        out.storeBytes(of: a0, toByteOffset: 0, as: __m128i.self); out.storeBytes(of: b0, toByteOffset: 16, as: __m128i.self)
        out.storeBytes(of: a1, toByteOffset: 128, as: __m128i.self); out.storeBytes(of: b1, toByteOffset: 144, as: __m128i.self)
        out.storeBytes(of: a2, toByteOffset: 256, as: __m128i.self); out.storeBytes(of: b2, toByteOffset: 272, as: __m128i.self)
        out.storeBytes(of: a3, toByteOffset: 384, as: __m128i.self); out.storeBytes(of: b3, toByteOffset: 400, as: __m128i.self)
    }
}
#endif
