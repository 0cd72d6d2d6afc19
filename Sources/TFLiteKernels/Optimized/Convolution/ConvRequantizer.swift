import MachineCode

/// Per-channel requantization tables for the optimized epilogues: the multipliers and shifts
/// of `QuantizedConvolutionParameters` as separate raw arrays (padded to a multiple of 16), so
/// a tile of 16 accumulators is requantized without bounds checks or array traffic, with
/// exactly the arithmetic of `multiplyByQuantizedMultiplier` (the reference's double rounding).
/// Built once at prepare; immutable afterwards.
///
/// Full tiles are requantized in vector form (`requantize(_:channel:)`): the doubling high
/// multiply is done as unsigned 32×32→64 products of the even and odd lanes (`pmuludq` on
/// plain SSE2, `vpmuludq` with AVX-512, `umull` on arm64) with a signed fix-up, which is exact
/// because the multipliers are non-negative Q31 values.
public final class ConvRequantizer: @unchecked Sendable {
    /// Q31 multipliers per channel (0 in the padding lanes).
    let multipliers: UnsafeMutablePointer<Int32>
    /// Left shifts (`max(shift, 0)`) per channel.
    let leftShifts: UnsafeMutablePointer<Int32>
    /// Right shifts (`max(-shift, 0)`) per channel.
    let rightShifts: UnsafeMutablePointer<Int32>
    /// `2^leftShift` per channel (the left shift as a wrapping multiply).
    let leftFactors: UnsafeMutablePointer<Int32>
    /// `2^rightShift - 1` per channel: the remainder mask of the rounding division.
    let remainderMasks: UnsafeMutablePointer<Int32>
    /// What the generated AVX-512 requantization (`Requantization16AVX512`) reads, per
    /// 16-channel block (`roundingBlockBytes`): the single rounding's addends, negative addends
    /// and shifts (`terms(rightShift:outputOffset:)`, the output offset in the addend where
    /// `foldsOffset` allows), each as the block's 8 even channels then its 8 odd channels (48
    /// Int64); the residual offsets (16 Int32: the output offset where it is not folded, else
    /// 0); a flag (Int64): `residualOffsetFlag` when the block has a residual offset, and
    /// `clampedNegativesFlag` in every block when `clampsNegativeResults`. Padding channels have
    /// shift 0. Meaningful only when `vectorizable` and without left shifts.
    ///
    /// In the AVX2 form (`unsignedRounding`, `Requantization16AVX2`, which has no arithmetic
    /// 64-bit shift) a block takes one of two layouts, which its flag tells apart:
    /// - the high-word layout (`highWordFlag`), for blocks whose every channel shifts right by
    ///   at least 1 (a total shift of 32 or more, `highWordSingleRounding`): the terms above,
    ///   except that the shifts' row holds 16 Int32 in channel order, each total shift minus 32;
    /// - otherwise, the addends carry 2^63 more and the residual offsets' row holds every
    ///   channel's `postShiftOffset` plus its residual offset (`unsignedSingleRounding`).
    let roundingTerms: UnsafeMutableRawPointer
    /// Whether `roundingTerms` are in the AVX2 form.
    let unsignedRounding: Bool
    /// Bytes of `roundingTerms` per 16-channel block, and where in a block each part starts:
    /// six 64-byte rows (addends, negative addends, shifts; even then odd channels), the
    /// residual offsets, the flag.
    static let roundingBlockBytes = 512
    static let negativeAddendBytes = 128, shiftBytes = 256, residualOffsetBytes = 384, residualFlagBytes = 448
    /// The bits of a block's flag: the block has residual offsets to add; the layer clamps
    /// negative results away, so its negative products may skip the negative addend; the
    /// block's AVX2-form terms are in the high-word layout; the layer's clamp is its 8-bit
    /// type's whole range (`clampsToTypeRange`), which saturating stores apply by themselves,
    /// and with the last bit that range is int8's.
    static let residualOffsetFlag: Int64 = 1, clampedNegativesFlag: Int64 = 2, highWordFlag: Int64 = 4
    static let typeRangeClampFlag: Int64 = 8, int8RangeFlag: Int64 = 16
    /// True when every multiplier is non-negative (the vector high multiply's precondition).
    let vectorizable: Bool
    /// True when some channel shifts left (otherwise the vector path skips that step).
    let hasLeftShift: Bool
    /// The right shift shared by every channel (per-tensor quantization), or nil.
    let uniformRightShift: Int32?
    /// The scalar parameters (offsets, clamp) and the per-channel multipliers.
    public let parameters: QuantizedConvolutionParameters

