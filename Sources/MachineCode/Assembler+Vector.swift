/// Vector instructions in the VEX (AVX, AVX2, FMA3, AVX-VNNI) and EVEX (AVX-512 F/BW/VL,
/// AVX512-VNNI) encodings. Each method encodes VEX when it can and EVEX when it must (see
/// `Assembler`); operand order is Intel's, destination first.
extension Assembler {
    /// The opcode map (VEX `mmmmm`, EVEX `mmm`).
    enum OpcodeMap: UInt8 { case map0F = 1, map0F38 = 2, map0F3A = 3 }
    /// The implied legacy prefix (`pp`).
    enum ImpliedPrefix: UInt8 { case none = 0, p66 = 1, pF3 = 2, pF2 = 3 }

    /// A vector instruction's second source: a register or memory.
    public enum VectorSource: Sendable {
        case register(VectorRegister)
        case memory(MemoryOperand)
    }

    /// Emits `opcode /r` with `reg` in ModRM.reg, `vvvv` the extra source (0 when unused) and
    /// `rm`. `elementBytes` is the element size an embedded broadcast reads; `scalarMemory`
    /// marks instructions whose memory operand is one element (EVEX Tuple1 Scalar), `memoryBytes`
    /// overrides the disp8 scale of full-vector memory (narrowing stores). `evexW` sets W only in
    /// the EVEX form (64-bit-lane instructions whose VEX form ignores W); `evexOnly` marks
    /// instructions that have no VEX form.
    mutating func vectorInstruction(_ opcode: UInt8, map: OpcodeMap, prefix: ImpliedPrefix, w: Bool = false,
                                    evexW: Bool = false, evexOnly: Bool = false, width: VectorRegister.Width, reg: UInt8, vvvv: UInt8,
                                    _ rm: RegisterOrMemory, mask: OpmaskRegister? = nil, zeroing: Bool = false,
                                    elementBytes: Int = 4, scalarMemory: Bool = false, memoryBytes: Int? = nil) {
        var broadcast = false
        var rmHigh = false
        switch rm {
        case .register(let r): rmHigh = r >= 16
        case .memory(let m): broadcast = m.broadcast
        case .vectorIndexed: break
        }
        let needsEVEX = evexOnly || prefersEVEX || width == .zmm || reg >= 16 || vvvv >= 16 || rmHigh
            || (mask.map { $0.index != 0 } ?? false) || broadcast || zeroing
        let lengthBits: UInt8 = width == .xmm ? 0 : width == .ymm ? 1 : 2
        let rBar: UInt8 = reg & 8 == 0 ? 1 : 0
        let xBar: UInt8 = rm.xBit ? 0 : 1
        let bBar: UInt8 = rm.bBit ? 0 : 1
        let vBar = ~vvvv & 15
        if needsEVEX {
            let rPrimeBar: UInt8 = reg & 16 == 0 ? 1 : 0
            let vPrimeBar: UInt8 = vvvv & 16 == 0 ? 1 : 0
            emit(0x62)
            emit(rBar << 7 | xBar << 6 | bBar << 5 | rPrimeBar << 4 | map.rawValue)
            emit((w || evexW ? 0x80 : 0) | vBar << 3 | 0x04 | prefix.rawValue)
            emit((zeroing ? 0x80 : 0) | lengthBits << 5 | (broadcast ? 0x10 : 0) | vPrimeBar << 3 | (mask?.index ?? 0))
            emit(opcode)
            emitModRM(reg: reg, rm, disp8Scale: broadcast || scalarMemory ? elementBytes : memoryBytes ?? width.bytes)
        } else if xBar == 1 && bBar == 1 && !w && map == .map0F {
            emit(0xC5)
            emit(rBar << 7 | vBar << 3 | lengthBits << 2 | prefix.rawValue)
            emit(opcode)
            emitModRM(reg: reg, rm)
        } else {
            emit(0xC4)
            emit(rBar << 7 | xBar << 6 | bBar << 5 | map.rawValue)
            emit((w ? 0x80 : 0) | vBar << 3 | lengthBits << 2 | prefix.rawValue)
            emit(opcode)
            emitModRM(reg: reg, rm)
        }
    }

    private static func operand(_ source: VectorSource) -> RegisterOrMemory {
        switch source {
        case .register(let r): .register(r.index)
        case .memory(let m): .memory(m)
        }
    }

    /// A three-operand instruction `op dst, src1, src2`.
    private mutating func threeOperand(_ opcode: UInt8, map: OpcodeMap, prefix: ImpliedPrefix, w: Bool = false,
                                       _ dst: VectorRegister, _ src1: VectorRegister, _ src2: VectorSource,
                                       mask: OpmaskRegister? = nil, zeroing: Bool = false) {
        vectorInstruction(opcode, map: map, prefix: prefix, w: w, width: dst.width, reg: dst.index, vvvv: src1.index,
                          Self.operand(src2), mask: mask, zeroing: zeroing)
    }

