import MachineCode

/// Where a generated requantizing epilogue finds its parameters: byte offsets of fields in the
/// argument block its function receives in `rdi`. `bias` and `multipliers` point to per-channel
/// `Int32` arrays (the bias, `ConvRequantizer`'s multipliers), `roundingTerms` to
/// `ConvRequantizer.roundingTerms(atChannel:)`, the clamp bounds are `Int32` scalars.
struct RequantizationFields {
    var bias, multipliers, roundingTerms, activationMin, activationMax: Int32
}

/// The AVX2 requantization of generated epilogues, bit-exact with
/// `ConvRequantizer.requantizePortable` for requantizers without a left shift: the reference's
/// two roundings as one (`ConvRequantizer.singleRounding`) in 64-bit lanes, then the clamp; and
/// the narrowing store of 16 results as bytes. Per product of the even and of the odd lanes
/// (`vpmuldq`, the multipliers read in place), the negative addend where it is negative
/// (`vpcmpgtq`, `vpand`, `vpaddq`; skipped by a branch in layers that clamp negatives) and the
/// addend; then, by the block's layout (`ConvRequantizer.roundingTerms`, AVX2 form):
/// - high-word blocks (every channel's total shift 32 or more, the common case): the products'
///   high halves merged into one vector and one arithmetic 32-bit shift (`vpsravd`), the
///   residual offsets only in blocks that have them (`ConvRequantizer.highWordSingleRounding`);
/// - other blocks, as AVX2 has no arithmetic 64-bit shift: addends carrying 2^63 more, a
///   logical shift (`vpsrlvq`) and the post-shift offset (`ConvRequantizer.unsignedSingleRounding`).
/// 10 vector instructions per 8 channels to the clamp in a high-word block (13 in the other
/// layout), 6 more with the negative addends. Layers whose clamp is their type's whole range
/// (`ConvRequantizer.typeRangeClampFlag`) skip the clamp: `store`'s saturating packs apply it.
enum Requantization16AVX2 {
    /// Registers the requantization keeps for a whole epilogue (`loadConstants`): zero, and the
    /// clamp bounds broadcast.
    static let zero = ymm(12), low = ymm(13), high = ymm(14)

    /// Sets `zero`, and broadcasts the clamp bounds from the argument block in `rdi`.
    static func loadConstants(_ fields: RequantizationFields, _ a: inout Assembler) {
        a.vpxor(zero, zero, zero)
        a.vpbroadcastd(low, .mem(.rdi, disp: fields.activationMin))
        a.vpbroadcastd(high, .mem(.rdi, disp: fields.activationMax))
    }

