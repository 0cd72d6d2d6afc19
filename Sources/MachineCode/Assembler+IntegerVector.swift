/// Integer vector instructions of the requantizing epilogues (AVX2 VEX forms; EVEX where a
/// register or width needs it): 64-bit products, shifts, compares, clamps and narrowing packs.
extension Assembler {
    /// A shift-by-immediate `op dst, src, imm` (`66 0F 7x /digit ib`; the destination in vvvv).
    private mutating func shiftImmediate(_ opcode: UInt8, digit: UInt8, evexW: Bool = false, _ dst: VectorRegister,
                                         _ src: VectorRegister, _ count: UInt8) {
        vectorInstruction(opcode, map: .map0F, prefix: .p66, evexW: evexW, width: dst.width, reg: digit, vvvv: dst.index,
                          .register(src.index))
        emit(count)
    }

    /// A three-operand integer instruction in map 0F or 0F38 with prefix 66 (`evexW` for 64-bit lanes).
    private mutating func integerOp(_ opcode: UInt8, map: OpcodeMap = .map0F, evexW: Bool = false, _ dst: VectorRegister,
                                    _ a: VectorRegister, _ b: VectorSource) {
        vectorInstruction(opcode, map: map, prefix: .p66, evexW: evexW, width: dst.width, reg: dst.index, vvvv: a.index,
                          Self.registerOrMemory(b))
    }

    private static func registerOrMemory(_ source: VectorSource) -> RegisterOrMemory {
        switch source {
        case .register(let r): .register(r.index)
        case .memory(let m): .memory(m)
        }
    }

