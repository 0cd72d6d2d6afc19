import TFLiteKernels
import TFLiteSchema

/// EXPAND_DIMS: inserts a size-1 dimension at the constant axis (input 1; -1 = last).
final class ExpandDimsOperator: OperatorKernel {
    func prepare(_ node: NodeContext) throws {
        let op = "EXPAND_DIMS"
        let input = try node.input(0)
        let output = try node.output(0)
        let axisValues = try DataMovementSupport.constantIntegers(try node.input(1), op)
        guard axisValues.count == 1 else { throw InterpreterError.invalidModel("\(op): axis must be a scalar") }
        let rank = input.shape.count
        var axis = axisValues[0]
        if axis < 0 { axis += rank + 1 }
        guard axis >= 0, axis <= rank else { throw InterpreterError.invalidModel("\(op): axis \(axisValues[0]) out of range") }
        var shape = input.shape
        shape.insert(1, at: axis)
        output.shape = shape
        try DataMovementSupport.requireSameType(input, output, op)
        DataMovementSupport.inheritQuantization(from: input, to: output)
    }

    func invoke(_ node: NodeContext) throws { try ByteCopy.run(try node.input(0), try node.output(0), "EXPAND_DIMS") }
}
