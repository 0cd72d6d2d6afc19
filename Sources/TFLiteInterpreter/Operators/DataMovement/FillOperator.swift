import TFLiteKernels
import TFLiteSchema

/// FILL (constant dims, scalar value) and ZEROS_LIKE (zeros shaped like the input).
final class FillOperator: OperatorKernel {
    private let zerosLike: Bool
    private var elementSize = 0

    /// Creates FILL (`zerosLike == false`) or ZEROS_LIKE.
    init(zerosLike: Bool) { self.zerosLike = zerosLike }

    func prepare(_ node: NodeContext) throws {
        let op = zerosLike ? "ZEROS_LIKE" : "FILL"
        let output = try node.output(0)
        if zerosLike {
            let input = try node.input(0)
            try DataMovementSupport.requireSameType(input, output, op)
            output.shape = input.shape
        } else {
            let dims = try DataMovementSupport.checkedShape(try DataMovementSupport.constantIntegers(try node.input(0), op), op)
            let value = try node.input(1)
            guard value.elementCount == 1 else { throw InterpreterError.invalidModel("\(op): value must be a scalar") }
            try DataMovementSupport.requireSameType(value, output, op)
            DataMovementSupport.inheritQuantization(from: value, to: output)
            output.shape = dims
        }
        elementSize = try DataMovementSupport.elementSize(output, op)
    }

    func invoke(_ node: NodeContext) throws {
        let op = zerosLike ? "ZEROS_LIKE" : "FILL"
        let output = try node.output(0)
        let n = output.elementCount
        guard n > 0 else { return }
        let dst = try DataMovementSupport.data(output, op)
        if zerosLike {
            dst.initializeMemory(as: UInt8.self, repeating: 0, count: n * elementSize)
            return
        }
        let value = try DataMovementSupport.data(try node.input(1), op)
        for i in 0..<n { (dst + i * elementSize).copyMemory(from: value, byteCount: elementSize) }
    }
}