    // MARK: Moves and broadcasts

    /// `vmovups dst, [src]` (any 32-bit data; unaligned).
    public mutating func vmovups(_ dst: VectorRegister, _ src: MemoryOperand, mask: OpmaskRegister? = nil, zeroing: Bool = false) {
        vectorInstruction(0x10, map: .map0F, prefix: .none, width: dst.width, reg: dst.index, vvvv: 0, .memory(src),
                          mask: mask, zeroing: zeroing)
    }

    /// `vmovups [dst], src`; with `mask`, only the selected lanes are written.
    public mutating func vmovups(_ dst: MemoryOperand, _ src: VectorRegister, mask: OpmaskRegister? = nil) {
        vectorInstruction(0x11, map: .map0F, prefix: .none, width: src.width, reg: src.index, vvvv: 0, .memory(dst), mask: mask)
    }

    /// `vmovaps dst, src` between registers (the store form `29 /r` when that keeps the
    /// two-byte VEX prefix, as assemblers do).
    public mutating func vmovaps(_ dst: VectorRegister, _ src: VectorRegister) {
        if src.index & 8 != 0 && dst.index < 8 {
            vectorInstruction(0x29, map: .map0F, prefix: .none, width: dst.width, reg: src.index, vvvv: 0, .register(dst.index))
        } else {
            vectorInstruction(0x28, map: .map0F, prefix: .none, width: dst.width, reg: dst.index, vvvv: 0, .register(src.index))
        }
    }

    /// `vbroadcastss dst, [src]`: one float to every lane.
    public mutating func vbroadcastss(_ dst: VectorRegister, _ src: MemoryOperand) {
        vectorInstruction(0x18, map: .map0F38, prefix: .p66, width: dst.width, reg: dst.index, vvvv: 0, .memory(src),
                          scalarMemory: true)
    }

    /// `vpbroadcastd dst, [src]`: one 32-bit word to every lane.
    public mutating func vpbroadcastd(_ dst: VectorRegister, _ src: MemoryOperand) {
        vectorInstruction(0x58, map: .map0F38, prefix: .p66, width: dst.width, reg: dst.index, vvvv: 0, .memory(src),
                          scalarMemory: true)
    }

    /// `vmovq [dst], src`: stores the low 64 bits of an xmm register (VEX, registers 0–15).
    public mutating func vmovq(_ dst: MemoryOperand, _ src: VectorRegister) {
        precondition(src.index < 16 && src.width == .xmm, "vmovq stores an xmm register (VEX form)")
        let saved = prefersEVEX
        prefersEVEX = false
        vectorInstruction(0xD6, map: .map0F, prefix: .p66, width: .xmm, reg: src.index, vvvv: 0, .memory(dst))
        prefersEVEX = saved
    }

    /// `vmaskmovps [dst], mask, src` (AVX): stores the lanes whose mask sign bit is set.
    public mutating func vmaskmovps(_ dst: MemoryOperand, _ mask: VectorRegister, _ src: VectorRegister) {
        precondition(src.index < 16 && mask.index < 16 && src.width != .zmm, "vmaskmovps is VEX-only")
        let saved = prefersEVEX
        prefersEVEX = false
        vectorInstruction(0x2E, map: .map0F38, prefix: .p66, width: src.width, reg: src.index, vvvv: mask.index, .memory(dst))
        prefersEVEX = saved
    }

    // MARK: Float arithmetic

    /// `vfmadd231ps dst, a, b`: `dst = a · b + dst`, one rounding (FMA3 / AVX-512F).
    /// With `mask` (EVEX), only the selected lanes of `dst` change, and masked-off lanes of a
    /// memory `b` are never read.
    public mutating func vfmadd231ps(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource,
                                     mask: OpmaskRegister? = nil) {
        threeOperand(0xB8, map: .map0F38, prefix: .p66, dst, a, b, mask: mask)
    }

    /// `vaddps dst, a, b`.
    public mutating func vaddps(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) {
        threeOperand(0x58, map: .map0F, prefix: .none, dst, a, b)
    }

    /// `vsubps dst, a, b`: `a − b` per lane.
    public mutating func vsubps(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) {
        threeOperand(0x5C, map: .map0F, prefix: .none, dst, a, b)
    }

    /// `vmulps dst, a, b`; with `mask` (EVEX), only the selected lanes are computed (the others
    /// are zeroed with `zeroing`, else kept), and masked-off lanes of a memory `b` are never read.
    public mutating func vmulps(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource,
                                mask: OpmaskRegister? = nil, zeroing: Bool = false) {
        threeOperand(0x59, map: .map0F, prefix: .none, dst, a, b, mask: mask, zeroing: zeroing)
    }

