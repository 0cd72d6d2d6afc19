import TFLiteKernels
import TFLiteSchema

/// RESHAPE: same elements, new shape — from the constant shape tensor (input 1), else from
/// `ReshapeOptions.newShape`, else (shape computed at run time) the model's declared
/// output shape; one -1 is inferred.
final class ReshapeOperator: OperatorKernel {
    func prepare(_ node: NodeContext) throws {
        let op = "RESHAPE"
        let input = try node.input(0)
        let output = try node.output(0)
        var requested: [Int]
        let newShapeOption = try node.options(ReshapeOptions.self).newShape.map { Int($0) }
        let shapeTensor = node.inputs.count >= 2 ? node.inputs[1] : nil
        if let shapeTensor, shapeTensor.shape.count == 1, shapeTensor.isConstant {
            requested = try DataMovementSupport.constantIntegers(shapeTensor, op)
        } else if !newShapeOption.isEmpty {
            requested = newShapeOption
            // Legacy form: new_shape [0] stands for a scalar.
            if requested == [0] && input.elementCount == 1 { requested = [] }
        } else if shapeTensor != nil || node.options == nil {
            // The shape is computed at run time (or given nowhere): use the model's declared
            // output shape when it holds the input's elements.
            requested = output.shape
            guard output.shape.reduce(1, *) == input.elementCount else {
                throw InterpreterError.invalidModel(
                    "\(op): the shape tensor is not constant and the declared output shape \(output.shape) " +
                    "does not hold \(input.elementCount) elements")
            }
        } else {
            requested = []
        }
        output.shape = try Self.resolve(requested, elementCount: input.elementCount, op)
        try DataMovementSupport.requireSameType(input, output, op)
        DataMovementSupport.inheritQuantization(from: input, to: output)
    }

    /// Replaces a single -1 by the size that keeps `elementCount` elements.
    static func resolve(_ shape: [Int], elementCount: Int, _ op: String) throws -> [Int] {
        var result = shape
        var stretch: Int?
        var known = 1
        for (i, d) in shape.enumerated() {
            if d == -1 {
                guard stretch == nil else { throw InterpreterError.invalidShape("\(op): more than one -1 in \(shape)") }
                stretch = i
            } else {
                guard d >= 0 else { throw InterpreterError.invalidShape("\(op): negative dimension in \(shape)") }
                known = known.multipliedReportingOverflow(by: d).overflow ? Int.max : known * d
            }
        }
        if let i = stretch {
            guard known > 0, elementCount % known == 0 else {
                throw InterpreterError.invalidShape("\(op): cannot infer -1 in \(shape) for \(elementCount) elements")
            }
            result[i] = elementCount / known
        }
        guard result.reduce(1, { $0.multipliedReportingOverflow(by: $1).overflow ? -1 : $0 * $1 }) == elementCount else {
            throw InterpreterError.invalidShape("\(op): shape \(shape) does not hold \(elementCount) elements")
        }
        return result
    }

    func invoke(_ node: NodeContext) throws {
        try ByteCopy.run(try node.input(0), try node.output(0), "RESHAPE")
    }
}
