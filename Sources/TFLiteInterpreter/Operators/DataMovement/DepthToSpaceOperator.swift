import TFLiteKernels
import TFLiteSchema

/// DEPTH_TO_SPACE and SPACE_TO_DEPTH on NHWC tensors (`DepthToSpaceOptions` / `SpaceToDepthOptions`.blockSize).
final class DepthToSpaceOperator: OperatorKernel {
    private let toSpace: Bool
    private var blockSize = 0
    private var elementSize = 0

    /// Creates DEPTH_TO_SPACE (`toSpace == true`) or SPACE_TO_DEPTH.
    init(toSpace: Bool) { self.toSpace = toSpace }

    private var op: String { toSpace ? "DEPTH_TO_SPACE" : "SPACE_TO_DEPTH" }

    func prepare(_ node: NodeContext) throws {
        let op = self.op
        let input = try node.input(0)
        let output = try node.output(0)
        guard input.shape.count == 4 else { throw InterpreterError.invalidModel("\(op): input must be 4-D") }
        let block = Int(toSpace ? try node.options(DepthToSpaceOptions.self).blockSize
                                : try node.options(SpaceToDepthOptions.self).blockSize)
        guard block > 0 else { throw InterpreterError.invalidModel("\(op): block_size must be positive") }
        let s = input.shape
        if toSpace {
            guard s[3] % (block * block) == 0 else {
                throw InterpreterError.invalidShape("\(op): depth \(s[3]) not divisible by \(block * block)")
            }
            output.shape = try DataMovementSupport.checkedShape([s[0], s[1] * block, s[2] * block, s[3] / (block * block)], op)
        } else {
            guard s[1] % block == 0, s[2] % block == 0 else {
                throw InterpreterError.invalidShape("\(op): height/width not divisible by \(block)")
            }
            output.shape = try DataMovementSupport.checkedShape([s[0], s[1] / block, s[2] / block, s[3] * block * block], op)
        }
        blockSize = block
        elementSize = try DataMovementSupport.elementSize(input, op)
        try DataMovementSupport.requireSameType(input, output, op)
        DataMovementSupport.inheritQuantization(from: input, to: output)
    }

    func invoke(_ node: NodeContext) throws {
        let op = self.op
        let input = try node.input(0), output = try node.output(0)
        guard output.elementCount > 0 else { return }
        let s = input.shape
        let src = try DataMovementSupport.data(input, op), dst = try DataMovementSupport.data(output, op)
        if toSpace {
            DepthToSpaceReference.run(batches: s[0], inputHeight: s[1], inputWidth: s[2], inputDepth: s[3],
                             blockSize: blockSize, elementSize: elementSize, input: src, output: dst)
        } else {
            SpaceToDepthReference.run(batches: s[0], inputHeight: s[1], inputWidth: s[2], inputDepth: s[3],
                             blockSize: blockSize, elementSize: elementSize, input: src, output: dst)
        }
    }
}