    /// True when the generated requantizations of the AVX2 form (`unsigned`) or of the AVX-512
    /// one take this requantizer: vectorizable, no left shift, its terms laid out in that form.
    func suitsGeneratedRequantization(unsigned: Bool) -> Bool {
        vectorizable && !hasLeftShift && unsignedRounding == unsigned
    }

    /// The generated epilogues a requantizer serves, which decide the form of its rounding terms.
    public enum Epilogue: Sendable {
        /// The GEMM tiles of convolutions and fully connected layers (`FusedRequantization`).
        case convolution
        /// The depthwise rows (`DepthwiseRequantizeEpilogue`, the requantizing depthwise tiles).
        case depthwise
    }

    /// Lays out `parameters` for the epilogues of `epilogue`, the rounding terms in the form its
    /// generated kernels read in this process (`usesUnsignedRounding`).
    public convenience init(_ parameters: QuantizedConvolutionParameters, epilogue: Epilogue = .convolution) {
        self.init(parameters, unsignedRounding: Self.usesUnsignedRounding(epilogue))
    }

    /// Lays out `parameters` with the rounding terms in the AVX2 form (`unsignedRounding`) or
    /// the AVX-512 one, whatever this process's kernels are (tests drive either level's code).
    init(_ parameters: QuantizedConvolutionParameters, unsignedRounding unsigned: Bool) {
        self.parameters = parameters
        self.unsignedRounding = unsigned
        let count = parameters.outputMultipliers.count
        let n = max(16, (count + 15) / 16 * 16)
        func table(_ value: Int32) -> UnsafeMutablePointer<Int32> {
            let p = UnsafeMutablePointer<Int32>.allocate(capacity: n)
            p.initialize(repeating: value, count: n)
            return p
        }
        // The multipliers have one block more: the AVX2 requantization reads the odd channels'
        // as 32 bytes 4 bytes past a half block's start, so up to one entry past the last block.
        multipliers = .allocate(capacity: n + 16)
        multipliers.initialize(repeating: 0, count: n + 16)
        leftShifts = table(0); rightShifts = table(0)
        leftFactors = table(1); remainderMasks = table(0)
        roundingTerms = .allocate(byteCount: n / 16 * Self.roundingBlockBytes, alignment: 64)
        roundingTerms.initializeMemory(as: UInt8.self, repeating: 0, count: n / 16 * Self.roundingBlockBytes)
        var vectorizable = true, hasLeftShift = false
        for (c, m) in parameters.outputMultipliers.enumerated() {
            let left = Int32(max(m.shift, 0)), right = Int32(max(-m.shift, 0))
            multipliers[c] = m.multiplier
            leftShifts[c] = left
            rightShifts[c] = right
            leftFactors[c] = Int32(1) &<< left
            remainderMasks[c] = (Int32(1) &<< right) &- 1
            if m.multiplier < 0 || left > 31 || right > 31 { vectorizable = false }
            if left > 0 { hasLeftShift = true }
        }
        // Padding lanes repeat channel 0's shift so a uniform shift stays uniform.
        if count > 0 {
            for c in count..<n { rightShifts[c] = rightShifts[0]; remainderMasks[c] = remainderMasks[0] }
        }
        let offset = parameters.outputOffset
        let layerFlags = (Self.clampsNegativeResults(activationMin: parameters.activationMin, outputOffset: offset)
                          ? Self.clampedNegativesFlag : 0)
            | (Self.clampsToTypeRange(activationMin: parameters.activationMin, activationMax: parameters.activationMax)
               ? Self.typeRangeClampFlag | (parameters.activationMin < 0 ? Self.int8RangeFlag : 0) : 0)
        for block in 0..<(n / 16) {
            roundingTerms.storeBytes(of: layerFlags, toByteOffset: block * Self.roundingBlockBytes + Self.residualFlagBytes,
                                     as: Int64.self)
        }
        /// Adds `bit` to the flag of the block at `block`.
        func flag(_ block: UnsafeMutableRawPointer, _ bit: Int64) {
            let flag = block.load(fromByteOffset: Self.residualFlagBytes, as: Int64.self)
            block.storeBytes(of: flag | bit, toByteOffset: Self.residualFlagBytes, as: Int64.self)
        }
        let rights = rightShifts
        let clampedShifts = (0..<count).map { min(max(rights[$0], 0), 31) }
        for first in stride(from: 0, to: n, by: 16) {
            let block = roundingTerms + first / 16 * Self.roundingBlockBytes
            let highWord = unsigned && clampedShifts[min(first, count)..<min(first + 16, count)].allSatisfy { $0 >= 1 }
            if highWord { flag(block, Self.highWordFlag) }
            for c in first..<(first + 16) {
                let shift = c < count ? clampedShifts[c] : 0
                let folds = Self.foldsOffset(rightShift: shift, outputOffset: offset)
                let terms = Self.terms(rightShift: shift, outputOffset: folds ? offset : 0)
                let lane = 8 * (c % 2 * 8 + c % 16 / 2)
                let biased = unsigned && !highWord
                block.storeBytes(of: biased ? terms.addend &+ Int64.min : terms.addend, toByteOffset: lane, as: Int64.self)
                block.storeBytes(of: terms.negativeAddend, toByteOffset: Self.negativeAddendBytes + lane, as: Int64.self)
                if highWord {
                    block.storeBytes(of: Int32(max(terms.shift - 32, 0)), toByteOffset: Self.shiftBytes + 4 * (c % 16), as: Int32.self)
                } else {
                    block.storeBytes(of: terms.shift, toByteOffset: Self.shiftBytes + lane, as: Int64.self)
                }
                let residual = folds ? 0 : offset
                block.storeBytes(of: biased ? Self.postShiftOffset(shift: terms.shift) &+ residual : residual,
                                 toByteOffset: Self.residualOffsetBytes + 4 * (c % 16), as: Int32.self)
                if !folds { flag(block, Self.residualOffsetFlag) }
            }
        }
        self.vectorizable = vectorizable
        self.hasLeftShift = hasLeftShift
        let shifts = rightShifts, first = count > 0 ? shifts[0] : 0
        uniformRightShift = (0..<count).allSatisfy { shifts[$0] == first } ? first : nil
    }

