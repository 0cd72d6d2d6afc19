import MachineCode

/// The AVX-512 requantization of generated epilogues, 16 channels per zmm, bit-exact with
/// `ConvRequantizer.requantizePortable` for requantizers without a left shift. It computes
/// the reference's two roundings (the rounding doubling high multiply, the rounding right
/// shift) as one, `ConvRequantizer.singleRounding`: per 64-bit product of the even and of the
/// odd lanes (`vpmuldq`), the channel's addend (with the output offset folded in), its
/// negative addend where the product is negative (`vpmovq2m`, a masked add), one arithmetic
/// shift (`vpsravq`); the residual offsets of channels whose offset could not be folded, only
/// in blocks that have such channels; then the clamp. Two bits of the block's flag select by a
/// branch: the residual offsets, and the negative addends, skipped in layers whose clamp takes
/// every negative result to its minimum (`ConvRequantizer.clampsNegativeResults`: RELU and
/// RELU6), where they cannot change a byte: 10 vector instructions to the clamp instead of 14.
/// The clamp and the narrowing store go together (`store`): a layer whose clamp is its 8-bit
/// type's whole range leaves it to a saturating store, one or two instructions less.
/// The bias is the caller's to add.
///
/// Registers: the per-channel tables of one 16-channel block in zmm16–25 and its flag in a
/// general register of the caller's (`loadTables`), the clamp bounds broadcast into zmm26–27
/// (`loadConstants`), temporaries zmm28–29; odd 32-bit lanes in opmask k3, the products' signs
/// in k2 and k4. Kernels using it keep their own values in zmm0–15.
enum Requantization16AVX512 {
    static let bias = zmm(16), multiplier = zmm(17), oddMultiplier = zmm(18)
    static let evenAddend = zmm(19), oddAddend = zmm(20), evenNegativeAddend = zmm(21), oddNegativeAddend = zmm(22)
    static let evenShift = zmm(23), oddShift = zmm(24)
    static let residualOffset = zmm(25), low = zmm(26), high = zmm(27)
    static let t0 = zmm(28), t1 = zmm(29)
    static let oddLanes = k(3), evenSigns = k(2), oddSigns = k(4)

    /// Broadcasts the clamp bounds from the argument block in `rdi`, and sets k3 to the odd
    /// lanes. Uses `rdx`.
    static func loadConstants(_ fields: RequantizationFields, _ a: inout Assembler) {
        loadConstants(activationMin: fields.activationMin, activationMax: fields.activationMax, &a)
    }

    /// `loadConstants` with the clamp bounds at these offsets of the argument block in `rdi`.
    static func loadConstants(activationMin: Int32, activationMax: Int32, _ a: inout Assembler) {
        let args = GeneralRegister.rdi
        a.vpbroadcastd(low, .mem(args, disp: activationMin))
        a.vpbroadcastd(high, .mem(args, disp: activationMax))
        a.mov(.rdx, 0xAAAA, width: .dword)
        a.kmovw(oddLanes, .rdx)
    }

