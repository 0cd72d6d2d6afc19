import TFLiteKernels
import TFLiteSchema

/// Copies a tensor's bytes unchanged into the output (skipped when the planner placed both
/// in the same memory); shared by the shape-only operators.
enum ByteCopy {
    /// Copies `input` to `output` (same byte count).
    static func run(_ input: RuntimeTensor, _ output: RuntimeTensor, _ op: String) throws {
        let n = output.byteCount
        guard n > 0 else { return }
        guard input.byteCount == n else {
            throw InterpreterError.invocationFailed("\(op): input and output sizes differ")
        }
        let src = try DataMovementSupport.data(input, op), dst = try DataMovementSupport.data(output, op)
        if src != dst { dst.copyMemory(from: src, byteCount: n) }
    }
}