    deinit {
        multipliers.deallocate(); leftShifts.deallocate(); rightShifts.deallocate()
        leftFactors.deallocate(); remainderMasks.deallocate(); roundingTerms.deallocate()
    }

    /// The `roundingTerms` of the 16-channel block starting at `channel`.
    /// Precondition: `channel` is a multiple of 16 below the table's padded channel count.
    func roundingTerms(atChannel channel: Int) -> UnsafeRawPointer {
        UnsafeRawPointer(roundingTerms + channel / 16 * Self.roundingBlockBytes)
    }

    /// Whether the output offset `o` may join the single rounding's addend for a right shift
    /// `s`: when `o·2^(31+s)` leaves room in Int64 for the product (|p| < 2^62) and the other
    /// terms, which holds for the 8-bit offsets (|o| ≤ 255) up to s = 22. Larger shifts (a
    /// multiplier below 2^−22: real models have them for dead channels) keep the offset apart.
    static func foldsOffset(rightShift s: Int32, outputOffset o: Int32) -> Bool {
        o == 0 || (s <= 22 && o.magnitude <= 255)
    }

    /// The terms of `singleRounding` for a right shift `s` in 0...31 and an output offset `o`:
    /// the addend `2^30 + 2^(30+s) + o·2^(31+s)` (`2^30 + o·2^31` for s = 0), the negative
    /// addend `−2^31` (0 for s = 0), added where the product is negative, and the total shift
    /// `31 + s`. Precondition: `foldsOffset(rightShift: s, outputOffset: o)`.
    static func terms(rightShift s: Int32, outputOffset o: Int32 = 0) -> (addend: Int64, negativeAddend: Int64, shift: Int64) {
        let shift = 31 + Int64(s), offset = Int64(o) << shift
        return s == 0 ? ((1 << 30) + offset, 0, shift) : ((1 << 30) + (1 << (shift - 1)) + offset, -(1 << 31), shift)
    }

