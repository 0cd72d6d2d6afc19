/// A 64-bit general-purpose register (`rax` … `r15`), by its hardware number 0–15.
///
/// The 32-bit forms (`eax`, …) are the same registers: instructions that take a `width` use the
/// low 32 bits when it is `.dword`.
public struct GeneralRegister: Hashable, Sendable, CustomStringConvertible {
    /// Hardware number, 0–15.
    public let index: UInt8

    /// The register with hardware number `index`. Precondition: `index < 16`.
    public init(_ index: UInt8) {
        precondition(index < 16, "general-purpose registers are numbered 0–15")
        self.index = index
    }

    public static let rax = GeneralRegister(0), rcx = GeneralRegister(1), rdx = GeneralRegister(2)
    public static let rbx = GeneralRegister(3), rsp = GeneralRegister(4), rbp = GeneralRegister(5)
    public static let rsi = GeneralRegister(6), rdi = GeneralRegister(7)
    public static let r8 = GeneralRegister(8), r9 = GeneralRegister(9), r10 = GeneralRegister(10)
    public static let r11 = GeneralRegister(11), r12 = GeneralRegister(12), r13 = GeneralRegister(13)
    public static let r14 = GeneralRegister(14), r15 = GeneralRegister(15)

    /// The System V AMD64 integer argument registers, in order.
    public static let arguments: [GeneralRegister] = [.rdi, .rsi, .rdx, .rcx, .r8, .r9]

    /// Low three bits of the number (the ModRM/SIB/opcode field).
    var low: UInt8 { index & 7 }
    /// Whether the number needs the REX/VEX/EVEX extension bit.
    var isExtended: Bool { index >= 8 }

    public var description: String {
        ["rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi"].indices.contains(Int(index))
            ? ["rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi"][Int(index)] : "r\(index)"
    }
}

/// The operand size of a general-purpose instruction.
public enum OperandWidth: Sendable {
    /// 32 bits (writing a 32-bit register clears the upper half).
    case dword
    /// 64 bits (REX.W).
    case qword
}

/// A vector register: `xmm`, `ymm` or `zmm` number 0–31 (16–31 need EVEX, numbers 0–15 are the
/// only ones VEX can encode).
public struct VectorRegister: Hashable, Sendable, CustomStringConvertible {
    /// Register width.
    public enum Width: Int, Sendable {
        case xmm = 128, ymm = 256, zmm = 512
        /// Bytes of the register.
        public var bytes: Int { rawValue / 8 }
    }

    /// Hardware number, 0–31.
    public let index: UInt8
    /// Which view of the register.
    public let width: Width

    /// Register `index` of `width`. Precondition: `index < 32`.
    public init(_ index: Int, _ width: Width) {
        precondition((0..<32).contains(index), "vector registers are numbered 0–31")
        self.index = UInt8(index)
        self.width = width
    }

    public var description: String { "\(width)\(index)" }
}

/// `xmm(n)`: the 128-bit register `n`.
public func xmm(_ n: Int) -> VectorRegister { VectorRegister(n, .xmm) }
/// `ymm(n)`: the 256-bit register `n`.
public func ymm(_ n: Int) -> VectorRegister { VectorRegister(n, .ymm) }
/// `zmm(n)`: the 512-bit register `n`.
public func zmm(_ n: Int) -> VectorRegister { VectorRegister(n, .zmm) }

/// An AVX-512 opmask register `k0` … `k7` (`k0` as a write mask means "no mask").
public struct OpmaskRegister: Hashable, Sendable {
    /// Hardware number, 0–7.
    public let index: UInt8
    /// Opmask `index`. Precondition: `index < 8`.
    public init(_ index: Int) {
        precondition((0..<8).contains(index), "opmask registers are numbered 0–7")
        self.index = UInt8(index)
    }
}

/// `k(n)`: opmask register `n`.
public func k(_ n: Int) -> OpmaskRegister { OpmaskRegister(n) }
