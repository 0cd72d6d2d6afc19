import MachineCode
import TFLiteKernels

/// `tflite-dump --engine`: what runtime CPU dispatch chose on this machine.
struct EngineDispatchReport {
    func render() -> String {
        let policy = CodeGenerationPolicy.current
        var lines = ["engine:"]
        lines.append("  cpu features: \(CPUFeatures.current.map { "\($0)" } ?? "unknown (not x86-64, or no executable memory)")")
        lines.append("  cpu level: \(CPUFeatures.current?.supportedLevel.description ?? "none")")
        lines.append("  kernel level: \(policy.level) (\(policy.reason))")
        if let kernels = GeneratedKernels.current {
            lines.append("  generated kernels: \(kernels.kernelNames.joined(separator: ", "))")
        } else {
            lines.append("  generated kernels: none (portable Swift kernels)")
        }
        lines.append("  switches: LITEVISION_JIT=0 (portable kernels), LITEVISION_ISA=sse2|avx2|avxvnni|avx512|avx512vnni (cap)")
        return lines.joined(separator: "\n")
    }
}
