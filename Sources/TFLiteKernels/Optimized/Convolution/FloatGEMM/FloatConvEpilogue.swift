/// The end of a float tile: add the bias last (the reference's summation order), clamp to the
/// fused activation range, store the valid lanes of one output row.
///
/// `store` and `clamp` are `@_transparent` (always inlined): the 6- and 8-row kernels call
/// `store` up to 16 times, and with `@inline(__always)` the optimizer still left some calls out
/// of line in tuned builds, passing every `SIMD16` through the stack (about 6% of deeplabv3).
struct FloatConvEpilogue {
    /// Bias of the panel's first channel, or nil.
    let bias: UnsafePointer<Float>?
    /// Valid output channels in this panel (the last panel may be partial).
    let lanes: Int
    /// Activation range.
    let activationMin: Float, activationMax: Float
    /// The fused ADD's operand at this tile's first output element, or nil; only the generated
    /// tiles take one (see `FloatConvResidual`).
    var residual: UnsafePointer<Float>? = nil
    /// Floats from one of the operand's rows to the next (0: one zero row for every pixel).
    var residualStride = 0
    /// The fused ADD's activation range.
    var residualMin: Float = -.infinity, residualMax: Float = .infinity
    /// Room for a tile that pads a partial panel to a whole one (the generated AVX2 tile):
    /// `partialPanelFloatCount(rows:panelWidth:)` floats of the caller's workspace, or nil: the
    /// tile then uses a temporary of its own.
    var partialPanel: UnsafeMutablePointer<Float>? = nil

    /// Bias lanes `offset ..< offset + 16` (zero past `lanes` or without bias).
    @inline(__always)
    func bias16(at offset: Int) -> SIMD16<Float> {
        guard let bias else { return SIMD16() }
        if offset + 16 <= lanes { return UnsafeRawPointer(bias + offset).loadUnaligned(as: SIMD16<Float>.self) }
        var v = SIMD16<Float>()
        if offset < lanes { for l in 0..<(lanes - offset) { v[l] = bias[offset + l] } }
        return v
    }

    /// Bias lanes `offset ..< offset + 8` (zero past `lanes` or without bias).
    @inline(__always)
    func bias8(at offset: Int) -> SIMD8<Float> {
        guard let bias else { return SIMD8() }
        if offset + 8 <= lanes { return UnsafeRawPointer(bias + offset).loadUnaligned(as: SIMD8<Float>.self) }
        var v = SIMD8<Float>()
        if offset < lanes { for l in 0..<(lanes - offset) { v[l] = bias[offset + l] } }
        return v
    }

    /// Stores `acc + bias`, clamped, to lanes `offset ..< min(offset + 16, lanes)` of `row`.
    @_transparent
    func store(_ acc: SIMD16<Float>, bias b: SIMD16<Float>, to row: UnsafeMutablePointer<Float>, offset: Int) {
        var v = acc + b
        clamp(&v)
        if offset + 16 <= lanes {
            UnsafeMutableRawPointer(row + offset).storeBytes(of: v, as: SIMD16<Float>.self)
        } else {
            storePartial(v, to: row, offset: offset)
        }
    }

    /// Stores `acc + bias`, clamped, to lanes `offset ..< min(offset + 8, lanes)` of `row`.
    @_transparent
    func store(_ acc: SIMD8<Float>, bias b: SIMD8<Float>, to row: UnsafeMutablePointer<Float>, offset: Int) {
        var v = acc + b
        clamp(&v)
        if offset + 8 <= lanes {
            UnsafeMutableRawPointer(row + offset).storeBytes(of: v, as: SIMD8<Float>.self)
        } else {
            storePartial(v, to: row, offset: offset)
        }
    }

    /// Clamps every lane to the activation range. Written lane by lane on purpose: LLVM turns
    /// this into `maxps`/`minps`, while `replacing(with:where:)` on 8 and 16 lanes becomes a
    /// compare and a three-instruction blend per register in SSE2 builds.
    @_transparent
    func clamp(_ v: inout SIMD16<Float>) {
        let lo = activationMin, hi = activationMax
        for i in 0..<16 { let x = v[i]; v[i] = x < lo ? lo : x }
        for i in 0..<16 { let x = v[i]; v[i] = x > hi ? hi : x }
    }

    /// `clamp` for 8 lanes.
    @_transparent
    func clamp(_ v: inout SIMD8<Float>) {
        let lo = activationMin, hi = activationMax
        for i in 0..<8 { let x = v[i]; v[i] = x < lo ? lo : x }
        for i in 0..<8 { let x = v[i]; v[i] = x > hi ? hi : x }
    }

    /// Stores lanes `offset ..< lanes` of `v` (the last, partial panel). Kept out of line so
    /// that `store` stays small enough to be inlined into every kernel.
    @inline(never)
    func storePartial(_ v: SIMD16<Float>, to row: UnsafeMutablePointer<Float>, offset: Int) {
        if offset < lanes { for l in 0..<min(16, lanes - offset) { row[offset + l] = v[l] } }
    }

    /// `storePartial` for 8 lanes.
    @inline(never)
    func storePartial(_ v: SIMD8<Float>, to row: UnsafeMutablePointer<Float>, offset: Int) {
        if offset < lanes { for l in 0..<min(8, lanes - offset) { row[offset + l] = v[l] } }
    }
}
