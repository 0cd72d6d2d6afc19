#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether kernels are generated at run time, and for which instruction-set level.
///
/// The level is the CPU's (`CPUFeatures.current`), capped by `LITEVISION_ISA`
/// (`sse2|avx2|avxvnni|avx512|avx512vnni`) so lower-level kernels can be tested on a higher machine,
/// and by `InstructionSetLevel.verifiedOnHardware` unless `LITEVISION_ISA` names the level.
/// `LITEVISION_JIT=0` turns generation off: the portable Swift kernels run.
public struct CodeGenerationPolicy: Sendable, Equatable, CustomStringConvertible {
    /// The level generated kernels target; `.sse2` means none are generated.
    public var level: InstructionSetLevel
    /// Why the level is what it is (for `bench` and `tflite-dump --engine`).
    public var reason: String

    public init(level: InstructionSetLevel, reason: String) {
        self.level = level
        self.reason = reason
    }

    /// Whether any kernel is generated.
    public var generatesCode: Bool { level > .sse2 }

    public var description: String { "\(level) (\(reason))" }

    /// The policy for CPU `features` under environment `environment` (a pure function, for tests).
    public static func resolve(features: CPUFeatures?, environment: [String: String]) -> CodeGenerationPolicy {
        if let jit = environment["LITEVISION_JIT"], ["0", "off", "false", "no"].contains(jit.lowercased()) {
            return CodeGenerationPolicy(level: .sse2, reason: "LITEVISION_JIT=\(jit): portable kernels")
        }
        guard let features else {
            return CodeGenerationPolicy(level: .sse2, reason: "no x86-64 CPU features or no executable memory: portable kernels")
        }
        let cpu = features.supportedLevel
        if let requested = environment["LITEVISION_ISA"], !requested.isEmpty {
            guard let cap = InstructionSetLevel(name: requested) else {
                return CodeGenerationPolicy(level: min(cpu, verifiedCap(cpu)),
                                            reason: "LITEVISION_ISA=\(requested) is not one of sse2|avx2|avxvnni|avx512|avx512vnni; ignored")
            }
            return CodeGenerationPolicy(level: min(cpu, cap), reason: "CPU supports \(cpu), LITEVISION_ISA=\(cap)")
        }
        let level = verifiedCap(cpu)
        return CodeGenerationPolicy(level: level, reason: level == cpu ? "CPU supports \(cpu)"
                                    : "CPU supports \(cpu); \(cpu) kernels not yet verified on hardware, set LITEVISION_ISA=\(cpu) to use them")
    }

    private static func verifiedCap(_ cpu: InstructionSetLevel) -> InstructionSetLevel {
        InstructionSetLevel.allCases.filter { $0 <= cpu && InstructionSetLevel.verifiedOnHardware.contains($0) }.max() ?? .sse2
    }

    /// The policy of this process (read once).
    public static let current: CodeGenerationPolicy = {
        var environment: [String: String] = [:]
        for key in ["LITEVISION_JIT", "LITEVISION_ISA"] {
            if let value = getenv(key) { environment[key] = String(cString: value) }
        }
        return resolve(features: CPUFeatures.current, environment: environment)
    }()
}
