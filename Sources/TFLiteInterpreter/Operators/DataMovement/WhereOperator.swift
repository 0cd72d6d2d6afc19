import TFLiteKernels
import TFLiteSchema

/// WHERE (one input): int64 coordinates `[count, rank]` of the true / non-zero elements.
/// The output shape depends on the values, so the input must be constant (then the
/// interpreter folds the operator at prepare).
final class WhereOperator: OperatorKernel {
    func prepare(_ node: NodeContext) throws {
        let op = "WHERE"
        let input = try node.input(0)
        let output = try node.output(0)
        guard node.inputs.count == 1 else { throw InterpreterError.invalidModel("\(op): only the one-input form is supported") }
        guard input.isConstant, input.elementCount == 0 || input.data != nil else {
            throw InterpreterError.invalidModel("\(op): input '\(input.name)' must be constant (the output shape depends on its values)")
        }
        guard output.type == .int64, let size = input.type.byteSize, ElementSize.isSupported(size) else {
            throw InterpreterError.invalidModel("\(op): unsupported types")
        }
        output.shape = [nonZeroPositions(input).count, input.shape.count]
    }

    /// Flat positions of the elements with any non-zero byte (bool true, non-zero numbers;
    /// -0.0 counts as non-zero only for its sign bit, so it is treated as zero below).
    private func nonZeroPositions(_ input: RuntimeTensor) -> [Int] {
        guard let data = input.data, let size = input.type.byteSize else { return [] }
        var positions: [Int] = []
        for i in 0..<input.elementCount {
            let p = data + i * size
            let nonZero: Bool
            switch input.type {
            case .float32: nonZero = p.load(as: Float.self) != 0
            case .float64: nonZero = p.load(as: Double.self) != 0
            default: nonZero = (0..<size).contains { p.load(fromByteOffset: $0, as: UInt8.self) != 0 }
            }
            if nonZero { positions.append(i) }
        }
        return positions
    }

    func invoke(_ node: NodeContext) throws {
        let input = try node.input(0), output = try node.output(0)
        guard output.elementCount > 0 else { return }
        let dst = try DataMovementSupport.data(output, "WHERE").assumingMemoryBound(to: Int64.self)
        let strides = IndexedCopyPlan.strides(input.shape)
        let rank = input.shape.count
        for (row, position) in nonZeroPositions(input).enumerated() {
            var rest = position
            for d in 0..<rank {
                dst[row * rank + d] = Int64(rest / strides[d])
                rest %= strides[d]
            }
        }
    }
}
