/// General-purpose instructions: moves, integer arithmetic, stack, jumps, CPU identification.
extension Assembler {
    /// REX prefix, emitted only when needed (`force` for byte registers is not used here).
    private mutating func rex(w: Bool, reg: UInt8 = 0, _ rm: RegisterOrMemory) {
        let value: UInt8 = (w ? 8 : 0) | (reg & 8 != 0 ? 4 : 0) | (rm.xBit ? 2 : 0) | (rm.bBit ? 1 : 0)
        if value != 0 { emit(0x40 | value) }
    }

    /// `op r/m, reg` or `op reg, r/m` with a one-byte opcode.
    private mutating func instruction(_ opcode: UInt8, width: OperandWidth, reg: UInt8, _ rm: RegisterOrMemory) {
        rex(w: width == .qword, reg: reg, rm)
        emit(opcode)
        emitModRM(reg: reg, rm)
    }

    /// The `83 /n ib`, `81 /n id` (or short accumulator `op eax, id`) immediate group.
    private mutating func immediateGroup(_ n: UInt8, accumulatorOpcode: UInt8, _ dst: GeneralRegister, _ imm: Int32,
                                         width: OperandWidth) {
        if (-128...127).contains(imm) {
            instruction(0x83, width: width, reg: n, .register(dst.index))
            emit(UInt8(bitPattern: Int8(imm)))
        } else if dst == .rax {
            if width == .qword { emit(0x48) }
            emit(accumulatorOpcode)
            emit32(imm)
        } else {
            instruction(0x81, width: width, reg: n, .register(dst.index))
            emit32(imm)
        }
    }

    // MARK: Moves

    /// `mov dst, src` between registers.
    public mutating func mov(_ dst: GeneralRegister, _ src: GeneralRegister, width: OperandWidth = .qword) {
        instruction(0x89, width: width, reg: src.index, .register(dst.index))
    }

    /// `mov dst, [src]`: a load.
    public mutating func mov(_ dst: GeneralRegister, _ src: MemoryOperand, width: OperandWidth = .qword) {
        instruction(0x8B, width: width, reg: dst.index, .memory(src))
    }

    /// `mov [dst], src`: a store.
    public mutating func mov(_ dst: MemoryOperand, _ src: GeneralRegister, width: OperandWidth = .qword) {
        instruction(0x89, width: width, reg: src.index, .memory(dst))
    }

    /// `mov dst, imm`: a 32-bit immediate, sign-extended for 64-bit `width`.
    public mutating func mov(_ dst: GeneralRegister, _ imm: Int32, width: OperandWidth = .qword) {
        if width == .dword {
            if dst.isExtended { emit(0x41) }
            emit(0xB8 + dst.low)
        } else {
            instruction(0xC7, width: .qword, reg: 0, .register(dst.index))
        }
        emit32(imm)
    }

    /// `lea dst, [address]`.
    public mutating func lea(_ dst: GeneralRegister, _ address: MemoryOperand) {
        instruction(0x8D, width: .qword, reg: dst.index, .memory(address))
    }

    // MARK: Arithmetic

    /// `add dst, src`.
    public mutating func add(_ dst: GeneralRegister, _ src: GeneralRegister, width: OperandWidth = .qword) {
        instruction(0x01, width: width, reg: src.index, .register(dst.index))
    }

    /// `add dst, [src]`.
    public mutating func add(_ dst: GeneralRegister, _ src: MemoryOperand, width: OperandWidth = .qword) {
        instruction(0x03, width: width, reg: dst.index, .memory(src))
    }

    /// `add dst, imm`.
    public mutating func add(_ dst: GeneralRegister, _ imm: Int32, width: OperandWidth = .qword) {
        immediateGroup(0, accumulatorOpcode: 0x05, dst, imm, width: width)
    }

    /// `sub dst, src`.
    public mutating func sub(_ dst: GeneralRegister, _ src: GeneralRegister, width: OperandWidth = .qword) {
        instruction(0x29, width: width, reg: src.index, .register(dst.index))
    }

    /// `sub dst, imm`.
    public mutating func sub(_ dst: GeneralRegister, _ imm: Int32, width: OperandWidth = .qword) {
        immediateGroup(5, accumulatorOpcode: 0x2D, dst, imm, width: width)
    }

    /// `cmp a, b`.
    public mutating func cmp(_ a: GeneralRegister, _ b: GeneralRegister, width: OperandWidth = .qword) {
        instruction(0x39, width: width, reg: b.index, .register(a.index))
    }

    /// `cmp a, imm`.
    public mutating func cmp(_ a: GeneralRegister, _ imm: Int32, width: OperandWidth = .qword) {
        immediateGroup(7, accumulatorOpcode: 0x3D, a, imm, width: width)
    }

    /// `test a, b`.
    public mutating func test(_ a: GeneralRegister, _ b: GeneralRegister, width: OperandWidth = .qword) {
        instruction(0x85, width: width, reg: b.index, .register(a.index))
    }

    /// `test a, imm` (flags of `a & imm`; the immediate sign-extended for 64-bit `width`).
    public mutating func test(_ a: GeneralRegister, _ imm: Int32, width: OperandWidth = .qword) {
        if a == .rax {
            if width == .qword { emit(0x48) }
            emit(0xA9)
        } else {
            instruction(0xF7, width: width, reg: 0, .register(a.index))
        }
        emit32(imm)
    }

