import MachineCode

/// The AVX-512 requantization of generated epilogues, 16 channels per zmm, bit-exact with
/// `ConvRequantizer.requantizePortable` for requantizers without a left shift: the rounding
/// doubling high multiply (even and odd lanes through `vpmuldq`), the rounding right shift
/// (half away from zero), the output offset and the clamp. The bias is the caller's to add.
///
/// Registers: the per-channel tables of one 16-channel block in zmm16–21 (`loadTables`),
/// scalars broadcast into zmm22–25 (`loadConstants`), temporaries zmm26–27, odd 32-bit lanes in
/// opmask k3. Kernels using it keep their own values in zmm0–15.
enum Requantization16AVX512 {
    static let bias = zmm(16), multiplier = zmm(17), oddMultiplier = zmm(18), remainderMask = zmm(19)
    static let halfMask = zmm(20), shift = zmm(21)
    static let nudge = zmm(22), outputOffset = zmm(23), low = zmm(24), high = zmm(25)
    static let t0 = zmm(26), t1 = zmm(27)
    static let oddLanes = k(3)

    /// Broadcasts the nudge, offset and clamp bounds from the argument block in `rdi`, and sets
    /// k3 to the odd lanes. Uses `rdx`.
    static func loadConstants(_ fields: RequantizationFields, _ a: inout Assembler) {
        let args = GeneralRegister.rdi
        a.vpbroadcastq(nudge, .mem(args, disp: fields.nudge))
        a.vpbroadcastd(outputOffset, .mem(args, disp: fields.outputOffset))
        a.vpbroadcastd(low, .mem(args, disp: fields.activationMin))
        a.vpbroadcastd(high, .mem(args, disp: fields.activationMax))
        a.mov(.rdx, 0xAAAA, width: .dword)
        a.kmovw(oddLanes, .rdx)
    }

    /// Loads 16 entries of the bias and the requantizer's tables, from `4 · channelIndex`
    /// bytes (a register, when given) plus `disp` into each table, under `mask` with zeroing
    /// (lanes past the channels are neither read nor used). Uses `rax`.
    static func loadTables(_ fields: RequantizationFields, channelBytes: GeneralRegister?, disp: Int32,
                           mask: OpmaskRegister, _ a: inout Assembler) {
        func load(_ v: VectorRegister, _ field: Int32) {
            a.mov(.rax, .mem(.rdi, disp: field))
            let entries: MemoryOperand = channelBytes.map { .mem(.rax, index: $0, scale: 1, disp: disp) } ?? .mem(.rax, disp: disp)
            a.vmovups(v, entries, mask: mask, zeroing: true)
        }
        load(bias, fields.bias)
        load(multiplier, fields.multipliers)
        load(remainderMask, fields.remainderMasks)
        load(shift, fields.rightShifts)
        a.vpsrlq(oddMultiplier, multiplier, 32)
        a.vpsrad(halfMask, remainderMask, 1)
    }

    /// Requantizes the 16 Int32 values in `x` (bias already added) in place, with the tables and
    /// constants loaded.
    static func requantize(_ x: VectorRegister, _ a: inout Assembler) {
        // Rounding doubling high multiply: bits 31…62 of x·m + 2^30, even and odd lanes.
        a.vpmuldq(t0, x, multiplier)
        a.vpaddq(t0, t0, .register(nudge))
        a.vpsrlq(t0, t0, 31)
        a.vpsrlq(t1, x, 32)
        a.vpmuldq(t1, t1, oddMultiplier)
        a.vpaddq(t1, t1, .register(nudge))
        a.vpsllq(t1, t1, 1)
        a.vpblendmd(x, t0, t1, mask: oddLanes)
        // Rounding right shift, half away from zero: +1 where remainder > mask/2 + (x < 0);
        // both lie in [0, 2^30], so (threshold − remainder)'s sign is the increment.
        a.vpand(t0, x, remainderMask)
        a.vpsrad(t1, x, 31)
        a.vpsubd(t1, halfMask, .register(t1))         // threshold
        a.vpsravd(x, x, .register(shift))
        a.vpsubd(t1, t1, .register(t0))
        a.vpsrad(t1, t1, 31)
        a.vpsubd(x, x, .register(t1))
        a.vpaddd(x, x, .register(outputOffset))
        a.vpmaxsd(x, x, .register(low))
        a.vpminsd(x, x, .register(high))
    }
}
