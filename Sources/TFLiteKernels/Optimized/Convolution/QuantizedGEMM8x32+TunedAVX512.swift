#if LITEVISION_AVX512
import _Builtin_intrinsics.intel

/// The AVX-512 VNNI microkernels of `QuantizedGEMM`: 8 pixels × 32 (or 16) output channels held
/// in 16 (or 8) zmm accumulators, over 32-bit words of the int16-pair layout (`vpdpwssd`) or of
/// the quad layouts (`vpdpbusd`: unsigned activations × int8 weights, or uint8 weights × signed
/// activations). `panelStride` counts 32-bit words; sums of pixel `r` land at
/// `acc[32·r ..< 32·r + 32]`.
///
/// One tile body serves all three layouts and both widths: the layout's instruction comes in as
/// `step(acc, broadcastInput, weights)`, a non-escaping closure that inlining turns back into
/// the single instruction, and the width as a literal `twoPanels`.
extension QuantizedGEMM {
    /// One 32-bit word step of a layout: `acc` plus the products of the broadcast input word
    /// `input` and the weight words `weights` (`vpdpwssd` or `vpdpbusd` in operand order).
    typealias AVX512WordStep = (_ acc: __m512i, _ input: __m512i, _ weights: __m512i) -> __m512i

    /// int16 pairs: `vpdpwssd` adds both products of each pair per output channel.
    @inline(__always)
    static func avx512PairStep(_ acc: __m512i, _ input: __m512i, _ weights: __m512i) -> __m512i {
        _mm512_dpwssd_epi32(acc, input, weights)
    }

    /// int8 quads: the 4 unsigned input bytes against signed weights (`vpdpbusd`).
    @inline(__always)
    static func avx512QuadStep(_ acc: __m512i, _ input: __m512i, _ weights: __m512i) -> __m512i {
        _mm512_dpbusd_epi32(acc, input, weights)
    }

    /// uint8-weight quads: the weights as `vpdpbusd`'s unsigned operand, the inputs signed.
    @inline(__always)
    static func avx512UnsignedWeightQuadStep(_ acc: __m512i, _ input: __m512i, _ weights: __m512i) -> __m512i {
        _mm512_dpbusd_epi32(acc, weights, input)
    }

    /// 8 pixels × one or two panels (16 or 32 channels): each pixel's input word is broadcast to
    /// every 32-bit lane and `step` adds its products per output channel. Callers pass `twoPanels`
    /// as a literal: inlining drops the second panel's loads and accumulators from the 16-channel
    /// form, leaving each width its fixed register set (8 or 16 zmm accumulators).
    @inline(__always)
    static func avx512Tile8(_ pointers: UnsafePointer<UnsafeRawPointer>, taps: Int, words: Int,
                            weights: UnsafeRawPointer, panelStride: Int, twoPanels: Bool,
                            into acc: UnsafeMutablePointer<Int32>, _ step: AVX512WordStep) {
        let zero = _mm512_setzero_si512()
        var a0 = zero, b0 = zero
        var a1 = zero, b1 = zero
        var a2 = zero, b2 = zero
        var a3 = zero, b3 = zero
        var a4 = zero, b4 = zero
        var a5 = zero, b5 = zero
        var a6 = zero, b6 = zero
        var a7 = zero, b7 = zero
        var w = weights
        let second = panelStride * 4
        for t in 0..<taps {
            let row = pointers + t * 8
            let x0 = row[0]
            let x1 = row[1]
            let x2 = row[2]
            let x3 = row[3]
            let x4 = row[4]
            let x5 = row[5]
            let x6 = row[6]
            let x7 = row[7]
            var offset = 0
            let end = words * 4
            while offset < end {
                let wa = w.loadUnaligned(as: __m512i.self)
                let wb = twoPanels ? w.loadUnaligned(fromByteOffset: second, as: __m512i.self) : zero
                // Adds pixel `x`'s products to `a` (first panel) and `b` (second panel).
                @inline(__always) func pixel(_ x: UnsafeRawPointer, _ a: inout __m512i, _ b: inout __m512i) {
                    let s = _mm512_set1_epi32(x.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                    a = step(a, s, wa)
                    if twoPanels { b = step(b, s, wb) }
                }
                pixel(x0, &a0, &b0)
                pixel(x1, &a1, &b1)
                pixel(x2, &a2, &b2)
                pixel(x3, &a3, &b3)
                pixel(x4, &a4, &b4)
                pixel(x5, &a5, &b5)
                pixel(x6, &a6, &b6)
                pixel(x7, &a7, &b7)
                w += 64; offset += 4
            }
        }
        let out = UnsafeMutableRawPointer(acc)
        // Pixel `r`'s sums go to `acc[32·r ..< 32·r + 16]` (and the second panel's right after).
        @inline(__always) func store(_ r: Int, _ a: __m512i, _ b: __m512i) {
            out.storeBytes(of: a, toByteOffset: 128 * r, as: __m512i.self)
            if twoPanels { out.storeBytes(of: b, toByteOffset: 128 * r + 64, as: __m512i.self) }
        }
        store(0, a0, b0); store(1, a1, b1); store(2, a2, b2); store(3, a3, b3)
        store(4, a4, b4); store(5, a5, b5); store(6, a6, b6); store(7, a7, b7)
    }
}
#endif