    /// Whether `epilogue`'s requantizers lay out their rounding terms in the AVX2 form in this
    /// process: where its generated kernels requantize in ymm registers (the GEMM below
    /// `.avx512vnni`, the depthwise rows below `.avx512`). Kernels given the other form decline
    /// (the portable epilogues run), so a requantizer made for the wrong epilogue is slow, not wrong.
    static func usesUnsignedRounding(_ epilogue: Epilogue) -> Bool {
        guard let kernels = GeneratedKernels.current else { return false }
        switch epilogue {
        case .convolution: return kernels.vnniGEMM == nil
        case .depthwise: return kernels.depthwiseRequantize512 == nil
        }
    }

    /// What the AVX2 form adds after its logical shift by `shift` (31...62) to undo the 2^63
    /// its addend carries: `−2^(63 − shift)`, wrapping in Int32. With `p + addend` in Int64
    /// range, `p + addend + 2^63` is a UInt64 whose logical shift is the arithmetic shift of
    /// `p + addend` plus `2^(63 − shift)`.
    static func postShiftOffset(shift: Int64) -> Int32 {
        0 &- Int32(truncatingIfNeeded: Int64(1) << (63 - shift))
    }

    /// `singleRounding` as the AVX2 form computes it: the product, the negative addend where it
    /// is negative (unless `roundsNegativesAway` is false), the addend plus 2^63, a logical
    /// shift, the low 32 bits plus `postShiftOffset`.
    static func unsignedSingleRounding(_ x: Int32, multiplier m: Int32, rightShift s: Int32, outputOffset o: Int32 = 0,
                                       roundsNegativesAway: Bool = true) -> Int32 {
        let t = terms(rightShift: s, outputOffset: o), p = Int64(x) * Int64(m)
        let biased = p &+ (p < 0 && roundsNegativesAway ? t.negativeAddend : 0) &+ (t.addend &+ Int64.min)
        return Int32(truncatingIfNeeded: UInt64(bitPattern: biased) >> UInt64(t.shift)) &+ postShiftOffset(shift: t.shift)
    }

    /// Whether a clamp is a whole 8-bit range, `[−128, 127]` or `[0, 255]` (layers without an
    /// activation, and RELU6 layers whose output scale is 6/255): the only outputs with such a
    /// clamp are int8 and uint8 ones, whose saturating narrowing (AVX2's `vpackssdw` then
    /// `vpacksswb` / `vpackuswb`; AVX-512's `vpmovsdb`, or `vpmovusdb` after a maximum with 0)
    /// then clamps exactly as the clamp would.
    static func clampsToTypeRange(activationMin: Int32, activationMax: Int32) -> Bool {
        (activationMin, activationMax) == (-128, 127) || (activationMin, activationMax) == (0, 255)
    }

    /// `singleRounding` as the AVX2 form computes it in a high-word block (right shift `s ≥ 1`,
    /// so a total shift of 32 or more): the product plus the addend (and the negative addend
    /// where the product is negative, unless `roundsNegativesAway` is false), its high 32 bits,
    /// then an arithmetic shift by the total shift minus 32. Exact because nested floor
    /// divisions compose, and `|p + addend| < 2^63` (`foldsOffset`), so the high 32 bits are the
    /// whole quotient by 2^32.
    static func highWordSingleRounding(_ x: Int32, multiplier m: Int32, rightShift s: Int32, outputOffset o: Int32 = 0,
                                       roundsNegativesAway: Bool = true) -> Int32 {
        let t = terms(rightShift: s, outputOffset: o), p = Int64(x) * Int64(m)
        let sum = p + t.addend + (p < 0 && roundsNegativesAway ? t.negativeAddend : 0)
        return Int32(truncatingIfNeeded: sum >> 32) >> Int32(t.shift - 32)
    }

