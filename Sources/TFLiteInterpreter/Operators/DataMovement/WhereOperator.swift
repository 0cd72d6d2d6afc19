import TFLiteKernels
import TFLiteSchema

/// WHERE (one input): int64 coordinates `[count, rank]` of the true / non-zero elements, in
/// row-major order. The output shape depends on the values:
/// - on a constant input it is exact at prepare (and the interpreter folds the operator at load);
/// - on a computed input, prepare plans the largest possible output, `[elementCount, rank]`,
///   and reports invoke-time shapes; invoke then counts, sets the real shape through the
///   ``ExecutionHost`` (which never allocates, since it fits the plan) and writes the rows.
final class WhereOperator: HostedKernel {
    private weak var host: ExecutionHost?
    private var dynamic = false
    /// Row-major strides of the input, from prepare.
    private var strides: [Int] = []

    func attach(_ host: ExecutionHost) { self.host = host }
    func hasInvokeTimeShapes(_ node: NodeContext) -> Bool { dynamic }

    func prepare(_ node: NodeContext) throws {
        let op = "WHERE"
        let input = try node.input(0)
        let output = try node.output(0)
        guard node.inputs.count == 1 else { throw InterpreterError.invalidModel("\(op): only the one-input form is supported") }
        guard output.type == .int64, let size = input.type.byteSize, ElementSize.isSupported(size) else {
            throw InterpreterError.invalidModel("\(op): unsupported types")
        }
        strides = IndexedCopyPlan.strides(input.shape)
        if input.isConstant, input.elementCount == 0 || input.data != nil {
            dynamic = false
            output.shape = [nonZeroCount(input), input.shape.count]
        } else {
            dynamic = true
            output.shape = [input.elementCount, input.shape.count]
        }
    }

    /// Whether element `i` of `input` is true / non-zero (-0.0 counts as zero).
    @inline(__always)
    private func isNonZero(_ input: RuntimeTensor, _ data: UnsafeMutableRawPointer, _ size: Int, _ i: Int) -> Bool {
        let p = data + i * size
        switch input.type {
        case .float32: return p.load(as: Float.self) != 0
        case .float64: return p.load(as: Double.self) != 0
        default: return (0..<size).contains { p.load(fromByteOffset: $0, as: UInt8.self) != 0 }
        }
    }

    private func nonZeroCount(_ input: RuntimeTensor) -> Int {
        guard let data = input.data, let size = input.type.byteSize else { return 0 }
        var count = 0
        for i in 0..<input.elementCount where isNonZero(input, data, size, i) { count += 1 }
        return count
    }

    func invoke(_ node: NodeContext) throws {
        let input = try node.input(0), output = try node.output(0)
        // An input without data is an error here, not zero true elements (`nonZeroCount`).
        if input.elementCount > 0 { _ = try DataMovementSupport.data(input, "WHERE") }
        let rank = input.shape.count
        let count = nonZeroCount(input)
        if output.shape.count != 2 || output.shape[0] != count || output.shape[1] != rank {
            guard let host else {
                throw InterpreterError.invocationFailed("WHERE: output '\(output.name)' needs shape [\(count), \(rank)] at invoke")
            }
            try host.resizeOutput(output, to: [count, rank])
        }
        guard count > 0, rank > 0 else { return }
        // Both present: the data was checked above, the element size at prepare.
        guard let data = input.data, let size = input.type.byteSize else {
            throw InterpreterError.invocationFailed("WHERE: input '\(input.name)' has no data or no element size")
        }
        _ = try DataMovementSupport.data(output, "WHERE")
        let dst = try output.mutableView(as: Int64.self, "WHERE")
        var row = 0
        for position in 0..<input.elementCount where isNonZero(input, data, size, position) {
            var rest = position
            for d in 0..<rank {
                dst[row * rank + d] = Int64(rest / strides[d])
                rest %= strides[d]
            }
            row += 1
        }
    }
}
