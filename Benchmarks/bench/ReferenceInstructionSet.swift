import ArgumentParser
import MachineCode

/// Which vector instruction sets the reference runtime's kernels may use in `--compare`
/// (`--reference-isa`), so that a ratio compares engines running the same instructions.
enum ReferenceInstructionSet: Equatable, ExpressibleByArgument {
    /// The level our generated kernels run at, whenever that is below the CPU's (capped by
    /// `LITEVISION_ISA`, or `sse2` under `LITEVISION_JIT=0`); otherwise uncapped. The default.
    case automatic
    /// Whatever the CPU has.
    case native
    /// This level (`LITEVISION_ISA`'s names).
    case level(InstructionSetLevel)

    init?(argument: String) {
        switch argument {
        case "auto": self = .automatic
        case "native": self = .native
        default:
            guard let level = InstructionSetLevel(name: argument) else { return nil }
            self = .level(level)
        }
    }

    /// The level to cap the reference at (`Scripts/reference-bench.py --cap-isa`), or nil for
    /// none, given our code-generation `policy` and the CPU's `supported` level.
    func cap(policy: CodeGenerationPolicy, supported: InstructionSetLevel?) -> InstructionSetLevel? {
        switch self {
        case .native: return nil
        case .level(let level): return level
        case .automatic:
            guard let supported, policy.level < supported else { return nil }
            return policy.level
        }
    }
}
