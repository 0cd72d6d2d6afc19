/// 6 pixels × 8 channels (`SIMD8<Float>`): 12 accumulators in the 16 xmm registers of a plain
/// SSE2 x86-64 build (two per `SIMD8`), leaving room for the weights and a broadcast input.
enum FloatConvKernel6x8: FloatConvTileKernel {
    static var rows: Int { 6 }
    static var panelWidth: Int { 8 }

    @inline(__always)
    static func tile(runs: UnsafePointer<UnsafePointer<Float>>, taps: Int, inputDepth: Int,
                     weights: UnsafePointer<Float>, epilogue: FloatConvEpilogue,
                     output: UnsafeMutablePointer<Float>, rowStride: Int, count: Int) {
        var a0 = SIMD8<Float>(), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0
        var w = weights
        var run = runs
        for _ in 0..<taps {
            let p0 = run[0], p1 = run[1], p2 = run[2], p3 = run[3], p4 = run[4], p5 = run[5]
            for ic in 0..<inputDepth {
                let wv = UnsafeRawPointer(w).loadUnaligned(as: SIMD8<Float>.self)
                a0 = SIMD8(repeating: p0[ic]) * wv + a0
                a1 = SIMD8(repeating: p1[ic]) * wv + a1
                a2 = SIMD8(repeating: p2[ic]) * wv + a2
                a3 = SIMD8(repeating: p3[ic]) * wv + a3
                a4 = SIMD8(repeating: p4[ic]) * wv + a4
                a5 = SIMD8(repeating: p5[ic]) * wv + a5
                w += 8
            }
            run += 6
        }
        let b = epilogue.bias8(at: 0)
        epilogue.store(a0, bias: b, to: output, offset: 0)
        if count > 1 { epilogue.store(a1, bias: b, to: output + rowStride, offset: 0) }
        if count > 2 { epilogue.store(a2, bias: b, to: output + 2 * rowStride, offset: 0) }
        if count > 3 { epilogue.store(a3, bias: b, to: output + 3 * rowStride, offset: 0) }
        if count > 4 { epilogue.store(a4, bias: b, to: output + 4 * rowStride, offset: 0) }
        if count > 5 { epilogue.store(a5, bias: b, to: output + 5 * rowStride, offset: 0) }
    }
}

extension FloatConvKernel6x8 {
    /// The 6 × 8 tile over pre-broadcast inputs: `broadcasts[k · 6 + r]` holds step `k`'s input
    /// of pixel `r` in all four lanes.
    @inline(__always)
    static func tile(broadcasts: UnsafePointer<SIMD4<Float>>, depth: Int, weights: UnsafePointer<Float>,
                     epilogue: FloatConvEpilogue, output: UnsafeMutablePointer<Float>, rowStride: Int, count: Int) {
        var a0 = SIMD4<Float>(), b0 = a0, a1 = a0, b1 = a0, a2 = a0, b2 = a0
        var a3 = a0, b3 = a0, a4 = a0, b4 = a0, a5 = a0, b5 = a0
        var w = weights
        var x = broadcasts
        for _ in 0..<depth {
            let wl = UnsafeRawPointer(w).loadUnaligned(as: SIMD4<Float>.self)
            let wh = UnsafeRawPointer(w + 4).loadUnaligned(as: SIMD4<Float>.self)
            a0 = x[0] * wl + a0; b0 = x[0] * wh + b0
            a1 = x[1] * wl + a1; b1 = x[1] * wh + b1
            a2 = x[2] * wl + a2; b2 = x[2] * wh + b2
            a3 = x[3] * wl + a3; b3 = x[3] * wh + b3
            a4 = x[4] * wl + a4; b4 = x[4] * wh + b4
            a5 = x[5] * wl + a5; b5 = x[5] * wh + b5
            x += 6
            w += 8
        }
        @inline(__always) func join(_ lo: SIMD4<Float>, _ hi: SIMD4<Float>) -> SIMD8<Float> { SIMD8(lowHalf: lo, highHalf: hi) }
        let b = epilogue.bias8(at: 0)
        epilogue.store(join(a0, b0), bias: b, to: output, offset: 0)
        if count > 1 { epilogue.store(join(a1, b1), bias: b, to: output + rowStride, offset: 0) }
        if count > 2 { epilogue.store(join(a2, b2), bias: b, to: output + 2 * rowStride, offset: 0) }
        if count > 3 { epilogue.store(join(a3, b3), bias: b, to: output + 3 * rowStride, offset: 0) }
        if count > 4 { epilogue.store(join(a4, b4), bias: b, to: output + 4 * rowStride, offset: 0) }
        if count > 5 { epilogue.store(join(a5, b5), bias: b, to: output + 5 * rowStride, offset: 0) }
    }
}
