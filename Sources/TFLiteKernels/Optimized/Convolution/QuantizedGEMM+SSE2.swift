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
                let s0 = _mm_set1_epi32(x0.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a0 = _mm_add_epi32(a0, _mm_madd_epi16(s0, wa))
                b0 = _mm_add_epi32(b0, _mm_madd_epi16(s0, wb))
                let s1 = _mm_set1_epi32(x1.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a1 = _mm_add_epi32(a1, _mm_madd_epi16(s1, wa))
                b1 = _mm_add_epi32(b1, _mm_madd_epi16(s1, wb))
                let s2 = _mm_set1_epi32(x2.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a2 = _mm_add_epi32(a2, _mm_madd_epi16(s2, wa))
                b2 = _mm_add_epi32(b2, _mm_madd_epi16(s2, wb))
                let s3 = _mm_set1_epi32(x3.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a3 = _mm_add_epi32(a3, _mm_madd_epi16(s3, wa))
                b3 = _mm_add_epi32(b3, _mm_madd_epi16(s3, wb))
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