    /// Whether a clamp starts at or above the output offset (`activationMin ≥ outputOffset`:
    /// RELU and RELU6 layers, whose minimum is the output zero point). Then every
    /// negative product clamps to the minimum whether its rounding is exact or not: a negative
    /// product `x·m` gives a result `≤ 0` before the offset with or without the negative addend
    /// (`(x·m + 2^30 + 2^(30+s)) / 2^(31+s) < 1`), so `≤ outputOffset ≤ activationMin` after it.
    /// The generated requantizations (AVX-512 and AVX2) skip the negative addend in such layers
    /// (`singleRounding(_:multiplier:rightShift:outputOffset:roundsNegativesAway:)` with false).
    static func clampsNegativeResults(activationMin: Int32, outputOffset: Int32) -> Bool {
        activationMin >= outputOffset
    }

    /// `multiplyByQuantizedMultiplier(x, m, −s) &+ o` (m ≥ 0, s in 0...31, `foldsOffset`) with
    /// one rounding: `(x·m + addend + (x·m < 0 ? negativeAddend : 0)) >> shift` in 64 bits
    /// (`terms`), the arithmetic the generated AVX-512 requantization does per lane. It equals
    /// the reference's two roundings, the high multiply's `⌊(p + 2^30) / 2^31⌋` (p = x·m) and
    /// the right shift's half-away-from-zero `⌊(y + 2^(s−1) − [y < 0]) / 2^s⌋`, because nested
    /// floor divisions compose (`⌊(⌊p'/2^31⌋ + k) / 2^s⌋ = ⌊(p' + k·2^31) / 2^(31+s)⌋`, so the
    /// integer offset joins the addend too) and the sign of y may be taken from p: they differ
    /// only for p in [−2^30, 0), where y = 0 and both forms give 0. The low 32 bits of the
    /// result are the reference's wrapping Int32 sum with the offset.
    /// Without `roundsNegativesAway`, negative products skip the negative addend (they round
    /// half up), which leaves the clamped result of layers that `clampsNegativeResults` unchanged.
    static func singleRounding(_ x: Int32, multiplier m: Int32, rightShift s: Int32, outputOffset o: Int32 = 0,
                               roundsNegativesAway: Bool = true) -> Int32 {
        let t = terms(rightShift: s, outputOffset: o), p = Int64(x) * Int64(m)
        return Int32(truncatingIfNeeded: (p + t.addend + (p < 0 && roundsNegativesAway ? t.negativeAddend : 0)) >> t.shift)
    }