    /// `vmaxps dst, a, b`: per lane `a > b ? a : b` (so `b` when either is NaN).
    public mutating func vmaxps(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) {
        threeOperand(0x5F, map: .map0F, prefix: .none, dst, a, b)
    }

    /// `vminps dst, a, b`: per lane `a < b ? a : b` (so `b` when either is NaN).
    public mutating func vminps(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) {
        threeOperand(0x5D, map: .map0F, prefix: .none, dst, a, b)
    }

    /// `vdivps dst, a, b`: `a / b` per lane, correctly rounded.
    public mutating func vdivps(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) {
        threeOperand(0x5E, map: .map0F, prefix: .none, dst, a, b)
    }

    /// `vxorps dst, a, b` (`vxorps x, x, x` zeroes `x`).
    public mutating func vxorps(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) {
        threeOperand(0x57, map: .map0F, prefix: .none, dst, a, b)
    }

    /// `vcvtdq2ps dst, src`: Int32 lanes to floats (exact below 2^24 in magnitude).
    public mutating func vcvtdq2ps(_ dst: VectorRegister, _ src: VectorRegister) {
        vectorInstruction(0x5B, map: .map0F, prefix: .none, width: dst.width, reg: dst.index, vvvv: 0, .register(src.index))
    }

    /// `vcvttps2dq dst, src`: floats to Int32, truncating toward zero.
    public mutating func vcvttps2dq(_ dst: VectorRegister, _ src: VectorSource) {
        let rm: RegisterOrMemory
        switch src {
        case .register(let r): rm = .register(r.index)
        case .memory(let m): rm = .memory(m)
        }
        vectorInstruction(0x5B, map: .map0F, prefix: .pF3, width: dst.width, reg: dst.index, vvvv: 0, rm)
    }

    // MARK: Integer arithmetic

    /// `vpaddd dst, a, b`: 32-bit lane sums.
    public mutating func vpaddd(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) {
        threeOperand(0xFE, map: .map0F, prefix: .p66, dst, a, b)
    }

    /// `vpaddw dst, a, b`: 16-bit lane sums, wrapping.
    public mutating func vpaddw(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) {
        threeOperand(0xFD, map: .map0F, prefix: .p66, dst, a, b)
    }

    /// `vpmaddwd dst, a, b`: each 32-bit lane gets the sum of its two signed 16-bit products.
    public mutating func vpmaddwd(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) {
        threeOperand(0xF5, map: .map0F, prefix: .p66, dst, a, b)
    }

    /// `vpdpwssd dst, a, b` (AVX-VNNI as VEX, AVX512-VNNI as EVEX): `dst +=` the two signed
    /// 16-bit products of each 32-bit lane.
    public mutating func vpdpwssd(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) {
        threeOperand(0x52, map: .map0F38, prefix: .p66, dst, a, b)
    }

    /// `vpdpbusd dst, a, b` (AVX-VNNI as VEX, AVX512-VNNI as EVEX): `dst +=` the four products of
    /// unsigned bytes of `a` and signed bytes of `b` in each 32-bit lane.
    public mutating func vpdpbusd(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) {
        threeOperand(0x50, map: .map0F38, prefix: .p66, dst, a, b)
    }

    /// `vpxor dst, a, b` (`vpxord` as EVEX).
    public mutating func vpxor(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) {
        threeOperand(0xEF, map: .map0F, prefix: .p66, dst, a, b)
    }

    // MARK: Comparisons and blends

    /// A `vcmpps` predicate (imm8): quiet comparisons, so NaN never raises an exception.
    public enum FloatComparison: UInt8, Sendable {
        /// Either is NaN: UNORD_Q (`vcmpps x, a, a, .unordered` finds a's NaN lanes).
        case unordered = 0x03
        /// `a < b` (false when either is NaN): LT_OQ.
        case less = 0x11
        /// `a ≤ b` (false when either is NaN): LE_OQ.
        case lessOrEqual = 0x12
        /// `a > b` (false when either is NaN): GT_OQ.
        case greater = 0x1E
        /// `!(a > b)`: `a ≤ b` or either is NaN (NGT_UQ).
        case notGreater = 0x1A
        /// `a ≥ b` (false when either is NaN): GE_OQ.
        case greaterOrEqual = 0x1D
        /// `!(a ≥ b)`: `a < b` or either is NaN (NGE_UQ).
        case notGreaterOrEqual = 0x19
    }