    /// `vpmuludq dst, a, b`: unsigned products of the even 32-bit lanes, as 64-bit lanes.
    public mutating func vpmuludq(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) {
        integerOp(0xF4, evexW: true, dst, a, b)
    }
    /// `vpmuldq dst, a, b`: signed products of the even 32-bit lanes, as 64-bit lanes.
    public mutating func vpmuldq(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) {
        integerOp(0x28, map: .map0F38, evexW: true, dst, a, b)
    }
    /// `vpaddq dst{mask}, a, b`: 64-bit lane sums; with `mask` (EVEX), lanes whose mask bit is
    /// clear keep `dst`'s value.
    public mutating func vpaddq(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource, mask: OpmaskRegister? = nil) {
        vectorInstruction(0xD4, map: .map0F, prefix: .p66, evexW: true, width: dst.width, reg: dst.index, vvvv: a.index,
                          Self.registerOrMemory(b), mask: mask)
    }
    /// `vpsubd dst, a, b`: 32-bit lane differences.
    public mutating func vpsubd(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) { integerOp(0xFA, dst, a, b) }
    /// `vpand dst, a, b` (`vpandd` as EVEX).
    public mutating func vpand(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) { integerOp(0xDB, dst, a, b) }
    /// `vpor dst, a, b` (`vpord` as EVEX).
    public mutating func vpor(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) { integerOp(0xEB, dst, a, b) }
    /// `vpsubb dst, a, b`: wrapping byte differences.
    public mutating func vpsubb(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) { integerOp(0xF8, dst, a, b) }
    /// `vpaddusb dst, a, b`: unsigned byte sums saturated at 255.
    public mutating func vpaddusb(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) { integerOp(0xDC, dst, a, b) }
    /// `vpsadbw dst, a, b` (AVX2; AVX512-BW for zmm): each 64-bit lane of `dst` the sum of the
    /// absolute differences of the eight unsigned bytes of `a` and `b` in it (with `b` zero: their sum).
    public mutating func vpsadbw(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) { integerOp(0xF6, dst, a, b) }
    /// `vpshufb dst, table, indices`: byte `i` becomes byte `indices[i] & 15` of `table`'s 16-byte
    /// lane holding `i`, or zero where `indices[i]` has its top bit set.
    public mutating func vpshufb(_ dst: VectorRegister, _ table: VectorRegister, _ indices: VectorSource) {
        integerOp(0x00, map: .map0F38, dst, table, indices)
    }
    /// `vpcmpgtd dst, a, b`: all ones where `a > b` (signed 32-bit), else zero.
    public mutating func vpcmpgtd(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) { integerOp(0x66, dst, a, b) }
    /// `vpcmpeqd dst, a, b` (the VEX form: registers below 16, no zmm): all ones in the 32-bit
    /// lanes where `a == b` (`vpcmpeqd x, x, x` sets every bit).
    public mutating func vpcmpeqd(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) {
        precondition(dst.width != .zmm && dst.index < 16 && a.index < 16 && !prefersEVEX, "vpcmpeqd: the VEX form only")
        integerOp(0x76, dst, a, b)
    }
    /// `vpcmpgtq dst, a, b` (the VEX form: registers below 16, no zmm): all ones in the 64-bit
    /// lanes where `a > b` (signed), else zero.
    public mutating func vpcmpgtq(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) {
        precondition(dst.width != .zmm && dst.index < 16 && a.index < 16, "vpcmpgtq: the VEX form only")
        integerOp(0x37, map: .map0F38, dst, a, b)
    }
    /// `vpsrlvq dst, a, b`: each 64-bit lane of `a` shifted right logically by `b`'s lane
    /// (counts above 63 give 0).
    public mutating func vpsrlvq(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) {
        vectorInstruction(0x45, map: .map0F38, prefix: .p66, w: true, width: dst.width, reg: dst.index, vvvv: a.index,
                          Self.registerOrMemory(b))
    }
    /// `vpblendmd dst{mask}, a, b` (EVEX): 32-bit lane `i` from `b` where `mask` bit `i` is set, else from `a`.
    public mutating func vpblendmd(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorRegister, mask: OpmaskRegister) {
        vectorInstruction(0x64, map: .map0F38, prefix: .p66, evexOnly: true, width: dst.width, reg: dst.index,
                          vvvv: a.index, .register(b.index), mask: mask)
    }
    /// `vpblendmq dst{mask}, a, b` (EVEX): 64-bit lane `i` from `b` where `mask` bit `i` is set, else from `a`.
    public mutating func vpblendmq(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorRegister, mask: OpmaskRegister) {
        vectorInstruction(0x64, map: .map0F38, prefix: .p66, w: true, evexOnly: true, width: dst.width, reg: dst.index,
                          vvvv: a.index, .register(b.index), mask: mask)
    }
    /// `vpermi2q dst, a, b` (AVX-512F): 64-bit lane `i` becomes element `dst[i] & 15` of the
    /// 16-element table `a:b` (`a` elements 0–7; zmm), so `dst` is both index and result.
    public mutating func vpermi2q(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) {
        vectorInstruction(0x76, map: .map0F38, prefix: .p66, w: true, evexOnly: true, width: dst.width, reg: dst.index,
                          vvvv: a.index, .register(b.index))
    }
    /// `vpermi2b dst, a, b` (AVX512-VBMI): byte lane `i` becomes byte `dst[i] & 127` of the
    /// 128-byte table `a:b` (`a` the low 64 bytes; zmm), so `dst` is both index and result.
    public mutating func vpermi2b(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) {
        vectorInstruction(0x75, map: .map0F38, prefix: .p66, evexOnly: true, width: dst.width, reg: dst.index,
                          vvvv: a.index, .register(b.index))
    }
    /// `vpermb dst, indices, table` (AVX512-VBMI): byte lane `i` becomes byte `indices[i] & 63`
    /// of the 64-byte `table` (zmm).
    public mutating func vpermb(_ dst: VectorRegister, _ indices: VectorRegister, _ table: VectorSource) {
        vectorInstruction(0x8D, map: .map0F38, prefix: .p66, evexOnly: true, width: dst.width, reg: dst.index,
                          vvvv: indices.index, Self.registerOrMemory(table))
    }
    /// `vpmovq2m k, src` (AVX512-DQ): opmask bit `i` is the sign bit of 64-bit lane `i` of `src`.
    public mutating func vpmovq2m(_ dst: OpmaskRegister, _ src: VectorRegister) {
        vectorInstruction(0x39, map: .map0F38, prefix: .pF3, w: true, evexOnly: true, width: src.width, reg: dst.index,
                          vvvv: 0, .register(src.index))
    }
    /// `vpmovb2m k, src` (AVX512-BW): opmask bit `i` is the sign bit of byte `i` of `src`.
    public mutating func vpmovb2m(_ dst: OpmaskRegister, _ src: VectorRegister) {
        vectorInstruction(0x29, map: .map0F38, prefix: .pF3, evexOnly: true, width: src.width, reg: dst.index,
                          vvvv: 0, .register(src.index))
    }
    /// `vpblendmb dst{mask}, a, b` (AVX512-BW): byte `i` from `b` where `mask` bit `i` is set, else from `a`.
    public mutating func vpblendmb(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorRegister, mask: OpmaskRegister) {
        vectorInstruction(0x66, map: .map0F38, prefix: .p66, evexOnly: true, width: dst.width, reg: dst.index,
                          vvvv: a.index, .register(b.index), mask: mask)
    }
    /// `vpmovsxbd dst, [src]`: a quarter register of signed bytes (8 for ymm, 16 for zmm),
    /// each sign-extended to a 32-bit lane.
    /// With `mask` (EVEX), only the selected lanes' bytes are read; the others keep `dst`'s
    /// value, or are zeroed with `zeroing`.
    public mutating func vpmovsxbd(_ dst: VectorRegister, _ src: MemoryOperand, mask: OpmaskRegister? = nil,
                                   zeroing: Bool = false) {
        vectorInstruction(0x21, map: .map0F38, prefix: .p66, width: dst.width, reg: dst.index, vvvv: 0,
                          .memory(src), mask: mask, zeroing: zeroing, memoryBytes: dst.width.bytes / 4)
    }
    /// `vpmovzxbd dst, [src]`: a quarter register of unsigned bytes, each zero-extended to a 32-bit
    /// lane; `mask` and `zeroing` as `vpmovsxbd`'s.
    public mutating func vpmovzxbd(_ dst: VectorRegister, _ src: MemoryOperand, mask: OpmaskRegister? = nil,
                                   zeroing: Bool = false) {
        vectorInstruction(0x31, map: .map0F38, prefix: .p66, width: dst.width, reg: dst.index, vvvv: 0,
                          .memory(src), mask: mask, zeroing: zeroing, memoryBytes: dst.width.bytes / 4)
    }
    /// `vpmovsxbw dst, [src]`: half a register of signed bytes (16 for ymm, 32 for zmm with
    /// AVX512-BW), each sign-extended to a 16-bit lane.
    public mutating func vpmovsxbw(_ dst: VectorRegister, _ src: MemoryOperand) {
        vectorInstruction(0x20, map: .map0F38, prefix: .p66, width: dst.width, reg: dst.index, vvvv: 0,
                          .memory(src), memoryBytes: dst.width.bytes / 2)
    }
    /// `vpmovzxbw dst, [src]`: half a register of unsigned bytes, each zero-extended to a 16-bit lane.
    public mutating func vpmovzxbw(_ dst: VectorRegister, _ src: MemoryOperand) {
        vectorInstruction(0x30, map: .map0F38, prefix: .p66, width: dst.width, reg: dst.index, vvvv: 0,
                          .memory(src), memoryBytes: dst.width.bytes / 2)
    }
    /// `vpgatherdd dst{mask}, [base + index·scale + disp]` (AVX-512F): 32-bit lane `i` of `dst`
    /// is loaded from the address with `index`'s lane `i` where `mask` bit `i` is set; lanes whose
    /// bit is clear keep `dst`'s value and read nothing. The gather clears `mask` as it goes (all
    /// zero when it is done), so a mask must be set again before every gather.
    /// Preconditions: `mask` is not `k0`; `dst` is not `index`; they have the same width.
    public mutating func vpgatherdd(_ dst: VectorRegister, _ src: VectorIndexedMemory, mask: OpmaskRegister) {
        precondition(mask.index != 0, "a gather needs an opmask other than k0")
        precondition(dst.index != src.index.index && dst.width == src.index.width, "gather: dst and index must differ")
        // EVEX.V' carries bit 4 of the index register (vvvv itself is unused, 1111).
        vectorInstruction(0x90, map: .map0F38, prefix: .p66, evexOnly: true, width: dst.width, reg: dst.index,
                          vvvv: src.index.index & 16, .vectorIndexed(src), mask: mask, scalarMemory: true)
    }
    /// `vpgatherqq dst, [base + index·scale + disp], mask` (AVX2, VEX; registers below 16):
    /// 64-bit lane `i` of `dst` is loaded from the address with `index`'s 64-bit lane `i` where
    /// the sign bit of `mask`'s lane `i` is set; other lanes keep `dst` and read nothing. The
    /// gather clears `mask` as it goes, so it must be set again before every gather.
    /// Precondition: `dst`, `index` and `mask` are three different registers of one width.
    public mutating func vpgatherqq(_ dst: VectorRegister, _ src: VectorIndexedMemory, _ mask: VectorRegister) {
        precondition(Set([dst.index, src.index.index, mask.index]).count == 3, "gather: dst, index and mask must differ")
        precondition(dst.width != .zmm && dst.width == src.index.width && dst.width == mask.width
                     && [dst, src.index, mask].allSatisfy { $0.index < 16 } && !prefersEVEX, "vpgatherqq is the VEX form")
        vectorInstruction(0x91, map: .map0F38, prefix: .p66, w: true, width: dst.width, reg: dst.index, vvvv: mask.index,
                          .vectorIndexed(src))
    }
    /// `vpmovdb [dst]{mask}, src` (EVEX): the low byte of each 32-bit lane, 16 bytes from a zmm.
    public mutating func vpmovdb(_ dst: MemoryOperand, _ src: VectorRegister, mask: OpmaskRegister? = nil) {
        vectorInstruction(0x31, map: .map0F38, prefix: .pF3, evexOnly: true, width: src.width, reg: src.index, vvvv: 0,
                          .memory(dst), mask: mask, memoryBytes: src.width.bytes / 4)
    }
    /// `vpmovsdb [dst]{mask}, src` (EVEX): each 32-bit lane saturated to a signed byte.
    public mutating func vpmovsdb(_ dst: MemoryOperand, _ src: VectorRegister, mask: OpmaskRegister? = nil) {
        vectorInstruction(0x21, map: .map0F38, prefix: .pF3, evexOnly: true, width: src.width, reg: src.index, vvvv: 0,
                          .memory(dst), mask: mask, memoryBytes: src.width.bytes / 4)
    }
    /// `vpmovusdb [dst]{mask}, src` (EVEX): each 32-bit lane, read unsigned, saturated to an
    /// unsigned byte.
    public mutating func vpmovusdb(_ dst: MemoryOperand, _ src: VectorRegister, mask: OpmaskRegister? = nil) {
        vectorInstruction(0x11, map: .map0F38, prefix: .pF3, evexOnly: true, width: src.width, reg: src.index, vvvv: 0,
                          .memory(dst), mask: mask, memoryBytes: src.width.bytes / 4)
    }
    /// `vpmulld dst, a, b`: the low 32 bits of each 32-bit lane product.
    public mutating func vpmulld(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) {
        integerOp(0x40, map: .map0F38, dst, a, b)
    }
    /// `vpmaxsd dst, a, b`: signed 32-bit maxima.
    public mutating func vpmaxsd(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) {
        integerOp(0x3D, map: .map0F38, dst, a, b)
    }
    /// `vpminsd dst, a, b`: signed 32-bit minima.
    public mutating func vpminsd(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) {
        integerOp(0x39, map: .map0F38, dst, a, b)
    }
    /// `vpsravd dst, a, b`: each 32-bit lane of `a` shifted right arithmetically by `b`'s lane.
    public mutating func vpsravd(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) {
        integerOp(0x46, map: .map0F38, dst, a, b)
    }
    /// `vpsllvd dst, a, b`: each 32-bit lane of `a` shifted left by `b`'s lane (counts above
    /// 31 give 0).
    public mutating func vpsllvd(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) {
        integerOp(0x47, map: .map0F38, dst, a, b)
    }
    /// `vpsravq dst, a, b` (EVEX): each 64-bit lane of `a` shifted right arithmetically by
    /// `b`'s lane (counts above 63 fill with the sign).
    public mutating func vpsravq(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) {
        vectorInstruction(0x46, map: .map0F38, prefix: .p66, w: true, evexOnly: true, width: dst.width, reg: dst.index,
                          vvvv: a.index, Self.registerOrMemory(b))
    }
    /// `vpshufd dst{mask}, src, order`: within each 128-bit lane, 32-bit lane `i` becomes
    /// `src`'s lane `(order >> 2i) & 3`; with `mask` (EVEX), lanes whose mask bit is clear keep
    /// `dst`'s value.
    public mutating func vpshufd(_ dst: VectorRegister, _ src: VectorRegister, _ order: UInt8, mask: OpmaskRegister? = nil) {
        vectorInstruction(0x70, map: .map0F, prefix: .p66, width: dst.width, reg: dst.index, vvvv: 0,
                          .register(src.index), mask: mask)
        emit(order)
    }
    /// `vpackssdw dst, a, b`: signed 32 → 16-bit with saturation, per 128-bit lane (a then b).
    public mutating func vpackssdw(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) { integerOp(0x6B, dst, a, b) }
    /// `vpackuswb dst, a, b`: signed 16 → unsigned 8-bit with saturation, per 128-bit lane.
    public mutating func vpackuswb(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) { integerOp(0x67, dst, a, b) }
    /// `vpacksswb dst, a, b`: signed 16 → signed 8-bit with saturation, per 128-bit lane.
    public mutating func vpacksswb(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) { integerOp(0x63, dst, a, b) }

