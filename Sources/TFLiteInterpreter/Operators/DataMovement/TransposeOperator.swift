import TFLiteKernels
import TFLiteSchema

/// TRANSPOSE: permutes dimensions by the constant `perm` tensor (input 1), rank ≤ 6.
/// Runs the simplified-permutation kernel (row copies, tiled 2-D transpose, else reference).
final class TransposeOperator: OperatorKernel {
    private var plan: BlockedTransposePlan?
    private var elementSize = 0

    func prepare(_ node: NodeContext) throws {
        let op = "TRANSPOSE"
        let input = try node.input(0)
        let output = try node.output(0)
        let perm = try DataMovementSupport.constantIntegers(try node.input(1), op)
        guard let plan = BlockedTransposePlan(inputShape: input.shape, permutation: perm) else {
            throw InterpreterError.invalidModel("\(op): \(perm) is not a permutation of rank \(input.shape.count) (max 6)")
        }
        elementSize = try DataMovementSupport.elementSize(input, op)
        try DataMovementSupport.requireSameType(input, output, op)
        DataMovementSupport.inheritQuantization(from: input, to: output)
        output.shape = plan.outputShape
        self.plan = plan
    }

    func invoke(_ node: NodeContext) throws {
        let op = "TRANSPOSE"
        guard let plan else { throw InterpreterError.allocateTensorsRequired }
        let output = try node.output(0)
        guard output.elementCount > 0 else { return }
        let input = try node.input(0)
        let src = UnsafeRawPointer(try DataMovementSupport.data(input, op)), dst = try DataMovementSupport.data(output, op)
        let size = elementSize
        let units = TransposeOptimized.workUnits(plan, elementSize: size)
        let minUnits = WorkSplitPolicy.movedBytesMinChunk(unitBytes: TransposeOptimized.unitBytes(plan, elementSize: size))
        node.threads.parallelFor(units, minChunk: minUnits) { r in
            TransposeOptimized.run(plan, units: r, elementSize: size, input: src, output: dst)
        }
    }
}
