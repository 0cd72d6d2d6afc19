import TFLiteKernels
import TFLiteSchema

/// STRIDED_SLICE: constant begin/end/strides tensors (inputs 1–3) and `StridedSliceOptions`
/// (the masks and `offset`).
final class StridedSliceOperator: OperatorKernel {
    private var plan: StridedSlicePlan?
    private var elementSize = 0

    func prepare(_ node: NodeContext) throws {
        let op = "STRIDED_SLICE"
        let input = try node.input(0)
        let output = try node.output(0)
        let begin = try DataMovementSupport.constantIntegers(try node.input(1), op)
        let end = try DataMovementSupport.constantIntegers(try node.input(2), op)
        let strides = try DataMovementSupport.constantIntegers(try node.input(3), op)
        let o = try node.options(StridedSliceOptions.self)
        let parameters = StridedSliceParameters(
            begin: begin.map { Int32(clamping: $0) }, end: end.map { Int32(clamping: $0) },
            strides: strides.map { Int32(clamping: $0) },
            beginMask: o.beginMask, endMask: o.endMask, ellipsisMask: o.ellipsisMask,
            newAxisMask: o.newAxisMask, shrinkAxisMask: o.shrinkAxisMask, offset: o.offset)
        let plan: StridedSlicePlan
        do { plan = try StridedSlicePlan(inputShape: input.shape, parameters: parameters) } catch {
            throw InterpreterError.invalidModel(error.message)
        }
        elementSize = try DataMovementSupport.elementSize(input, op)
        try DataMovementSupport.requireSameType(input, output, op)
        DataMovementSupport.inheritQuantization(from: input, to: output)
        output.shape = plan.outputShape
        self.plan = plan
    }

    func invoke(_ node: NodeContext) throws {
        let op = "STRIDED_SLICE"
        guard let plan else { throw InterpreterError.allocateTensorsRequired }
        let output = try node.output(0)
        guard output.elementCount > 0 else { return }
        DataMovementSupport.copyWindow(plan.window, elementSize: elementSize,
                                       input: try DataMovementSupport.data(try node.input(0), op),
                                       output: try DataMovementSupport.data(output, op), threads: node.threads)
    }
}