    /// `xor dst, src`.
    public mutating func xor(_ dst: GeneralRegister, _ src: GeneralRegister, width: OperandWidth = .qword) {
        instruction(0x31, width: width, reg: src.index, .register(dst.index))
    }

    /// `or dst, src`.
    public mutating func or(_ dst: GeneralRegister, _ src: GeneralRegister, width: OperandWidth = .qword) {
        instruction(0x09, width: width, reg: src.index, .register(dst.index))
    }

    /// `imul dst, src` (the low half of the signed product).
    public mutating func imul(_ dst: GeneralRegister, _ src: GeneralRegister, width: OperandWidth = .qword) {
        rex(w: width == .qword, reg: dst.index, .register(src.index))
        emit([0x0F, 0xAF])
        emitModRM(reg: dst.index, .register(src.index))
    }

    /// `shl dst, count`.
    public mutating func shl(_ dst: GeneralRegister, _ count: UInt8, width: OperandWidth = .qword) {
        instruction(0xC1, width: width, reg: 4, .register(dst.index))
        emit(count)
    }

    /// `shr dst, count` (logical; ZF set when the result is zero).
    public mutating func shr(_ dst: GeneralRegister, _ count: UInt8, width: OperandWidth = .qword) {
        if count == 1 {
            instruction(0xD1, width: width, reg: 5, .register(dst.index))   // the short form assemblers choose
            return
        }
        instruction(0xC1, width: width, reg: 5, .register(dst.index))
        emit(count)
    }

    /// `dec dst`.
    public mutating func dec(_ dst: GeneralRegister, width: OperandWidth = .qword) {
        instruction(0xFF, width: width, reg: 1, .register(dst.index))
    }

    // MARK: Stack and control flow

    /// `push r`.
    public mutating func push(_ r: GeneralRegister) {
        if r.isExtended { emit(0x41) }
        emit(0x50 + r.low)
    }

    /// `pop r`.
    public mutating func pop(_ r: GeneralRegister) {
        if r.isExtended { emit(0x41) }
        emit(0x58 + r.low)
    }

    /// `ret`.
    public mutating func ret() { emit(0xC3) }

    /// A condition of a conditional jump (the low nibble of `0F 8x`).
    public enum Condition: UInt8, Sendable {
        case overflow = 0x0, noOverflow = 0x1, below = 0x2, aboveOrEqual = 0x3, equal = 0x4, notEqual = 0x5
        case belowOrEqual = 0x6, above = 0x7, sign = 0x8, notSign = 0x9
        case less = 0xC, greaterOrEqual = 0xD, lessOrEqual = 0xE, greater = 0xF
    }

    /// `jcc label` with a 32-bit displacement.
    public mutating func j(_ condition: Condition, _ label: Label) {
        emit([0x0F, 0x80 | condition.rawValue])
        emitRelative(to: label)
    }

    /// `jmp label` with a 32-bit displacement.
    public mutating func jmp(_ label: Label) {
        emit(0xE9)
        emitRelative(to: label)
    }

    // MARK: CPU identification

    /// `cpuid`: leaf `eax`, subleaf `ecx` → `eax`, `ebx`, `ecx`, `edx`.
    public mutating func cpuid() { emit([0x0F, 0xA2]) }

    /// `xgetbv`: extended control register `ecx` → `edx:eax`.
    public mutating func xgetbv() { emit([0x0F, 0x01, 0xD0]) }
}

extension Assembler {
    /// Emits a System V function around `body`: pushes `registers` (the callee-saved ones the
    /// body uses), runs `body` with the label of the common exit, then clears the upper ymm/zmm
    /// state (`vzeroupper`, avoiding SSE transition stalls in the caller), pops and returns.
    public mutating func function(saving registers: [GeneralRegister], _ body: (inout Assembler, Label) -> Void) {
        for r in registers { push(r) }
        let exit = newLabel()
        body(&self, exit)
        bind(exit)
        vzeroupper()
        for r in registers.reversed() { pop(r) }
        ret()
    }
}

extension Assembler {
    /// How far `countedLoop` moves a pointer after each pass.
    public enum Step: Sendable {
        case bytes(Int32)
        case register(GeneralRegister)
        case memory(MemoryOperand)
    }

    /// A loop whose `body` runs `counter` times, the kernels' inner loop shape: after each pass
    /// every pointer moves by its step (`add`), then `dec counter` / `jnz` back to the top.
    /// Precondition: `counter ≥ 1` on entry (callers jump past the loop for zero passes).
    public mutating func countedLoop(_ counter: GeneralRegister, advancing pointers: [(GeneralRegister, Step)] = [],
                                     _ body: (inout Assembler) -> Void) {
        let top = newLabel()
        bind(top)
        body(&self)
        for (pointer, step) in pointers {
            switch step {
            case .bytes(let count): add(pointer, count)
            case .register(let register): add(pointer, register)
            case .memory(let memory): add(pointer, memory)
            }
        }
        dec(counter)
        j(.notEqual, top)
    }
}