    /// `vpsrlq dst, src, count`: logical right shift of 64-bit lanes.
    public mutating func vpsrlq(_ dst: VectorRegister, _ src: VectorRegister, _ count: UInt8) {
        shiftImmediate(0x73, digit: 2, evexW: true, dst, src, count)
    }
    /// `vpsllq dst, src, count`: left shift of 64-bit lanes.
    public mutating func vpsllq(_ dst: VectorRegister, _ src: VectorRegister, _ count: UInt8) {
        shiftImmediate(0x73, digit: 6, evexW: true, dst, src, count)
    }
    /// `vpsrad dst, src, count`: arithmetic right shift of 32-bit lanes.
    public mutating func vpsrad(_ dst: VectorRegister, _ src: VectorRegister, _ count: UInt8) {
        shiftImmediate(0x72, digit: 4, dst, src, count)
    }
    /// `vpsrld dst, src, count`: logical right shift of 32-bit lanes.
    public mutating func vpsrld(_ dst: VectorRegister, _ src: VectorRegister, _ count: UInt8) {
        shiftImmediate(0x72, digit: 2, dst, src, count)
    }

    /// `vpblendd dst, a, b, mask`: 32-bit lane `i` from `b` where mask bit `i` is set, else from `a` (AVX2).
    public mutating func vpblendd(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorRegister, _ mask: UInt8) {
        vectorInstruction(0x02, map: .map0F3A, prefix: .p66, width: dst.width, reg: dst.index, vvvv: a.index, .register(b.index))
        emit(mask)
    }
    /// `vpermq dst, src, order`: 64-bit lanes of `src` permuted by the 2-bit fields of `order` (AVX2).
    public mutating func vpermq(_ dst: VectorRegister, _ src: VectorRegister, _ order: UInt8) {
        vectorInstruction(0x00, map: .map0F3A, prefix: .p66, w: true, width: dst.width, reg: dst.index, vvvv: 0,
                          .register(src.index))
        emit(order)
    }
    /// `vextracti128 dst, src, index`: the 128-bit half `index` of ymm `src` into xmm `dst` (AVX2).
    public mutating func vextracti128(_ dst: VectorRegister, _ src: VectorRegister, _ index: UInt8) {
        vectorInstruction(0x39, map: .map0F3A, prefix: .p66, width: .ymm, reg: src.index, vvvv: 0, .register(dst.index))
        emit(index)
    }
    /// `vextracti64x4 dst, src, index` (AVX-512F): the 256-bit half `index` of zmm `src` into ymm `dst`.
    public mutating func vextracti64x4(_ dst: VectorRegister, _ src: VectorRegister, _ index: UInt8) {
        vectorInstruction(0x3B, map: .map0F3A, prefix: .p66, w: true, evexOnly: true, width: .zmm, reg: src.index,
                          vvvv: 0, .register(dst.index))
        emit(index)
    }
    /// `vinserti32x4 dst, a, src, index` (AVX-512F): zmm `a` with its 128-bit lane `index` (0–3)
    /// replaced by xmm `src` or 16 bytes of memory.
    public mutating func vinserti32x4(_ dst: VectorRegister, _ a: VectorRegister, _ src: VectorSource, _ index: UInt8) {
        precondition(dst.width == .zmm && index < 4, "vinserti32x4 writes one of a zmm register's four 128-bit lanes")
        vectorInstruction(0x38, map: .map0F3A, prefix: .p66, evexOnly: true, width: .zmm, reg: dst.index, vvvv: a.index,
                          Self.registerOrMemory(src), memoryBytes: 16)
        emit(index)
    }
    /// `vinserti128 dst, a, src, index` (AVX2, VEX): ymm `a` with its 128-bit half `index` (0, 1)
    /// replaced by xmm `src`.
    public mutating func vinserti128(_ dst: VectorRegister, _ a: VectorRegister, _ src: VectorRegister, _ index: UInt8) {
        precondition(dst.width == .ymm && index < 2 && [dst, a, src].allSatisfy { $0.index < 16 } && !prefersEVEX,
                     "vinserti128 writes half a ymm register (VEX form)")
        vectorInstruction(0x38, map: .map0F3A, prefix: .p66, width: .ymm, reg: dst.index, vvvv: a.index, .register(src.index))
        emit(index)
    }
    /// `vbroadcasti128 dst, [src]` (AVX2): 16 bytes to both 128-bit lanes of ymm `dst`.
    public mutating func vbroadcasti128(_ dst: VectorRegister, _ src: MemoryOperand) {
        precondition(dst.width == .ymm && dst.index < 16, "vbroadcasti128 fills a ymm register (VEX form)")
        vectorInstruction(0x5A, map: .map0F38, prefix: .p66, width: .ymm, reg: dst.index, vvvv: 0, .memory(src))
    }
    /// `vmovd dst, src`: the low 32 bits of general register `src` into lane 0 of xmm `dst`, the
    /// other lanes zeroed (VEX, registers 0–15).
    public mutating func vmovd(_ dst: VectorRegister, _ src: GeneralRegister) {
        precondition(dst.width == .xmm && dst.index < 16, "vmovd fills an xmm register (VEX form)")
        vectorInstruction(0x6E, map: .map0F, prefix: .p66, width: .xmm, reg: dst.index, vvvv: 0, .register(src.index))
    }
    /// `vmovd [dst], src`: stores the low 32 bits of xmm `src`.
    public mutating func vmovd(_ dst: MemoryOperand, _ src: VectorRegister) {
        precondition(src.width == .xmm && src.index < 16, "vmovd stores an xmm register (VEX form)")
        let saved = prefersEVEX
        prefersEVEX = false
        vectorInstruction(0x7E, map: .map0F, prefix: .p66, width: .xmm, reg: src.index, vvvv: 0, .memory(dst))
        prefersEVEX = saved
    }
    /// `vpbroadcastd dst, src`: lane 0 of xmm `src` to every 32-bit lane of `dst`.
    public mutating func vpbroadcastd(_ dst: VectorRegister, _ src: VectorRegister) {
        vectorInstruction(0x58, map: .map0F38, prefix: .p66, width: dst.width, reg: dst.index, vvvv: 0,
                          .register(src.index))
    }
    /// `vpbroadcastq dst, [src]`: one 64-bit value to every 64-bit lane.
    public mutating func vpbroadcastq(_ dst: VectorRegister, _ src: MemoryOperand) {
        vectorInstruction(0x59, map: .map0F38, prefix: .p66, evexW: true, width: dst.width, reg: dst.index, vvvv: 0,
                          .memory(src), elementBytes: 8, scalarMemory: true)
    }
}

