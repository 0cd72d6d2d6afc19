import TFLiteKernels
import TFLiteSchema

/// MediaPipe's `TransformTensorBilinear` (version 2): a feature map `[1, H, W, C]` float32 and a
/// 4 × 4 matrix → the crop the matrix maps, sampled bilinearly, with the shape the model gives
/// the output (`[1, h, w, c]`, `c ≤ C`; MediaPipe does not resize it). Kernel:
/// ``TransformTensorBilinearReference``.
final class TransformTensorBilinearOperator: OperatorKernel {
    private static let op = "TransformTensorBilinear"

    func prepare(_ node: NodeContext) throws {
        let op = Self.op
        try LandmarksSupport.checkTransformNode(node)
        let input = try node.input(0), output = try node.output(0)
        try LandmarksSupport.checkBatchOne(input, rank: 4, "input", op: op)
        try LandmarksSupport.checkBatchOne(output, rank: 4, "output", op: op)
        guard output.shape[3] <= input.shape[3] else {
            throw InterpreterError.invalidShape("\(op): output \(output.shape) has more channels than input \(input.shape)")
        }
        output.type = .float32
    }

    func invoke(_ node: NodeContext) throws {
        let op = Self.op
        let input = try node.input(0), output = try node.output(0)
        let (i, o) = (input.shape, output.shape)
        TransformTensorBilinearReference.run(
            inputHeight: i[1], inputWidth: i[2], inputChannels: i[3], input: try input.view(as: Float.self, op).base,
            matrix: try node.input(1).view(as: Float.self, op).base,
            outputHeight: o[1], outputWidth: o[2], outputChannels: o[3], output: try output.mutableView(as: Float.self, op).base)
    }
}