    /// Loads the tables of 16-channel block `block` (plus `channelBytes`, `4 ·` a channel index,
    /// when given): 16 entries of the bias (unless `withBias` is false: kernels whose sums start
    /// from it) and the multipliers from `4 · channelIndex + 64 · block` bytes into each, under
    /// `mask` with zeroing (lanes past the channels are neither read nor used); the block's
    /// `ConvRequantizer.roundingTerms` (`8 · channelBytes + 512 · block` bytes in), and its flag
    /// (`ConvRequantizer.residualOffsetFlag`, `.clampedNegativesFlag`) into `flag`, which may be
    /// `rax`. Uses `rax`.
    static func loadTables(_ fields: RequantizationFields, channelBytes: GeneralRegister?, block: Int,
                           mask: OpmaskRegister, flag: GeneralRegister, withBias: Bool = true, _ a: inout Assembler) {
        func entries(_ field: Int32, scale: UInt8, disp: Int32) -> MemoryOperand {
            a.mov(.rax, .mem(.rdi, disp: field))
            return channelBytes.map { .mem(.rax, index: $0, scale: scale, disp: disp) } ?? .mem(.rax, disp: disp)
        }
        if withBias { a.vmovups(bias, entries(fields.bias, scale: 1, disp: Int32(64 * block)), mask: mask, zeroing: true) }
        a.vmovups(multiplier, entries(fields.multipliers, scale: 1, disp: Int32(64 * block)), mask: mask, zeroing: true)
        a.vpsrlq(oddMultiplier, multiplier, 32)
        typealias Block = ConvRequantizer
        let terms = entries(fields.roundingTerms, scale: 8, disp: Int32(Block.roundingBlockBytes * block))
        /// `terms`, `bytes` further into the block.
        func part(_ bytes: Int) -> MemoryOperand {
            var operand = terms
            operand.displacement += Int32(bytes)
            return operand
        }
        let rows = [(evenAddend, 0), (oddAddend, 64), (evenNegativeAddend, Block.negativeAddendBytes),
                    (oddNegativeAddend, Block.negativeAddendBytes + 64), (evenShift, Block.shiftBytes),
                    (oddShift, Block.shiftBytes + 64), (residualOffset, Block.residualOffsetBytes)]
        for (v, bytes) in rows { a.vmovups(v, part(bytes)) }
        a.mov(flag, part(Block.residualFlagBytes))
    }

    /// The registers of one single rounding (`ConvRequantizer.singleRounding`): the terms of the
    /// even and of the odd 32-bit lanes (the multipliers in the low half of each 64-bit lane),
    /// and two temporaries.
    struct Rounding {
        var multiplier, oddMultiplier, evenAddend, oddAddend: VectorRegister
        var evenNegativeAddend, oddNegativeAddend, evenShift, oddShift: VectorRegister
        var t0, t1: VectorRegister
    }

    /// The per-channel tables `loadTables` fills.
    static let tables = Rounding(multiplier: multiplier, oddMultiplier: oddMultiplier, evenAddend: evenAddend,
                                 oddAddend: oddAddend, evenNegativeAddend: evenNegativeAddend,
                                 oddNegativeAddend: oddNegativeAddend, evenShift: evenShift, oddShift: oddShift, t0: t0, t1: t1)

    /// Requantizes the 16 Int32 values in `x` (bias already added) in place, with the tables,
    /// the block's `flag` and the constants loaded, up to the clamp, which
    /// `store(_:to:mask:flag:_:)` applies with the store.
    static func requantize(_ x: VectorRegister, flag: GeneralRegister, _ a: inout Assembler) {
        requantize(x, tables, residualOffset: residualOffset, flag: flag, clamps: false, &a)
    }

    /// Clamps the 16 values `requantize(_:flag:_:)` left in `x` and stores them as
    /// bytes at `destination` (lanes of `mask`): a layer whose clamp is its type's whole range
    /// (`ConvRequantizer.typeRangeClampFlag`) by saturating narrowing alone (`vpmovsdb`, or
    /// `vpmaxsd` with the minimum 0 then `vpmovusdb`), any other by `vpmaxsd`, `vpminsd` and
    /// the truncating `vpmovdb`. Needs `loadConstants`.
    static func store(_ x: VectorRegister, to destination: MemoryOperand, mask: OpmaskRegister, flag: GeneralRegister,
                      _ a: inout Assembler) {
        let clamped = a.newLabel(), unsigned = a.newLabel(), stored = a.newLabel()
        a.test(flag, Int32(ConvRequantizer.typeRangeClampFlag))
        a.j(.equal, clamped)
        a.test(flag, Int32(ConvRequantizer.int8RangeFlag))
        a.j(.equal, unsigned)
        a.vpmovsdb(destination, x, mask: mask)
        a.jmp(stored)
        a.bind(unsigned)
        a.vpmaxsd(x, x, .register(low))
        a.vpmovusdb(destination, x, mask: mask)
        a.jmp(stored)
        a.bind(clamped)
        a.vpmaxsd(x, x, .register(low))
        a.vpminsd(x, x, .register(high))
        a.vpmovdb(destination, x, mask: mask)
        a.bind(stored)
    }

