import TFLiteKernels
import TFLiteSchema

/// SHAPE: the input's shape as an int32 or int64 vector (`ShapeOptions.outType`; absent, it
/// means int32 — the schema default FLOAT32 is never a valid shape type).
final class ShapeOperator: OperatorKernel {
    func prepare(_ node: NodeContext) throws {
        let input = try node.input(0)
        let output = try node.output(0)
        let declared = try node.options(ShapeOptions.self).outType
        let outType = declared == .float32 ? TensorType.int32 : declared
        guard outType == .int32 || outType == .int64, output.type == outType else {
            throw InterpreterError.invalidModel("SHAPE: output must be int32 or int64 matching out_type")
        }
        output.shape = [input.shape.count]
    }

    func invoke(_ node: NodeContext) throws {
        let input = try node.input(0), output = try node.output(0)
        guard output.elementCount > 0 else { return }
        _ = try DataMovementSupport.data(output, "SHAPE")
        if output.type == .int64 {
            let dst = try output.mutableView(as: Int64.self, "SHAPE")
            for (i, d) in input.shape.enumerated() { dst[i] = Int64(d) }
        } else {
            let dst = try output.mutableView(as: Int32.self, "SHAPE")
            for (i, d) in input.shape.enumerated() { dst[i] = Int32(truncatingIfNeeded: d) }
        }
    }
}