    /// Requantizes the 8 Int32 sums in `x` (bias already added) in place: channels
    /// `8·half ..< 8·half + 8` of the 16-channel block whose `ConvRequantizer.roundingTerms`
    /// (AVX2 form) start at `terms`, their multipliers at `multipliers` (read up to 36 bytes from
    /// there: `ConvRequantizer` pads its table), the block's flag in `flag`. Uses ymm9–ymm11;
    /// needs `loadConstants`. The results are clamped, or, with the type-range flag, left for
    /// `store` to saturate: store them with it.
    static func requantize(_ x: VectorRegister, half: Int, multipliers: MemoryOperand, terms: GeneralRegister,
                           flag: GeneralRegister, _ a: inout Assembler) {
        typealias Block = ConvRequantizer
        /// `terms` at `row` bytes into the block, this half's lanes: the even channels, or the odd.
        func row(_ bytes: Int, odd: Bool = false) -> Assembler.VectorSource {
            .memory(.mem(terms, disp: Int32(bytes + (odd ? 64 : 0) + 32 * half)))
        }
        let even = ymm(9), odd = ymm(10), sign = ymm(11)
        // Read 4 bytes further, the odd channels' multipliers are the low halves of the 64-bit lanes.
        var oddMultipliers = multipliers
        oddMultipliers.displacement += 4
        a.vpshufd(odd, x, 0xF5)
        a.vpmuldq(odd, odd, .memory(oddMultipliers))
        a.vpmuldq(even, x, .memory(multipliers))
        let positiveRounding = a.newLabel()
        a.test(flag, Int32(ConvRequantizer.clampedNegativesFlag))
        a.j(.notEqual, positiveRounding)
        for (p, isOdd) in [(odd, true), (even, false)] {
            a.vpcmpgtq(sign, zero, .register(p))
            a.vpand(sign, sign, row(Block.negativeAddendBytes, odd: isOdd))
            a.vpaddq(p, p, .register(sign))
        }
        a.bind(positiveRounding)
        for (p, isOdd) in [(odd, true), (even, false)] { a.vpaddq(p, p, row(0, odd: isOdd)) }
        let unsignedLayout = a.newLabel(), clamp = a.newLabel()
        a.test(flag, Int32(ConvRequantizer.highWordFlag))
        a.j(.equal, unsignedLayout)
        a.vpshufd(even, even, 0xF5)                     // even lanes ← the even products' high halves
        a.vpblendd(x, even, odd, 0xAA)                  // odd lanes ← the odd products' high halves
        a.vpsravd(x, x, row(Block.shiftBytes))          // 16 Int32 shifts: this half's 8 at 32·half
        a.test(flag, Int32(ConvRequantizer.residualOffsetFlag))
        a.j(.equal, clamp)
        a.vpaddd(x, x, row(Block.residualOffsetBytes))
        a.jmp(clamp)
        a.bind(unsignedLayout)
        for (p, isOdd) in [(odd, true), (even, false)] { a.vpsrlvq(p, p, row(Block.shiftBytes, odd: isOdd)) }
        a.vpsllq(odd, odd, 32)
        a.vpblendd(x, even, odd, 0xAA)                  // odd lanes from the odd results
        a.vpaddd(x, x, row(Block.residualOffsetBytes))  // 16 Int32: this half's 8 at 32·half
        a.bind(clamp)
        let clamped = a.newLabel()
        a.test(flag, Int32(ConvRequantizer.typeRangeClampFlag))
        a.j(.notEqual, clamped)
        a.vpmaxsd(x, x, .register(low))
        a.vpminsd(x, x, .register(high))
        a.bind(clamped)
    }

    /// Stores the 16 results in `low` (channels 0–7) and `high` (8–15) as bytes at
    /// `destination`, saturating signed or unsigned: the clamp of a layer whose clamp is its
    /// type's range, else a no-op on values clamped already.
    /// Uses ymm8 and ymm9.
    ///
    /// With `lowHalfOnly`, a register whose low 32 bits select the stored channels at run time:
    /// 0xFF stores channels 0–7 only (8 bytes: a partial last panel of 8 channels), anything
    /// else all 16.
    static func store(_ low: VectorRegister, _ high: VectorRegister, signed: Bool, to destination: MemoryOperand,
                      lowHalfOnly: GeneralRegister? = nil, _ a: inout Assembler) {
        a.vpackssdw(ymm(8), low, high)                   // words l0-3 h0-3 | l4-7 h4-7
        a.vpermq(ymm(8), ymm(8), 0xD8)                   // l0-7 | h0-7
        a.vextracti128(xmm(9), ymm(8), 1)
        if signed { a.vpacksswb(xmm(8), xmm(8), xmm(9)) } else { a.vpackuswb(xmm(8), xmm(8), xmm(9)) }
        guard let lowHalfOnly else { return a.vmovups(destination, xmm(8)) }
        let whole = a.newLabel(), stored = a.newLabel()
        a.cmp(lowHalfOnly, 0xFF, width: .dword)
        a.j(.notEqual, whole)
        a.vmovq(destination, xmm(8))
        a.jmp(stored)
        a.bind(whole)
        a.vmovups(destination, xmm(8))
        a.bind(stored)
    }
}
