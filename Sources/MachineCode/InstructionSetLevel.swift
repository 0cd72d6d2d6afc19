/// The vector instruction-set levels the generated kernels target, lowest first. Each level
/// includes the ones below it.
public enum InstructionSetLevel: Int, Comparable, CaseIterable, Sendable, CustomStringConvertible {
    /// The x86-64 baseline: no generated kernels (the portable Swift kernels run).
    case sse2
    /// AVX2 with FMA3 and OS support for ymm state.
    case avx2
    /// `avx2` plus AVX-VNNI (the VEX `vpdpbusd` / `vpdpwssd` on ymm), as on desktop cores without
    /// AVX-512. Higher levels use AVX-VNNI too where the CPU has it.
    case avxvnni
    /// AVX-512 F, BW, DQ and VL with OS support for zmm and opmask state.
    case avx512
    /// `avx512` plus AVX512-VNNI (`vpdpbusd`, `vpdpwssd` on zmm).
    case avx512vnni

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// The name `LITEVISION_ISA` takes.
    public var description: String {
        switch self {
        case .sse2: "sse2"
        case .avx2: "avx2"
        case .avxvnni: "avxvnni"
        case .avx512: "avx512"
        case .avx512vnni: "avx512vnni"
        }
    }

    /// The level named `name` (as `LITEVISION_ISA` spells it), or nil.
    public init?(name: String) {
        guard let level = Self.allCases.first(where: { $0.description == name.lowercased() }) else { return nil }
        self = level
    }

    /// Levels whose generated kernels have run and passed the kernel tests on real hardware.
    /// Higher levels are used only when `LITEVISION_ISA` names them explicitly, until a test run
    /// on such a CPU has verified them. Every level is verified: AVX2 on AMD Zen 3; AVX-VNNI,
    /// AVX-512 and AVX512-VNNI on Intel Xeon (family 6 model 207), each with the kernel and model
    /// test suites run at that level. (An array: a `Set` would cost each process a runtime
    /// conformance lookup at its first model's prepare.)
    public static let verifiedOnHardware: [InstructionSetLevel] = [.sse2, .avx2, .avxvnni, .avx512, .avx512vnni]
}
