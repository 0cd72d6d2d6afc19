import TFLiteKernels
import TFLiteSchema

/// GATHER_ND: slices picked by index tuples (the indices' last dimension). Out-of-range
/// indices fail the invoke.
final class GatherNdOperator: OperatorKernel {
    private var depth = 0, indexCount = 0, elementSize = 0

    func prepare(_ node: NodeContext) throws {
        let op = "GATHER_ND"
        let params = try node.input(0), indices = try node.input(1)
        let output = try node.output(0)
        guard indices.type == .int32 || indices.type == .int64, let last = indices.shape.last else {
            throw InterpreterError.invalidModel("\(op): indices must be int32/int64 with rank ≥ 1")
        }
        guard last <= params.shape.count, last >= 0 else {
            throw InterpreterError.invalidModel("\(op): index depth \(last) exceeds rank \(params.shape.count)")
        }
        depth = last
        indexCount = indices.shape.dropLast().reduce(1, *)
        elementSize = try DataMovementSupport.elementSize(params, op)
        try DataMovementSupport.requireSameType(params, output, op)
        DataMovementSupport.inheritQuantization(from: params, to: output)
        output.shape = try DataMovementSupport.checkedShape(Array(indices.shape.dropLast()) + Array(params.shape[last...]), op)
    }

    func invoke(_ node: NodeContext) throws {
        let op = "GATHER_ND"
        let params = try node.input(0), indices = try node.input(1), output = try node.output(0)
        guard output.elementCount > 0 else { return }
        let src = try DataMovementSupport.data(params, op), dst = try DataMovementSupport.data(output, op)
        _ = try DataMovementSupport.data(indices, op)
        let bad = indices.type == .int64
            ? GatherReference.runND(inputShape: params.shape, depth: depth, indexCount: indexCount,
                           indices: try indices.view(as: Int64.self, op).base, elementSize: elementSize, input: src, output: dst)
            : GatherReference.runND(inputShape: params.shape, depth: depth, indexCount: indexCount,
                           indices: try indices.view(as: Int32.self, op).base, elementSize: elementSize, input: src, output: dst)
        if let bad { throw InterpreterError.invocationFailed("\(op): index tuple \(bad) is outside \(params.shape)") }
    }
}
