#if LITEVISION_AVX512
import _Builtin_intrinsics.intel

// Same-shape 8-bit quantized MUL with AVX-512 intrinsics, 16 elements per step: widen with
// offsets, 32-bit product, the rounding doubling high multiply as signed 32×32→64 products
// of even and odd lanes (`(x·m + 2^30) >> 31`, the reference's nudged truncating division for
// either sign), the rounding right shift as one biased arithmetic shift, output offset, clamp,
// narrow. Used when the output multiplier shifts right only (so no intermediate overflows);
// bit-exact with `BinaryArithmeticReference.quantizedMulElement`.
extension QuantizedBinaryArithmeticOptimized {
    /// Whether the AVX-512 MUL handles `p`.
    static func avx512Supports(_ p: BinaryArithmeticReference.QuantizedMulParams) -> Bool {
        p.outputMultiplier.multiplier >= 0 && p.outputMultiplier.shift <= 0 && p.outputMultiplier.shift > -31
    }

    /// Elements `range` of a same-shape MUL; `widen` loads 16 elements as Int32 lanes, `T`
    /// stores the low bytes of the clamped results.
    @inline(__always)
    static func mulAVX512<T: QuantizedByteLane>(_ p: BinaryArithmeticReference.QuantizedMulParams, range: Range<Int>,
                                                _ a: UnsafePointer<T>, _ b: UnsafePointer<T>, _ out: UnsafeMutablePointer<T>,
                                                widen: (UnsafeRawPointer) -> __m512i) {
        let e = Int32(-p.outputMultiplier.shift)
        let offsetA = _mm512_set1_epi32(p.input1Offset), offsetB = _mm512_set1_epi32(p.input2Offset)
        let multiplier = _mm512_set1_epi32(p.outputMultiplier.multiplier)
        let nudge = _mm512_set1_epi64(1 << 30)
        // roundingDivideByPOT(h, e) = (h + 2^(e-1) - (h < 0 ? 1 : 0)) >> e for e > 0, h for e = 0.
        let bias = _mm512_set1_epi32(e > 0 ? Int32(1) << (e - 1) : 0), signMask = _mm512_set1_epi32(e > 0 ? -1 : 0)
        let shift = _mm_cvtsi32_si128(e)
        let zeroPoint = _mm512_set1_epi32(p.outputOffset)
        let lo = _mm512_set1_epi32(p.activationMin), hi = _mm512_set1_epi32(p.activationMax)
        var i = range.lowerBound
        while i + 16 <= range.upperBound {
            let xa = _mm512_add_epi32(widen(UnsafeRawPointer(a + i)), offsetA)
            let xb = _mm512_add_epi32(widen(UnsafeRawPointer(b + i)), offsetB)
            let product = _mm512_mullo_epi32(xa, xb)
            let even = _mm512_srai_epi64(_mm512_add_epi64(_mm512_mul_epi32(product, multiplier), nudge), 31)
            let odd = _mm512_srai_epi64(_mm512_add_epi64(_mm512_mul_epi32(_mm512_srli_epi64(product, 32), multiplier), nudge), 31)
            let high = _mm512_mask_blend_epi32(0xAAAA, even, _mm512_slli_epi64(odd, 32))
            let rounded = _mm512_sra_epi32(_mm512_add_epi32(_mm512_add_epi32(high, bias),
                                                            _mm512_and_si512(_mm512_srai_epi32(high, 31), signMask)), shift)
            let clamped = _mm512_min_epi32(_mm512_max_epi32(_mm512_add_epi32(rounded, zeroPoint), lo), hi)
            UnsafeMutableRawPointer(out + i).storeBytes(of: _mm512_cvtepi32_epi8(clamped), as: __m128i.self)
            i += 16
        }
        while i < range.upperBound {
            out[i] = T(truncatingIfNeeded: BinaryArithmeticReference.quantizedMulElement(Int32(a[i]), Int32(b[i]), p))
            i += 1
        }
    }
}
#endif
