#if LITEVISION_AVX512
import _Builtin_intrinsics.intel

extension ConvRequantizer {
    /// `requantizePortable` with AVX-512 intrinsics: a signed even/odd `vpmuldq` pair for the
    /// doubling high multiply (no fix-up needed), `vpsravd` for the per-channel rounding shift,
    /// and a sign-mask subtract for the rounding increments. Same results, lane for lane.
    @inline(__always)
    func requantizeAVX512(_ acc: SIMD16<Int32>, channel: Int) -> SIMD16<Int32> {
        var x = unsafeBitCast(acc, to: __m512i.self)
        if hasLeftShift { x = _mm512_mullo_epi32(x, table(leftFactors, channel)) }
        let m = table(multipliers, channel)
        let nudge = _mm512_set1_epi64(1 << 30)
        // Even lanes: the full signed products; bits 31…62 of (product + 2^30) are the result.
        let even = _mm512_srli_epi64(_mm512_add_epi64(_mm512_mul_epi32(x, m), nudge), 31)
        // Odd lanes: the same on the upper halves, moved up into the odd 32-bit positions.
        let odd = _mm512_slli_epi64(_mm512_add_epi64(
            _mm512_mul_epi32(_mm512_srli_epi64(x, 32), _mm512_srli_epi64(m, 32)), nudge), 1)
        var h = _mm512_mask_blend_epi32(0xAAAA, even, odd)
        let mask = table(remainderMasks, channel)
        let remainder = _mm512_and_si512(h, mask)
        let threshold = _mm512_sub_epi32(_mm512_srai_epi32(mask, 1), _mm512_srai_epi32(h, 31))
        h = _mm512_srav_epi32(h, table(rightShifts, channel))
        // threshold − remainder is negative exactly where the quotient rounds up (both lie in
        // [0, 2^30], so the difference cannot overflow): its sign, −1, is subtracted there.
        h = _mm512_sub_epi32(h, _mm512_srai_epi32(_mm512_sub_epi32(threshold, remainder), 31))
        h = _mm512_add_epi32(h, _mm512_set1_epi32(parameters.outputOffset))
        h = _mm512_max_epi32(h, _mm512_set1_epi32(parameters.activationMin))
        h = _mm512_min_epi32(h, _mm512_set1_epi32(parameters.activationMax))
        return unsafeBitCast(h, to: SIMD16<Int32>.self)
    }

    /// Stores 16 values already clamped to the 8-bit output range (`vpmovdb`).
    @inline(__always)
    func storeBytesAVX512(_ h: SIMD16<Int32>, to dst: UnsafeMutableRawPointer) {
        dst.storeBytes(of: _mm512_cvtepi32_epi8(unsafeBitCast(h, to: __m512i.self)), as: __m128i.self)
    }

    @inline(__always)
    private func table(_ t: UnsafeMutablePointer<Int32>, _ channel: Int) -> __m512i {
        UnsafeRawPointer(t + channel).loadUnaligned(as: __m512i.self)
    }
}
#endif
