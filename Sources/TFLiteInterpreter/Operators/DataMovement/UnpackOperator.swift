import TFLiteKernels
import TFLiteSchema

/// UNPACK: splits the input along an axis into `num` outputs without that axis
/// (`UnpackOptions.axis`).
final class UnpackOperator: OperatorKernel {
    private var outerCount = 0
    private var innerByteCounts: [Int] = []
    private var outputPointers: [UnsafeMutableRawPointer] = []

    func prepare(_ node: NodeContext) throws {
        let op = "UNPACK"
        let input = try node.input(0)
        let rank = input.shape.count
        let axis = try DataMovementSupport.normalizedAxis(Int(try node.options(UnpackOptions.self).axis), rank: rank, op)
        let count = input.shape[axis]
        guard node.outputs.count == count else {
            throw InterpreterError.invalidModel("\(op): \(node.outputs.count) outputs for dimension \(count)")
        }
        var shape = input.shape
        shape.remove(at: axis)
        for output in node.outputs {
            try DataMovementSupport.requireSameType(input, output, op)
            DataMovementSupport.inheritQuantization(from: input, to: output)
            output.shape = shape
        }
        let elementSize = try DataMovementSupport.elementSize(input, op)
        outerCount = input.shape[..<axis].reduce(1, *)
        innerByteCounts = [Int](repeating: input.shape[(axis + 1)...].reduce(1, *) * elementSize, count: count)
        outputPointers = []
        outputPointers.reserveCapacity(count)
    }

    func invoke(_ node: NodeContext) throws {
        let op = "UNPACK"
        let input = try node.input(0)
        guard input.elementCount > 0 else { return }
        outputPointers.removeAll(keepingCapacity: true)
        for output in node.outputs { outputPointers.append(try DataMovementSupport.data(output, op)) }
        SplitReference.run(outerCount: outerCount, innerByteCounts: innerByteCounts,
                  input: try DataMovementSupport.data(input, op), outputs: outputPointers)
    }
}