    /// Requantizes the first `lanes` accumulators of channels `channel ..< channel + lanes` and
    /// stores them as `Element`. Full tiles of 8-bit outputs take the vector path; partial
    /// tiles the scalar one (both exactly `multiplyByQuantizedMultiplier`).
    @inline(__always)
    func store<Element: FixedWidthInteger>(_ acc: SIMD16<Int32>, channel: Int, lanes: Int,
                                           to dst: UnsafeMutablePointer<Element>) {
        if lanes == 16, Element.bitWidth == 8, vectorizable {
            // Values are clamped into the element's range, so truncation is the same for Int8 and UInt8.
            #if LITEVISION_AVX512
            storeBytesAVX512(requantizeAVX512(acc, channel: channel), to: UnsafeMutableRawPointer(dst))
            #else
            let h = requantizePortable(acc, channel: channel)
            UnsafeMutableRawPointer(dst).storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: h), as: SIMD16<UInt8>.self)
            #endif
            return
        }
        storeScalar(acc, channel: channel, lanes: lanes, to: dst)
    }

    /// The vector requantization of a full tile (channels `channel ..< channel + 16`):
    /// offset added and clamped, as Int32. Requires `vectorizable`. AVX-512 builds use
    /// intrinsics, every other build the portable Swift SIMD form.
    @inline(__always)
    func requantize(_ acc: SIMD16<Int32>, channel: Int) -> SIMD16<Int32> {
        #if LITEVISION_AVX512
        return requantizeAVX512(acc, channel: channel)
        #else
        return requantizePortable(acc, channel: channel)
        #endif
    }

    /// `requantize` in portable Swift SIMD (compiled and tested on every platform).
    @inline(__always)
    func requantizePortable(_ acc: SIMD16<Int32>, channel: Int) -> SIMD16<Int32> {
        var x = acc
        if hasLeftShift { x = x &* load(leftFactors, channel) }
        var h = Self.roundingDoublingHighMul(x, load(multipliers, channel))
        let mask = load(remainderMasks, channel)
        let remainder = h & mask
        // threshold = mask / 2, plus one for negative h (h >> 31 is -1 there).
        let threshold = (mask &>> 1) &- (h &>> 31)
        if let e = uniformRightShift {
            h = h &>> e
        } else {
            h = h &>> load(rightShifts, channel)
        }
        h = h &- SIMD16<Int32>(repeating: 0).replacing(with: -1, where: remainder .> threshold)
        h = h &+ SIMD16<Int32>(repeating: parameters.outputOffset)
        let lo = SIMD16<Int32>(repeating: parameters.activationMin)
        let hi = SIMD16<Int32>(repeating: parameters.activationMax)
        return h.replacing(with: lo, where: h .< lo).replacing(with: hi, where: h .> hi)
    }

    @inline(__always)
    private func load(_ table: UnsafeMutablePointer<Int32>, _ channel: Int) -> SIMD16<Int32> {
        UnsafeRawPointer(table + channel).loadUnaligned(as: SIMD16<Int32>.self)
    }

    /// `saturatingRoundingDoublingHighMul(x, m)` for `m ≥ 0` (so the saturating case
    /// `Int32.min · Int32.min` cannot occur): the reference's nudged truncating division of the
    /// 64-bit product by 2^31 equals `(x·m + 2^30) >> 31` (floor) for either sign. The product
    /// is formed unsigned (`x` read as `x + 2^32` when negative, which adds `2m · 2^31`), so the
    /// signed result is the unsigned one minus `2m` in those lanes, modulo 2^32.
    @inline(__always)
    static func roundingDoublingHighMul(_ x: SIMD16<Int32>, _ m: SIMD16<Int32>) -> SIMD16<Int32> {
        let x64 = unsafeBitCast(x, to: SIMD8<UInt64>.self)
        let m64 = unsafeBitCast(m, to: SIMD8<UInt64>.self)
        let low = SIMD8<UInt64>(repeating: 0xFFFF_FFFF)
        let nudge = SIMD8<UInt64>(repeating: 1 << 30)
        let even = ((x64 & low) &* (m64 & low) &+ nudge) &>> 31
        let odd = ((x64 &>> 32) &* (m64 &>> 32) &+ nudge) &>> 31
        let unsignedHigh = unsafeBitCast((even & low) | (odd &<< 32), to: SIMD16<Int32>.self)
        return unsignedHigh &- ((x &>> 31) & (m &+ m))
    }

    /// Scalar 64-bit requantization per lane (the same steps as `multiplyByQuantizedMultiplier`).
    @inline(__always)
    func storeScalar<Element: FixedWidthInteger>(_ acc: SIMD16<Int32>, channel: Int, lanes: Int,
                                                 to dst: UnsafeMutablePointer<Element>) {
        let offset = parameters.outputOffset, lo = parameters.activationMin, hi = parameters.activationMax
        for l in 0..<lanes {
            let c = channel + l
            let h = multiplyByQuantizedMultiplier(acc[l] &<< leftShifts[c], multipliers[c], -Int(rightShifts[c]))
            dst[l] = Element(truncatingIfNeeded: min(max(h &+ offset, lo), hi))
        }
    }
}
