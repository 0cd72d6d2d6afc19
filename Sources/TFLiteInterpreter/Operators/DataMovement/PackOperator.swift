import TFLiteKernels
import TFLiteSchema

/// PACK: stacks same-shaped inputs along a new axis (`PackOptions.axis`).
final class PackOperator: OperatorKernel {
    private var outerCount = 0
    private var innerByteCounts: [Int] = []
    private var inputPointers: [UnsafeRawPointer] = []

    func prepare(_ node: NodeContext) throws {
        let op = "PACK"
        let inputs = try (0..<node.inputs.count).map { try node.input($0) }
        guard let first = inputs.first else { throw InterpreterError.invalidModel("\(op): no inputs") }
        let output = try node.output(0)
        let rank = first.shape.count
        var axis = Int(try node.options(PackOptions.self).axis)
        if axis < 0 { axis += rank + 1 }
        guard axis >= 0, axis <= rank else { throw InterpreterError.invalidModel("\(op): axis out of range") }
        for t in inputs where t.shape != first.shape || t.type != first.type {
            throw InterpreterError.invalidShape("\(op): inputs differ in shape or type")
        }
        try DataMovementSupport.requireSameType(first, output, op)
        DataMovementSupport.inheritQuantization(from: first, to: output)
        var shape = first.shape
        shape.insert(inputs.count, at: axis)
        output.shape = try DataMovementSupport.checkedShape(shape, op)
        let elementSize = try DataMovementSupport.elementSize(first, op)
        outerCount = first.shape[..<axis].reduce(1, *)
        let inner = first.shape[axis...].reduce(1, *)
        innerByteCounts = [Int](repeating: inner * elementSize, count: inputs.count)
        inputPointers = []
        inputPointers.reserveCapacity(inputs.count)
    }

    func invoke(_ node: NodeContext) throws {
        let op = "PACK"
        let output = try node.output(0)
        guard output.elementCount > 0 else { return }
        inputPointers.removeAll(keepingCapacity: true)
        for i in 0..<node.inputs.count { inputPointers.append(UnsafeRawPointer(try DataMovementSupport.data(try node.input(i), op))) }
        ConcatenationReference.run(outerCount: outerCount, innerByteCounts: innerByteCounts, inputs: inputPointers,
                          output: try DataMovementSupport.data(output, op))
    }
}