    /// `vcmpps dst, a, b, predicate` (VEX; registers below 16, xmm or ymm): all ones in the
    /// lanes where the comparison holds, else zero.
    public mutating func vcmpps(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource, _ predicate: FloatComparison) {
        precondition(dst.width != .zmm && dst.index < 16 && a.index < 16 && !prefersEVEX, "vcmpps to a vector: the VEX form")
        threeOperand(0xC2, map: .map0F, prefix: .none, dst, a, b)
        emit(predicate.rawValue)
    }

    /// `vcmpps k, a, b, predicate` (EVEX): opmask bit `i` set where the comparison holds in lane
    /// `i`, the bits above the lanes cleared.
    public mutating func vcmpps(_ dst: OpmaskRegister, _ a: VectorRegister, _ b: VectorSource, _ predicate: FloatComparison) {
        vectorInstruction(0xC2, map: .map0F, prefix: .none, evexOnly: true, width: a.width, reg: dst.index, vvvv: a.index,
                          Self.operand(b))
        emit(predicate.rawValue)
    }

    /// `vblendvps dst, a, b, selector` (AVX, VEX; registers below 16): lane `i` from `b` where
    /// the sign bit of `selector`'s lane `i` is set, else from `a`.
    public mutating func vblendvps(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorRegister, _ selector: VectorRegister) {
        precondition(dst.width != .zmm && [dst, a, b, selector].allSatisfy { $0.index < 16 } && !prefersEVEX,
                     "vblendvps is VEX-only")
        threeOperand(0x4A, map: .map0F3A, prefix: .p66, dst, a, .register(b))
        emit(UInt8(selector.index) << 4)
    }

    /// `vmovmskps r32, src` (VEX): bit `i` of `dst` is the sign bit of float lane `i`, the other
    /// bits cleared.
    public mutating func vmovmskps(_ dst: GeneralRegister, _ src: VectorRegister) {
        precondition(src.width != .zmm && src.index < 16 && !prefersEVEX, "vmovmskps is VEX-only")
        vectorInstruction(0x50, map: .map0F, prefix: .none, width: src.width, reg: dst.index, vvvv: 0, .register(src.index))
    }

    // MARK: State and masks

    /// `vzeroupper`: clears the upper halves of ymm0–15 (avoids SSE transition stalls after AVX code).
    public mutating func vzeroupper() { emit([0xC5, 0xF8, 0x77]) }

    /// `kortestw a, b`: ZF set when `a | b` has none of its low 16 bits set (CF when all are).
    public mutating func kortestw(_ a: OpmaskRegister, _ b: OpmaskRegister) {
        emit([0xC5, 0xF8, 0x98])
        emit(0xC0 | a.index << 3 | b.index)
    }

    /// `kmovw k, r32`: the low 16 bits of `src` become opmask `dst`.
    public mutating func kmovw(_ dst: OpmaskRegister, _ src: GeneralRegister) {
        if src.isExtended {
            emit([0xC4, 0xC1, 0x78])
        } else {
            emit([0xC5, 0xF8])
        }
        emit(0x92)
        emit(0xC0 | dst.index << 3 | src.low)
    }
}

extension Assembler.VectorSource {
    /// `[base + disp]` as a vector source.
    public static func mem(_ base: GeneralRegister, disp: Int32 = 0) -> Self { .memory(.mem(base, disp: disp)) }
    /// `[base + disp]{1toN}` as a vector source (EVEX embedded broadcast).
    public static func broadcast(_ base: GeneralRegister, disp: Int32 = 0) -> Self { .memory(.broadcast(base, disp: disp)) }
}

/// Register-only forms of the three-operand instructions (`a.vpaddd(ymm(0), ymm(0), ymm(1))`).
extension Assembler {
    public mutating func vfmadd231ps(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vfmadd231ps(d, a, .register(b)) }
    public mutating func vaddps(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vaddps(d, a, .register(b)) }
    public mutating func vmulps(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vmulps(d, a, .register(b)) }
    public mutating func vsubps(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vsubps(d, a, .register(b)) }
    public mutating func vmaxps(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vmaxps(d, a, .register(b)) }
    public mutating func vminps(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vminps(d, a, .register(b)) }
    public mutating func vxorps(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vxorps(d, a, .register(b)) }
    public mutating func vdivps(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vdivps(d, a, .register(b)) }
    public mutating func vpaddd(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vpaddd(d, a, .register(b)) }
    public mutating func vpmaddwd(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vpmaddwd(d, a, .register(b)) }
    public mutating func vpaddw(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vpaddw(d, a, .register(b)) }
    public mutating func vpdpwssd(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vpdpwssd(d, a, .register(b)) }
    public mutating func vpdpbusd(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vpdpbusd(d, a, .register(b)) }
    public mutating func vpxor(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vpxor(d, a, .register(b)) }
}
