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
/// RELU6), where they cannot change a byte: 10 vector instructions to the clamp instead of 14. The bias is the caller's to add.
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
        let args = GeneralRegister.rdi
        a.vpbroadcastd(low, .mem(args, disp: fields.activationMin))
        a.vpbroadcastd(high, .mem(args, disp: fields.activationMax))
        a.mov(.rdx, 0xAAAA, width: .dword)
        a.kmovw(oddLanes, .rdx)
    }

    /// Loads the tables of 16-channel block `block` (plus `channelBytes`, `4 ·` a channel index,
    /// when given): 16 entries of the bias and the multipliers from `4 · channelIndex + 64 ·
    /// block` bytes into each, under `mask` with zeroing (lanes past the channels are neither
    /// read nor used); the block's `ConvRequantizer.roundingTerms` (`8 · channelBytes + 512 ·
    /// block` bytes in), and its flag (`ConvRequantizer.residualOffsetFlag`,
    /// `.clampedNegativesFlag`) into `flag`, which may be `rax`. Uses `rax`.
    static func loadTables(_ fields: RequantizationFields, channelBytes: GeneralRegister?, block: Int,
                           mask: OpmaskRegister, flag: GeneralRegister, _ a: inout Assembler) {
        func entries(_ field: Int32, scale: UInt8, disp: Int32) -> MemoryOperand {
            a.mov(.rax, .mem(.rdi, disp: field))
            return channelBytes.map { .mem(.rax, index: $0, scale: scale, disp: disp) } ?? .mem(.rax, disp: disp)
        }
        a.vmovups(bias, entries(fields.bias, scale: 1, disp: Int32(64 * block)), mask: mask, zeroing: true)
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

    /// Requantizes the 16 Int32 values in `x` (bias already added) in place, with the tables,
    /// the block's `flag` and the constants loaded.
    static func requantize(_ x: VectorRegister, flag: GeneralRegister, _ a: inout Assembler) {
        // The 64-bit products of x's odd lanes (t1) and even lanes (t0), then, unless the layer
        // clamps negatives, the negative addends where they are negative.
        a.vpshufd(t1, x, 0xF5)
        a.vpmuldq(t1, t1, oddMultiplier)
        a.vpmuldq(t0, x, multiplier)
        let positiveRounding = a.newLabel()
        a.test(flag, Int32(ConvRequantizer.clampedNegativesFlag))
        a.j(.notEqual, positiveRounding)
        a.vpmovq2m(oddSigns, t1)
        a.vpaddq(t1, t1, .register(oddNegativeAddend), mask: oddSigns)
        a.vpmovq2m(evenSigns, t0)
        a.vpaddq(t0, t0, .register(evenNegativeAddend), mask: evenSigns)
        a.bind(positiveRounding)
        // Rounded and shifted: odd results into the low half of t1's 64-bit lanes, even in place.
        a.vpaddq(t1, t1, .register(oddAddend))
        a.vpsravq(t1, t1, .register(oddShift))
        a.vpaddq(t0, t0, .register(evenAddend))
        a.vpsravq(x, t0, .register(evenShift))
        a.vpshufd(x, t1, 0xA0, mask: oddLanes)       // odd lane 2i + 1 ← t1's lane 2i
        let folded = a.newLabel()
        a.test(flag, Int32(ConvRequantizer.residualOffsetFlag))
        a.j(.equal, folded)
        a.vpaddd(x, x, .register(residualOffset))
        a.bind(folded)
        a.vpmaxsd(x, x, .register(low))
        a.vpminsd(x, x, .register(high))
    }
}
