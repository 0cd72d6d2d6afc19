/// Double-precision vector arithmetic and the float ↔ double conversions (VEX for AVX, EVEX for
/// AVX-512F): enough for kernels that compute in double what the C library computes in double.
extension Assembler {
    /// A three-operand double instruction `op dst, a, b` (`66 0F op`; EVEX.W1, VEX.WIG), whose
    /// embedded broadcast reads one 8-byte element.
    private mutating func doubleOp(_ opcode: UInt8, _ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) {
        let rm: RegisterOrMemory
        switch b {
        case .register(let r): rm = .register(r.index)
        case .memory(let m): rm = .memory(m)
        }
        vectorInstruction(opcode, map: .map0F, prefix: .p66, evexW: true, width: dst.width, reg: dst.index, vvvv: a.index,
                          rm, elementBytes: 8)
    }

    /// `vaddpd dst, a, b`.
    public mutating func vaddpd(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) { doubleOp(0x58, dst, a, b) }
    /// `vmulpd dst, a, b`.
    public mutating func vmulpd(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) { doubleOp(0x59, dst, a, b) }
    /// `vsubpd dst, a, b`: `a − b` per lane.
    public mutating func vsubpd(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) { doubleOp(0x5C, dst, a, b) }

    /// A double fused multiply-add `op dst, a, b` (`66 0F38 op`, W1 in VEX and EVEX).
    private mutating func doubleFMA(_ opcode: UInt8, _ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) {
        let rm: RegisterOrMemory
        switch b {
        case .register(let r): rm = .register(r.index)
        case .memory(let m): rm = .memory(m)
        }
        vectorInstruction(opcode, map: .map0F38, prefix: .p66, w: true, evexW: true, width: dst.width, reg: dst.index,
                          vvvv: a.index, rm, elementBytes: 8)
    }

    /// `vfmadd213pd dst, a, b`: `dst = a · dst + b`, one rounding (FMA3 / AVX-512F).
    public mutating func vfmadd213pd(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) {
        doubleFMA(0xA8, dst, a, b)
    }
    /// `vfmsub213pd dst, a, b`: `dst = a · dst − b`, one rounding (FMA3 / AVX-512F).
    public mutating func vfmsub213pd(_ dst: VectorRegister, _ a: VectorRegister, _ b: VectorSource) {
        doubleFMA(0xAA, dst, a, b)
    }

    /// `vcvtps2pd dst, src`: the floats of `src` (half `dst`'s width: xmm → ymm, ymm → zmm) to
    /// doubles, exactly.
    public mutating func vcvtps2pd(_ dst: VectorRegister, _ src: VectorRegister) {
        precondition(dst.width != .xmm && src.width.bytes * 2 == dst.width.bytes, "vcvtps2pd widens half a register")
        vectorInstruction(0x5A, map: .map0F, prefix: .none, width: dst.width, reg: dst.index, vvvv: 0, .register(src.index))
    }

    /// `vcvtpd2ps dst, src`: the doubles of `src` (ymm → xmm, zmm → ymm) rounded to floats (by
    /// MXCSR: to nearest, ties to even).
    public mutating func vcvtpd2ps(_ dst: VectorRegister, _ src: VectorRegister) {
        precondition(src.width != .xmm && dst.width.bytes * 2 == src.width.bytes, "vcvtpd2ps narrows to half a register")
        vectorInstruction(0x5A, map: .map0F, prefix: .p66, evexW: true, width: src.width, reg: dst.index, vvvv: 0,
                          .register(src.index))
    }
}

/// Register-only forms (`a.vmulpd(zmm(0), zmm(0), zmm(1))`).
extension Assembler {
    public mutating func vaddpd(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vaddpd(d, a, .register(b)) }
    public mutating func vmulpd(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vmulpd(d, a, .register(b)) }
    public mutating func vsubpd(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vsubpd(d, a, .register(b)) }
    public mutating func vfmadd213pd(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vfmadd213pd(d, a, .register(b)) }
    public mutating func vfmsub213pd(_ d: VectorRegister, _ a: VectorRegister, _ b: VectorRegister) { vfmsub213pd(d, a, .register(b)) }
}
