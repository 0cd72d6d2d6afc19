import MachineCode

/// Where a generated requantizing epilogue finds its parameters: byte offsets of fields in the
/// argument block its function receives in `rdi`. The four tables are pointers to per-channel
/// `Int32` arrays (`ConvRequantizer`'s, and the bias), `roundingTerms` a pointer to
/// `ConvRequantizer.roundingTerms(atChannel:)` (read by the AVX-512 form only), `nudge` a
/// `UInt64` 2^30 (the AVX2 form's), the last three `Int32` scalars.
struct RequantizationFields {
    var bias, multipliers, rightShifts, remainderMasks, roundingTerms, nudge: Int32
    var outputOffset, activationMin, activationMax: Int32
}

/// The AVX2 requantization of generated epilogues, bit-exact with
/// `ConvRequantizer.requantizePortable` for requantizers without a left shift: bias, the
/// rounding doubling high multiply, the rounding right shift, the output offset, the clamp; and
/// the narrowing store of 16 results as bytes.
enum Requantization16AVX2 {
    /// Requantizes the 8 Int32 sums in `x` in place: channels `8·half ..< 8·half + 8` counted
    /// from the tables' start, plus `channelOffset` bytes (`4 ·` the first channel) when given.
    /// Uses `rax` and ymm8–ymm15.
    static func requantize(_ x: VectorRegister, half: Int, fields: RequantizationFields,
                           channelOffset: GeneralRegister?, _ a: inout Assembler) {
        let args = GeneralRegister.rdi
        let lanes = Int32(32 * half)
        /// The 8 entries of a per-channel table at this half.
        func table(_ field: Int32) -> MemoryOperand {
            a.mov(.rax, .mem(args, disp: field))
            if let channelOffset { return .mem(.rax, index: channelOffset, scale: 1, disp: lanes) }
            return .mem(.rax, disp: lanes)
        }
        a.vpaddd(x, x, .memory(table(fields.bias)))
        a.vmovups(ymm(8), table(fields.multipliers))                      // m
        a.vpmuludq(ymm(9), x, ymm(8))                                     // even products
        a.vpsrlq(ymm(10), x, 32)
        a.vpsrlq(ymm(11), ymm(8), 32)
        a.vpmuludq(ymm(10), ymm(10), ymm(11))                             // odd products
        a.vpbroadcastq(ymm(11), .mem(args, disp: fields.nudge))           // 2^30 per 64-bit lane
        a.vpaddq(ymm(9), ymm(9), ymm(11))
        a.vpaddq(ymm(10), ymm(10), ymm(11))
        a.vpsrlq(ymm(9), ymm(9), 31)                                      // even: (p + 2^30) >> 31, low half
        a.vpsllq(ymm(10), ymm(10), 1)                                     // odd: same bits, high half
        a.vpsrad(ymm(12), x, 31)
        a.vpaddd(ymm(8), ymm(8), ymm(8))                                  // 2m
        a.vpand(ymm(12), ymm(12), ymm(8))                                 // 2m where x < 0
        a.vpblendd(x, ymm(9), ymm(10), 0xAA)
        a.vpsubd(x, x, ymm(12))                                           // signed high multiply
        a.vmovups(ymm(11), table(fields.remainderMasks))
        a.vpand(ymm(12), x, ymm(11))                                      // remainder
        a.vpsrad(ymm(13), ymm(11), 1)
        a.vpsrad(ymm(14), x, 31)
        a.vpsubd(ymm(13), ymm(13), ymm(14))                               // threshold
        a.vpsravd(x, x, .memory(table(fields.rightShifts)))
        a.vpcmpgtd(ymm(12), ymm(12), ymm(13))
        a.vpsubd(x, x, ymm(12))                                           // round half away from zero
        a.vpbroadcastd(ymm(15), .mem(args, disp: fields.outputOffset))
        a.vpaddd(x, x, ymm(15))
        a.vpbroadcastd(ymm(15), .mem(args, disp: fields.activationMin))
        a.vpmaxsd(x, x, .register(ymm(15)))
        a.vpbroadcastd(ymm(15), .mem(args, disp: fields.activationMax))
        a.vpminsd(x, x, .register(ymm(15)))
    }

    /// Stores the 16 clamped results in `low` (channels 0–7) and `high` (8–15) as bytes at
    /// `destination`, saturating signed or unsigned (the values are in range already).
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
