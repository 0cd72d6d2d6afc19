/// A memory operand `[base + index·scale + displacement]`.
///
/// `broadcast` marks an EVEX embedded broadcast (`{1toN}`): one element read and repeated to
/// every lane; it is valid only for EVEX instructions that support it.
public struct MemoryOperand: Hashable, Sendable {
    /// Base register.
    public var base: GeneralRegister
    /// Index register and its scale (1, 2, 4 or 8); `rsp` cannot be an index.
    public var index: (register: GeneralRegister, scale: UInt8)? {
        get { indexRegister.map { ($0, scale) } }
        set { indexRegister = newValue?.register; scale = newValue?.scale ?? 1 }
    }
    /// Signed 32-bit displacement.
    public var displacement: Int32
    /// EVEX embedded broadcast of one element.
    public var broadcast: Bool

    /// The index register, if any (its bits go into the prefixes and SIB).
    private(set) var indexRegister: GeneralRegister?
    private var scale: UInt8 = 1

    /// `[base + disp]`, or `[base + index·scale + disp]`.
    /// Preconditions: `scale` is 1, 2, 4 or 8; `index` is not `rsp`.
    public init(base: GeneralRegister, index: GeneralRegister? = nil, scale: UInt8 = 1, displacement: Int32 = 0,
                broadcast: Bool = false) {
        precondition([1, 2, 4, 8].contains(scale), "scale must be 1, 2, 4 or 8")
        precondition(index != .rsp, "rsp cannot be an index register")
        self.base = base
        self.indexRegister = index
        self.scale = scale
        self.displacement = displacement
        self.broadcast = broadcast
    }

    /// `[base + disp]`.
    public static func mem(_ base: GeneralRegister, disp: Int32 = 0) -> MemoryOperand {
        MemoryOperand(base: base, displacement: disp)
    }

    /// `[base + index·scale + disp]`.
    public static func mem(_ base: GeneralRegister, index: GeneralRegister, scale: UInt8, disp: Int32 = 0) -> MemoryOperand {
        MemoryOperand(base: base, index: index, scale: scale, displacement: disp)
    }

    /// `[base + disp]{1toN}`: one 32-bit (or 64-bit, by the instruction's W) element broadcast.
    public static func broadcast(_ base: GeneralRegister, disp: Int32 = 0) -> MemoryOperand {
        MemoryOperand(base: base, displacement: disp, broadcast: true)
    }

    /// The scale's two-bit SIB field.
    var scaleBits: UInt8 { UInt8(scale.trailingZeroBitCount) }
}

/// A vector-indexed memory operand `[base + index·scale + displacement]` (VSIB): one address per
/// lane of `index`, whose lanes (32- or 64-bit, by the gather) are signed offsets. Gathers take it.
public struct VectorIndexedMemory: Hashable, Sendable {
    /// Base register.
    public var base: GeneralRegister
    /// The vector of per-lane indices (its number goes into the SIB byte and EVEX.X/V').
    public var index: VectorRegister
    /// Signed 32-bit displacement.
    public var displacement: Int32
    private var scale: UInt8

    /// `[base + index·scale + disp]`. Precondition: `scale` is 1, 2, 4 or 8.
    public static func mem(_ base: GeneralRegister, index: VectorRegister, scale: UInt8, disp: Int32 = 0) -> VectorIndexedMemory {
        precondition([1, 2, 4, 8].contains(scale), "scale must be 1, 2, 4 or 8")
        return VectorIndexedMemory(base: base, index: index, displacement: disp, scale: scale)
    }

    /// The scale's two-bit SIB field.
    var scaleBits: UInt8 { UInt8(scale.trailingZeroBitCount) }
}
