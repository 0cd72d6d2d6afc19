/// An x86-64 assembler: instruction methods append machine code to `bytes`, labels mark
/// positions, and `finish()` resolves the jumps to them.
///
/// Call sites read like assembly, destination first (Intel order):
///
///     var a = Assembler()
///     a.vfmadd231ps(ymm(3), ymm(0), .mem(.rsi, disp: 32))
///     a.add(.rsi, 64)
///
/// Vector instructions use the VEX encoding unless they need EVEX (a `zmm` or a register
/// numbered 16–31, an opmask, an embedded broadcast) or `prefersEVEX` is set — needed where an
/// instruction exists in both (`vpdpbusd` is AVX-VNNI as VEX, AVX512-VNNI as EVEX).
/// Encodings follow the Intel SDM, volume 2, chapters 2 (formats) and 3–5 (instructions).
public struct Assembler: Sendable {
    /// A position in the code that jumps can target.
    public struct Label: Hashable, Sendable {
        let id: Int
    }

    /// Why `finish()` failed.
    public enum AssemblyError: Error, Equatable, Sendable {
        /// A jump targets a label that was never bound.
        case unboundLabel(Int)
    }

    /// The code so far (jump displacements are final only after `finish()`).
    public private(set) var bytes: [UInt8] = []
    /// Encode every vector instruction as EVEX (AVX-512 kernels on 128/256-bit registers).
    public var prefersEVEX = false

    private var labelPositions: [Int?] = []
    /// 32-bit relative fields to patch: where the field starts, and its label.
    private var fixups: [(field: Int, label: Label)] = []

    public init() {}

    /// Current length of the code in bytes.
    public var count: Int { bytes.count }

    /// A new, unbound label.
    public mutating func newLabel() -> Label {
        labelPositions.append(nil)
        return Label(id: labelPositions.count - 1)
    }

    /// Binds `label` to the current position. Precondition: not bound before.
    public mutating func bind(_ label: Label) {
        precondition(labelPositions[label.id] == nil, "label bound twice")
        labelPositions[label.id] = bytes.count
    }

    /// The code with every jump resolved.
    /// - Throws: `AssemblyError.unboundLabel` when a jump targets a label never bound.
    public func finish() throws -> [UInt8] {
        var code = bytes
        for fixup in fixups {
            guard let target = labelPositions[fixup.label.id] else { throw AssemblyError.unboundLabel(fixup.label.id) }
            let relative = Int32(target - (fixup.field + 4))
            for i in 0..<4 { code[fixup.field + i] = UInt8(truncatingIfNeeded: relative >> (8 * i)) }
        }
        return code
    }

    // MARK: Emission helpers shared by the instruction files

    mutating func emit(_ byte: UInt8) { bytes.append(byte) }
    mutating func emit(_ sequence: [UInt8]) { bytes.append(contentsOf: sequence) }

    mutating func emit32(_ value: Int32) {
        for i in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * i))) }
    }

    /// A 32-bit displacement to `label`, patched by `finish()`.
    mutating func emitRelative(to label: Label) {
        fixups.append((bytes.count, label))
        emit32(0)
    }

    /// The r/m operand of a ModRM byte.
    enum RegisterOrMemory {
        /// A register by hardware number (general or vector, 0–31).
        case register(UInt8)
        case memory(MemoryOperand)
        /// A vector-indexed address (gathers): always a SIB byte.
        case vectorIndexed(VectorIndexedMemory)

        /// Bit 3 of the base (memory) or register number: REX.B / VEX.B.
        var bBit: Bool {
            switch self {
            case .register(let r): r & 8 != 0
            case .memory(let m): m.base.isExtended
            case .vectorIndexed(let m): m.base.isExtended
            }
        }

        /// Bit 3 of the index (memory) or bit 4 of the register: REX.X / VEX.X / EVEX.X.
        var xBit: Bool {
            switch self {
            case .register(let r): r & 16 != 0
            case .memory(let m): m.indexRegister?.isExtended ?? false
            case .vectorIndexed(let m): m.index.index & 8 != 0
            }
        }
    }

    /// The ModRM byte, SIB and displacement for `reg` (its low 3 bits) and `rm`. `disp8Scale`
    /// is EVEX's compressed-displacement factor N (1 for legacy and VEX): a displacement that is
    /// a multiple of N within ±128·N takes one byte.
    mutating func emitModRM(reg: UInt8, _ rm: RegisterOrMemory, disp8Scale: Int = 1) {
        switch rm {
        case .register(let r):
            emit(0xC0 | (reg & 7) << 3 | (r & 7))
        case .memory(let m):
            emitAddress(reg: reg, base: m.base, index: m.indexRegister.map { ($0.low, m.scaleBits) },
                        displacement: m.displacement, disp8Scale: disp8Scale)
        case .vectorIndexed(let m):
            emitAddress(reg: reg, base: m.base, index: (m.index.index & 7, m.scaleBits),
                        displacement: m.displacement, disp8Scale: disp8Scale)
        }
    }

    /// ModRM (and SIB when there is an index or the base is `rsp`/`r12`) and displacement of
    /// `[base + index·2^scaleBits + displacement]`, `index` given by its low three bits.
    private mutating func emitAddress(reg: UInt8, base: GeneralRegister, index: (low: UInt8, scaleBits: UInt8)?,
                                      displacement: Int32, disp8Scale: Int) {
        let needsSIB = index != nil || base.low == 4
        let d = Int(displacement)
        let mode: UInt8
        if d == 0 && base.low != 5 {
            mode = 0
        } else if d % disp8Scale == 0 && (-128...127).contains(d / disp8Scale) {
            mode = 1
        } else {
            mode = 2
        }
        emit(mode << 6 | (reg & 7) << 3 | (needsSIB ? 4 : base.low))
        if needsSIB { emit((index?.scaleBits ?? 0) << 6 | (index?.low ?? 4) << 3 | base.low) }
        if mode == 1 { emit(UInt8(bitPattern: Int8(d / disp8Scale))) }
        if mode == 2 { emit32(displacement) }
    }
}
