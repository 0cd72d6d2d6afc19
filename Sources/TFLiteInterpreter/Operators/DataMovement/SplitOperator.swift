import TFLiteKernels
import TFLiteSchema

/// SPLIT (inputs: constant axis, tensor; `SplitOptions.numSplits`, when present, must equal
/// the output count) and SPLIT_V
/// (inputs: tensor, constant size_splits with at most one -1, constant axis).
final class SplitOperator: OperatorKernel {
    private let variableSizes: Bool
    private var outerCount = 0
    private var innerByteCounts: [Int] = []
    private var outputPointers: [UnsafeMutableRawPointer] = []

    /// Creates SPLIT (`variableSizes == false`) or SPLIT_V.
    init(variableSizes: Bool) { self.variableSizes = variableSizes }

    private var op: String { variableSizes ? "SPLIT_V" : "SPLIT" }

    func prepare(_ node: NodeContext) throws {
        let op = self.op
        let input = try node.input(variableSizes ? 0 : 1)
        let axisValues = try DataMovementSupport.constantIntegers(try node.input(variableSizes ? 2 : 0), op)
        guard axisValues.count == 1 else { throw InterpreterError.invalidModel("\(op): axis must be a scalar") }
        let rank = input.shape.count
        let axis = try DataMovementSupport.normalizedAxis(axisValues[0], rank: rank, op)
        let dim = input.shape[axis]
        let count = node.outputs.count
        guard count > 0 else { throw InterpreterError.invalidModel("\(op): no outputs") }
        var sizes: [Int]
        if variableSizes {
            sizes = try DataMovementSupport.constantIntegers(try node.input(1), op)
            guard sizes.count == count else {
                throw InterpreterError.invalidModel("\(op): \(sizes.count) sizes for \(count) outputs")
            }
            let unknown = sizes.indices.filter { sizes[$0] == -1 }
            guard unknown.count <= 1, sizes.allSatisfy({ $0 >= -1 }) else {
                throw InterpreterError.invalidModel("\(op): invalid size_splits \(sizes)")
            }
            if let u = unknown.first { sizes[u] = dim - sizes.filter { $0 != -1 }.reduce(0, +) }
            guard sizes.allSatisfy({ $0 >= 0 }), sizes.reduce(0, +) == dim else {
                throw InterpreterError.invalidModel("\(op): size_splits \(sizes) do not sum to \(dim)")
            }
        } else {
            let splits = node.options == nil ? count : Int(try node.options(SplitOptions.self).numSplits)
            guard splits == count, dim % count == 0 else {
                throw InterpreterError.invalidModel("\(op): dimension \(dim) does not split into \(count)")
            }
            sizes = [Int](repeating: dim / count, count: count)
        }
        let elementSize = try DataMovementSupport.elementSize(input, op)
        let inner = input.shape[(axis + 1)...].reduce(1, *)
        outerCount = input.shape[..<axis].reduce(1, *)
        innerByteCounts = sizes.map { $0 * inner * elementSize }
        for (k, output) in node.outputs.enumerated() {
            try DataMovementSupport.requireSameType(input, output, op)
            DataMovementSupport.inheritQuantization(from: input, to: output)
            var shape = input.shape
            shape[axis] = sizes[k]
            output.shape = shape
        }
        outputPointers = []
        outputPointers.reserveCapacity(count)
    }

    func invoke(_ node: NodeContext) throws {
        let op = self.op
        let input = try node.input(variableSizes ? 0 : 1)
        guard input.elementCount > 0 else { return }
        let src = try DataMovementSupport.data(input, op)
        outputPointers.removeAll(keepingCapacity: true)
        for output in node.outputs {
            outputPointers.append(output.elementCount == 0 ? src : try DataMovementSupport.data(output, op))
        }
        SplitReference.run(outerCount: outerCount, innerByteCounts: innerByteCounts, input: src, outputs: outputPointers)
    }
}