    /// Requantizes `x` in place with the terms in `r`: the rounding, the residual offsets where
    /// `flag` has `ConvRequantizer.residualOffsetFlag`, the clamp to `low ... high` (zmm26–27)
    /// unless `clamps` is false.
    static func requantize(_ x: VectorRegister, _ r: Rounding, residualOffset: VectorRegister, flag: GeneralRegister,
                           clamps: Bool = true, _ a: inout Assembler) {
        round(x, r, negativeAddendsUnless: flag, &a)
        let folded = a.newLabel()
        a.test(flag, Int32(ConvRequantizer.residualOffsetFlag))
        a.j(.equal, folded)
        a.vpaddd(x, x, .register(residualOffset))
        a.bind(folded)
        guard clamps else { return }
        a.vpmaxsd(x, x, .register(low))
        a.vpminsd(x, x, .register(high))
    }

    /// `x` in place, each lane `ConvRequantizer.singleRounding` of itself with the terms in `r`:
    /// the 64-bit products of the odd lanes (`t1`) and of the even lanes (`t0`), the negative
    /// addends where a product is negative (skipped when `flag` has
    /// `ConvRequantizer.clampedNegativesFlag`; never when `flag` is nil), the addends, the shifts,
    /// the odd results merged back (opmask k3 must hold the odd lanes; uses k2 and k4).
    static func round(_ x: VectorRegister, _ r: Rounding, negativeAddendsUnless flag: GeneralRegister?,
                      _ a: inout Assembler) {
        a.vpshufd(r.t1, x, 0xF5)
        a.vpmuldq(r.t1, r.t1, r.oddMultiplier)
        a.vpmuldq(r.t0, x, r.multiplier)
        let positiveRounding = a.newLabel()
        if let flag {
            a.test(flag, Int32(ConvRequantizer.clampedNegativesFlag))
            a.j(.notEqual, positiveRounding)
        }
        a.vpmovq2m(oddSigns, r.t1)
        a.vpaddq(r.t1, r.t1, .register(r.oddNegativeAddend), mask: oddSigns)
        a.vpmovq2m(evenSigns, r.t0)
        a.vpaddq(r.t0, r.t0, .register(r.evenNegativeAddend), mask: evenSigns)
        a.bind(positiveRounding)
        // Rounded and shifted: odd results into the low half of t1's 64-bit lanes, even in place.
        a.vpaddq(r.t1, r.t1, .register(r.oddAddend))
        a.vpsravq(r.t1, r.t1, .register(r.oddShift))
        a.vpaddq(r.t0, r.t0, .register(r.evenAddend))
        a.vpsravq(x, r.t0, .register(r.evenShift))
        a.vpshufd(x, r.t1, 0xA0, mask: oddLanes)       // odd lane 2i + 1 ← t1's lane 2i
    }
}

extension Requantization16AVX512.Rounding {
    /// Per-tensor terms: one register each serves the even and the odd lanes.
    init(multiplier: VectorRegister, addend: VectorRegister, negativeAddend: VectorRegister, shift: VectorRegister,
         temporaries: (VectorRegister, VectorRegister)) {
        self.init(multiplier: multiplier, oddMultiplier: multiplier, evenAddend: addend, oddAddend: addend,
                  evenNegativeAddend: negativeAddend, oddNegativeAddend: negativeAddend, evenShift: shift,
                  oddShift: shift, t0: temporaries.0, t1: temporaries.1)
    }
}
