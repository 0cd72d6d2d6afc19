import TFLiteKernels
import TFLiteSchema

/// GATHER: slices along `axis` picked by int32/int64 indices, with `batch_dims`
/// (`GatherOptions`: axis, batch_dims). Out-of-range indices fail the invoke.
final class GatherOperator: OperatorKernel {
    private var batchCount = 0, outerCount = 0, axisSize = 0, innerCount = 0, coordinateCount = 0
    private var elementSize = 0

    func prepare(_ node: NodeContext) throws {
        let op = "GATHER"
        let params = try node.input(0), indices = try node.input(1)
        let output = try node.output(0)
        guard indices.type == .int32 || indices.type == .int64 else {
            throw InterpreterError.invalidModel("\(op): indices must be int32 or int64")
        }
        let rank = params.shape.count
        let options = try node.options(GatherOptions.self)
        let axis = try DataMovementSupport.normalizedAxis(Int(options.axis), rank: rank, op)
        var batchDims = Int(options.batchDims)
        if batchDims < 0 { batchDims += indices.shape.count }
        guard batchDims >= 0, batchDims <= axis, batchDims <= indices.shape.count else {
            throw InterpreterError.invalidModel("\(op): batch_dims \(batchDims) invalid for axis \(axis)")
        }
        for d in 0..<batchDims where params.shape[d] != indices.shape[d] {
            throw InterpreterError.invalidShape("\(op): batch dimension \(d) differs")
        }
        batchCount = params.shape[..<batchDims].reduce(1, *)
        outerCount = params.shape[batchDims..<axis].reduce(1, *)
        axisSize = params.shape[axis]
        innerCount = params.shape[(axis + 1)...].reduce(1, *)
        coordinateCount = indices.shape[batchDims...].reduce(1, *)
        elementSize = try DataMovementSupport.elementSize(params, op)
        try DataMovementSupport.requireSameType(params, output, op)
        DataMovementSupport.inheritQuantization(from: params, to: output)
        output.shape = try DataMovementSupport.checkedShape(
            Array(params.shape[..<axis]) + Array(indices.shape[batchDims...]) + Array(params.shape[(axis + 1)...]), op)
    }

    func invoke(_ node: NodeContext) throws {
        let op = "GATHER"
        let params = try node.input(0), indices = try node.input(1), output = try node.output(0)
        guard output.elementCount > 0 else { return }
        let src = try DataMovementSupport.data(params, op), dst = try DataMovementSupport.data(output, op)
        _ = try DataMovementSupport.data(indices, op)
        let bad: Int?
        if indices.type == .int64 {
            bad = GatherReference.run(batchCount: batchCount, outerCount: outerCount, axisSize: axisSize, innerCount: innerCount,
                             coordinateCount: coordinateCount, indices: try indices.view(as: Int64.self, op).base,
                             elementSize: elementSize, input: src, output: dst)
        } else {
            bad = GatherReference.run(batchCount: batchCount, outerCount: outerCount, axisSize: axisSize, innerCount: innerCount,
                             coordinateCount: coordinateCount, indices: try indices.view(as: Int32.self, op).base,
                             elementSize: elementSize, input: src, output: dst)
        }
        if let bad { throw InterpreterError.invocationFailed("\(op): index at position \(bad) is outside 0..<\(axisSize)") }
    }
}
