/// 6 pixels × 16 channels (`SIMD16<Float>`): 24 accumulator registers on arm64 NEON (32
/// registers), 12 ymm on AVX2; the shape for builds without AVX-512 that are not plain SSE2.
enum FloatConvKernel6x16: FloatConvTileKernel {
    static var rows: Int { 6 }
    static var panelWidth: Int { 16 }

    @inline(__always)
    static func tile(runs: UnsafePointer<UnsafePointer<Float>>, taps: Int, inputDepth: Int,
                     weights: UnsafePointer<Float>, epilogue: FloatConvEpilogue,
                     output: UnsafeMutablePointer<Float>, rowStride: Int, count: Int) {
        var a0 = SIMD16<Float>(), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0
        var w = weights
        var run = runs
        for _ in 0..<taps {
            let p0 = run[0], p1 = run[1], p2 = run[2], p3 = run[3], p4 = run[4], p5 = run[5]
            for ic in 0..<inputDepth {
                let wv = UnsafeRawPointer(w).loadUnaligned(as: SIMD16<Float>.self)
                a0 = SIMD16(repeating: p0[ic]) * wv + a0
                a1 = SIMD16(repeating: p1[ic]) * wv + a1
                a2 = SIMD16(repeating: p2[ic]) * wv + a2
                a3 = SIMD16(repeating: p3[ic]) * wv + a3
                a4 = SIMD16(repeating: p4[ic]) * wv + a4
                a5 = SIMD16(repeating: p5[ic]) * wv + a5
                w += 16
            }
            run += 6
        }
        let b = epilogue.bias16(at: 0)
        epilogue.store(a0, bias: b, to: output, offset: 0)
        if count > 1 { epilogue.store(a1, bias: b, to: output + rowStride, offset: 0) }
        if count > 2 { epilogue.store(a2, bias: b, to: output + 2 * rowStride, offset: 0) }
        if count > 3 { epilogue.store(a3, bias: b, to: output + 3 * rowStride, offset: 0) }
        if count > 4 { epilogue.store(a4, bias: b, to: output + 4 * rowStride, offset: 0) }
        if count > 5 { epilogue.store(a5, bias: b, to: output + 5 * rowStride, offset: 0) }
    }
}
