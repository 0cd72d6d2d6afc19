#if LITEVISION_AVX512
import _Builtin_intrinsics.intel

/// The AVX-512 VNNI microkernels of `QuantizedGEMM`: 8 pixels × 32 (or 16) output channels held
/// in 16 (or 8) zmm accumulators, over 32-bit words of the int16-pair layout (`vpdpwssd`) or of
/// the quad layouts (`vpdpbusd`: unsigned activations × int8 weights, or uint8 weights × signed
/// activations). `panelStride` counts 32-bit words; sums of pixel `r` land at
/// `acc[32·r ..< 32·r + 32]`.
extension QuantizedGEMM {
    /// 8 pixels × two panels (32 channels) of int16 weight pairs: each pixel's input pair is broadcast to
    /// every 32-bit lane and `vpdpwssd` adds both products per output channel.
    @inline(__always)
    static func avx512PairTile8x32(_ pointers: UnsafePointer<UnsafeRawPointer>, taps: Int, words: Int,
                       weights: UnsafeRawPointer, panelStride: Int, into acc: UnsafeMutablePointer<Int32>) {
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
                let wb = w.loadUnaligned(fromByteOffset: second, as: __m512i.self)
                let s0 = _mm512_set1_epi32(x0.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a0 = _mm512_dpwssd_epi32(a0, s0, wa)
                b0 = _mm512_dpwssd_epi32(b0, s0, wb)
                let s1 = _mm512_set1_epi32(x1.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a1 = _mm512_dpwssd_epi32(a1, s1, wa)
                b1 = _mm512_dpwssd_epi32(b1, s1, wb)
                let s2 = _mm512_set1_epi32(x2.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a2 = _mm512_dpwssd_epi32(a2, s2, wa)
                b2 = _mm512_dpwssd_epi32(b2, s2, wb)
                let s3 = _mm512_set1_epi32(x3.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a3 = _mm512_dpwssd_epi32(a3, s3, wa)
                b3 = _mm512_dpwssd_epi32(b3, s3, wb)
                let s4 = _mm512_set1_epi32(x4.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a4 = _mm512_dpwssd_epi32(a4, s4, wa)
                b4 = _mm512_dpwssd_epi32(b4, s4, wb)
                let s5 = _mm512_set1_epi32(x5.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a5 = _mm512_dpwssd_epi32(a5, s5, wa)
                b5 = _mm512_dpwssd_epi32(b5, s5, wb)
                let s6 = _mm512_set1_epi32(x6.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a6 = _mm512_dpwssd_epi32(a6, s6, wa)
                b6 = _mm512_dpwssd_epi32(b6, s6, wb)
                let s7 = _mm512_set1_epi32(x7.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a7 = _mm512_dpwssd_epi32(a7, s7, wa)
                b7 = _mm512_dpwssd_epi32(b7, s7, wb)
                w += 64; offset += 4
            }
        }
        let out = UnsafeMutableRawPointer(acc)
        out.storeBytes(of: a0, toByteOffset: 0, as: __m512i.self); out.storeBytes(of: b0, toByteOffset: 64, as: __m512i.self)
        out.storeBytes(of: a1, toByteOffset: 128, as: __m512i.self); out.storeBytes(of: b1, toByteOffset: 192, as: __m512i.self)
        out.storeBytes(of: a2, toByteOffset: 256, as: __m512i.self); out.storeBytes(of: b2, toByteOffset: 320, as: __m512i.self)
        out.storeBytes(of: a3, toByteOffset: 384, as: __m512i.self); out.storeBytes(of: b3, toByteOffset: 448, as: __m512i.self)
        out.storeBytes(of: a4, toByteOffset: 512, as: __m512i.self); out.storeBytes(of: b4, toByteOffset: 576, as: __m512i.self)
        out.storeBytes(of: a5, toByteOffset: 640, as: __m512i.self); out.storeBytes(of: b5, toByteOffset: 704, as: __m512i.self)
        out.storeBytes(of: a6, toByteOffset: 768, as: __m512i.self); out.storeBytes(of: b6, toByteOffset: 832, as: __m512i.self)
        out.storeBytes(of: a7, toByteOffset: 896, as: __m512i.self); out.storeBytes(of: b7, toByteOffset: 960, as: __m512i.self)
    }

    /// 8 pixels × one panel (16 channels) of int16 weight pairs: each pixel's input pair is broadcast to
    /// every 32-bit lane and `vpdpwssd` adds both products per output channel.
    @inline(__always)
    static func avx512PairTile8x16(_ pointers: UnsafePointer<UnsafeRawPointer>, taps: Int, words: Int,
                       weights: UnsafeRawPointer, into acc: UnsafeMutablePointer<Int32>) {
        let zero = _mm512_setzero_si512()
        var a0 = zero
        var a1 = zero
        var a2 = zero
        var a3 = zero
        var a4 = zero
        var a5 = zero
        var a6 = zero
        var a7 = zero
        var w = weights
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
                let s0 = _mm512_set1_epi32(x0.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a0 = _mm512_dpwssd_epi32(a0, s0, wa)
                let s1 = _mm512_set1_epi32(x1.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a1 = _mm512_dpwssd_epi32(a1, s1, wa)
                let s2 = _mm512_set1_epi32(x2.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a2 = _mm512_dpwssd_epi32(a2, s2, wa)
                let s3 = _mm512_set1_epi32(x3.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a3 = _mm512_dpwssd_epi32(a3, s3, wa)
                let s4 = _mm512_set1_epi32(x4.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a4 = _mm512_dpwssd_epi32(a4, s4, wa)
                let s5 = _mm512_set1_epi32(x5.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a5 = _mm512_dpwssd_epi32(a5, s5, wa)
                let s6 = _mm512_set1_epi32(x6.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a6 = _mm512_dpwssd_epi32(a6, s6, wa)
                let s7 = _mm512_set1_epi32(x7.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a7 = _mm512_dpwssd_epi32(a7, s7, wa)
                w += 64; offset += 4
            }
        }
        let out = UnsafeMutableRawPointer(acc)
        out.storeBytes(of: a0, toByteOffset: 0, as: __m512i.self)
        out.storeBytes(of: a1, toByteOffset: 128, as: __m512i.self)
        out.storeBytes(of: a2, toByteOffset: 256, as: __m512i.self)
        out.storeBytes(of: a3, toByteOffset: 384, as: __m512i.self)
        out.storeBytes(of: a4, toByteOffset: 512, as: __m512i.self)
        out.storeBytes(of: a5, toByteOffset: 640, as: __m512i.self)
        out.storeBytes(of: a6, toByteOffset: 768, as: __m512i.self)
        out.storeBytes(of: a7, toByteOffset: 896, as: __m512i.self)
    }

    /// 8 pixels × two panels (32 channels) of int8 weights quads: each pixel's 4 unsigned input bytes are
    /// broadcast to every 32-bit lane and `vpdpbusd` adds the 4 products per output channel.
    @inline(__always)
    static func avx512QuadTile8x32(_ pointers: UnsafePointer<UnsafeRawPointer>, taps: Int, words: Int,
                       weights: UnsafeRawPointer, panelStride: Int, into acc: UnsafeMutablePointer<Int32>) {
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
                let wb = w.loadUnaligned(fromByteOffset: second, as: __m512i.self)
                let s0 = _mm512_set1_epi32(x0.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a0 = _mm512_dpbusd_epi32(a0, s0, wa)
                b0 = _mm512_dpbusd_epi32(b0, s0, wb)
                let s1 = _mm512_set1_epi32(x1.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a1 = _mm512_dpbusd_epi32(a1, s1, wa)
                b1 = _mm512_dpbusd_epi32(b1, s1, wb)
                let s2 = _mm512_set1_epi32(x2.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a2 = _mm512_dpbusd_epi32(a2, s2, wa)
                b2 = _mm512_dpbusd_epi32(b2, s2, wb)
                let s3 = _mm512_set1_epi32(x3.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a3 = _mm512_dpbusd_epi32(a3, s3, wa)
                b3 = _mm512_dpbusd_epi32(b3, s3, wb)
                let s4 = _mm512_set1_epi32(x4.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a4 = _mm512_dpbusd_epi32(a4, s4, wa)
                b4 = _mm512_dpbusd_epi32(b4, s4, wb)
                let s5 = _mm512_set1_epi32(x5.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a5 = _mm512_dpbusd_epi32(a5, s5, wa)
                b5 = _mm512_dpbusd_epi32(b5, s5, wb)
                let s6 = _mm512_set1_epi32(x6.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a6 = _mm512_dpbusd_epi32(a6, s6, wa)
                b6 = _mm512_dpbusd_epi32(b6, s6, wb)
                let s7 = _mm512_set1_epi32(x7.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a7 = _mm512_dpbusd_epi32(a7, s7, wa)
                b7 = _mm512_dpbusd_epi32(b7, s7, wb)
                w += 64; offset += 4
            }
        }
        let out = UnsafeMutableRawPointer(acc)
        out.storeBytes(of: a0, toByteOffset: 0, as: __m512i.self); out.storeBytes(of: b0, toByteOffset: 64, as: __m512i.self)
        out.storeBytes(of: a1, toByteOffset: 128, as: __m512i.self); out.storeBytes(of: b1, toByteOffset: 192, as: __m512i.self)
        out.storeBytes(of: a2, toByteOffset: 256, as: __m512i.self); out.storeBytes(of: b2, toByteOffset: 320, as: __m512i.self)
        out.storeBytes(of: a3, toByteOffset: 384, as: __m512i.self); out.storeBytes(of: b3, toByteOffset: 448, as: __m512i.self)
        out.storeBytes(of: a4, toByteOffset: 512, as: __m512i.self); out.storeBytes(of: b4, toByteOffset: 576, as: __m512i.self)
        out.storeBytes(of: a5, toByteOffset: 640, as: __m512i.self); out.storeBytes(of: b5, toByteOffset: 704, as: __m512i.self)
        out.storeBytes(of: a6, toByteOffset: 768, as: __m512i.self); out.storeBytes(of: b6, toByteOffset: 832, as: __m512i.self)
        out.storeBytes(of: a7, toByteOffset: 896, as: __m512i.self); out.storeBytes(of: b7, toByteOffset: 960, as: __m512i.self)
    }

    /// 8 pixels × one panel (16 channels) of int8 weights quads: each pixel's 4 unsigned input bytes are
    /// broadcast to every 32-bit lane and `vpdpbusd` adds the 4 products per output channel.
    @inline(__always)
    static func avx512QuadTile8x16(_ pointers: UnsafePointer<UnsafeRawPointer>, taps: Int, words: Int,
                       weights: UnsafeRawPointer, into acc: UnsafeMutablePointer<Int32>) {
        let zero = _mm512_setzero_si512()
        var a0 = zero
        var a1 = zero
        var a2 = zero
        var a3 = zero
        var a4 = zero
        var a5 = zero
        var a6 = zero
        var a7 = zero
        var w = weights
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
                let s0 = _mm512_set1_epi32(x0.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a0 = _mm512_dpbusd_epi32(a0, s0, wa)
                let s1 = _mm512_set1_epi32(x1.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a1 = _mm512_dpbusd_epi32(a1, s1, wa)
                let s2 = _mm512_set1_epi32(x2.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a2 = _mm512_dpbusd_epi32(a2, s2, wa)
                let s3 = _mm512_set1_epi32(x3.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a3 = _mm512_dpbusd_epi32(a3, s3, wa)
                let s4 = _mm512_set1_epi32(x4.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a4 = _mm512_dpbusd_epi32(a4, s4, wa)
                let s5 = _mm512_set1_epi32(x5.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a5 = _mm512_dpbusd_epi32(a5, s5, wa)
                let s6 = _mm512_set1_epi32(x6.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a6 = _mm512_dpbusd_epi32(a6, s6, wa)
                let s7 = _mm512_set1_epi32(x7.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a7 = _mm512_dpbusd_epi32(a7, s7, wa)
                w += 64; offset += 4
            }
        }
        let out = UnsafeMutableRawPointer(acc)
        out.storeBytes(of: a0, toByteOffset: 0, as: __m512i.self)
        out.storeBytes(of: a1, toByteOffset: 128, as: __m512i.self)
        out.storeBytes(of: a2, toByteOffset: 256, as: __m512i.self)
        out.storeBytes(of: a3, toByteOffset: 384, as: __m512i.self)
        out.storeBytes(of: a4, toByteOffset: 512, as: __m512i.self)
        out.storeBytes(of: a5, toByteOffset: 640, as: __m512i.self)
        out.storeBytes(of: a6, toByteOffset: 768, as: __m512i.self)
        out.storeBytes(of: a7, toByteOffset: 896, as: __m512i.self)
    }

    /// 8 pixels × two panels (32 channels) of uint8 weight quads: each pixel's 4 signed input bytes are
    /// broadcast to every 32-bit lane and `vpdpbusd` (weights as the unsigned operand) adds the 4 products.
    @inline(__always)
    static func avx512UnsignedWeightQuadTile8x32(_ pointers: UnsafePointer<UnsafeRawPointer>, taps: Int, words: Int,
                                                 weights: UnsafeRawPointer, panelStride: Int, into acc: UnsafeMutablePointer<Int32>) {
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
                let wb = w.loadUnaligned(fromByteOffset: second, as: __m512i.self)
                let s0 = _mm512_set1_epi32(x0.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a0 = _mm512_dpbusd_epi32(a0, wa, s0)
                b0 = _mm512_dpbusd_epi32(b0, wb, s0)
                let s1 = _mm512_set1_epi32(x1.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a1 = _mm512_dpbusd_epi32(a1, wa, s1)
                b1 = _mm512_dpbusd_epi32(b1, wb, s1)
                let s2 = _mm512_set1_epi32(x2.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a2 = _mm512_dpbusd_epi32(a2, wa, s2)
                b2 = _mm512_dpbusd_epi32(b2, wb, s2)
                let s3 = _mm512_set1_epi32(x3.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a3 = _mm512_dpbusd_epi32(a3, wa, s3)
                b3 = _mm512_dpbusd_epi32(b3, wb, s3)
                let s4 = _mm512_set1_epi32(x4.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a4 = _mm512_dpbusd_epi32(a4, wa, s4)
                b4 = _mm512_dpbusd_epi32(b4, wb, s4)
                let s5 = _mm512_set1_epi32(x5.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a5 = _mm512_dpbusd_epi32(a5, wa, s5)
                b5 = _mm512_dpbusd_epi32(b5, wb, s5)
                let s6 = _mm512_set1_epi32(x6.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a6 = _mm512_dpbusd_epi32(a6, wa, s6)
                b6 = _mm512_dpbusd_epi32(b6, wb, s6)
                let s7 = _mm512_set1_epi32(x7.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a7 = _mm512_dpbusd_epi32(a7, wa, s7)
                b7 = _mm512_dpbusd_epi32(b7, wb, s7)
                w += 64; offset += 4
            }
        }
        let out = UnsafeMutableRawPointer(acc)
        out.storeBytes(of: a0, toByteOffset: 0, as: __m512i.self); out.storeBytes(of: b0, toByteOffset: 64, as: __m512i.self)
        out.storeBytes(of: a1, toByteOffset: 128, as: __m512i.self); out.storeBytes(of: b1, toByteOffset: 192, as: __m512i.self)
        out.storeBytes(of: a2, toByteOffset: 256, as: __m512i.self); out.storeBytes(of: b2, toByteOffset: 320, as: __m512i.self)
        out.storeBytes(of: a3, toByteOffset: 384, as: __m512i.self); out.storeBytes(of: b3, toByteOffset: 448, as: __m512i.self)
        out.storeBytes(of: a4, toByteOffset: 512, as: __m512i.self); out.storeBytes(of: b4, toByteOffset: 576, as: __m512i.self)
        out.storeBytes(of: a5, toByteOffset: 640, as: __m512i.self); out.storeBytes(of: b5, toByteOffset: 704, as: __m512i.self)
        out.storeBytes(of: a6, toByteOffset: 768, as: __m512i.self); out.storeBytes(of: b6, toByteOffset: 832, as: __m512i.self)
        out.storeBytes(of: a7, toByteOffset: 896, as: __m512i.self); out.storeBytes(of: b7, toByteOffset: 960, as: __m512i.self)
    }

    /// 8 pixels × one panel (16 channels) of uint8 weight quads: each pixel's 4 signed input bytes are
    /// broadcast to every 32-bit lane and `vpdpbusd` (weights as the unsigned operand) adds the 4 products.
    @inline(__always)
    static func avx512UnsignedWeightQuadTile8x16(_ pointers: UnsafePointer<UnsafeRawPointer>, taps: Int, words: Int,
                                                 weights: UnsafeRawPointer, into acc: UnsafeMutablePointer<Int32>) {
        let zero = _mm512_setzero_si512()
        var a0 = zero
        var a1 = zero
        var a2 = zero
        var a3 = zero
        var a4 = zero
        var a5 = zero
        var a6 = zero
        var a7 = zero
        var w = weights
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
                let s0 = _mm512_set1_epi32(x0.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a0 = _mm512_dpbusd_epi32(a0, wa, s0)
                let s1 = _mm512_set1_epi32(x1.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a1 = _mm512_dpbusd_epi32(a1, wa, s1)
                let s2 = _mm512_set1_epi32(x2.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a2 = _mm512_dpbusd_epi32(a2, wa, s2)
                let s3 = _mm512_set1_epi32(x3.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a3 = _mm512_dpbusd_epi32(a3, wa, s3)
                let s4 = _mm512_set1_epi32(x4.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a4 = _mm512_dpbusd_epi32(a4, wa, s4)
                let s5 = _mm512_set1_epi32(x5.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a5 = _mm512_dpbusd_epi32(a5, wa, s5)
                let s6 = _mm512_set1_epi32(x6.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a6 = _mm512_dpbusd_epi32(a6, wa, s6)
                let s7 = _mm512_set1_epi32(x7.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                a7 = _mm512_dpbusd_epi32(a7, wa, s7)
                w += 64; offset += 4
            }
        }
        let out = UnsafeMutableRawPointer(acc)
        out.storeBytes(of: a0, toByteOffset: 0, as: __m512i.self)
        out.storeBytes(of: a1, toByteOffset: 128, as: __m512i.self)
        out.storeBytes(of: a2, toByteOffset: 256, as: __m512i.self)
        out.storeBytes(of: a3, toByteOffset: 384, as: __m512i.self)
        out.storeBytes(of: a4, toByteOffset: 512, as: __m512i.self)
        out.storeBytes(of: a5, toByteOffset: 640, as: __m512i.self)
        out.storeBytes(of: a6, toByteOffset: 768, as: __m512i.self)
        out.storeBytes(of: a7, toByteOffset: 896, as: __m512i.self)
    }
}
#endif