/// Register-only forms (`a.vpsubd(ymm(0), ymm(0), ymm(1))`).
extension Assembler {
    public mutating func vpmuludq(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vpmuludq(d, a, .register(b)) }
    public mutating func vpmuldq(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vpmuldq(d, a, .register(b)) }
    public mutating func vpaddq(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vpaddq(d, a, .register(b)) }
    public mutating func vpsubd(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vpsubd(d, a, .register(b)) }
    public mutating func vpand(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vpand(d, a, .register(b)) }
    public mutating func vpor(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vpor(d, a, .register(b)) }
    public mutating func vpsubb(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vpsubb(d, a, .register(b)) }
    public mutating func vpaddusb(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vpaddusb(d, a, .register(b)) }
    public mutating func vpsadbw(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vpsadbw(d, a, .register(b)) }
    public mutating func vpshufb(_ d: VectorRegister, _ t: VectorRegister, _ i: VectorRegister) { vpshufb(d, t, .register(i)) }
    public mutating func vpcmpgtd(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vpcmpgtd(d, a, .register(b)) }
    public mutating func vpcmpeqd(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vpcmpeqd(d, a, .register(b)) }
    public mutating func vpackssdw(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vpackssdw(d, a, .register(b)) }
    public mutating func vpackuswb(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vpackuswb(d, a, .register(b)) }
    public mutating func vpacksswb(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vpacksswb(d, a, .register(b)) }
}
