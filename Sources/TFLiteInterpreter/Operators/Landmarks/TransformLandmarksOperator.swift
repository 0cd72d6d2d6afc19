import TFLiteKernels
import TFLiteSchema

/// MediaPipe's `TransformLandmarks` (version 2): landmarks `[1, N, D]` float32 (D = 2 or 3) and
/// a 4 × 4 matrix → the landmarks mapped by it, same shape. Kernel: ``TransformLandmarksReference``.
final class TransformLandmarksOperator: OperatorKernel {
    private static let op = "TransformLandmarks"

    func prepare(_ node: NodeContext) throws {
        let op = Self.op
        try LandmarksSupport.checkTransformNode(node)
        let input = try node.input(0), output = try node.output(0)
        try LandmarksSupport.checkBatchOne(input, rank: 3, "landmarks", op: op)
        guard input.shape[2] == 2 || input.shape[2] == 3 else {
            throw InterpreterError.invalidShape("\(op): landmarks \(input.shape) must have 2 or 3 values each")
        }
        output.type = .float32
        output.shape = input.shape
    }

    func invoke(_ node: NodeContext) throws {
        let op = Self.op
        let input = try node.input(0)
        TransformLandmarksReference.run(count: input.shape[1], dimensions: input.shape[2],
                                        landmarks: try input.view(as: Float.self, op).base,
                                        matrix: try node.input(1).view(as: Float.self, op).base,
                                        output: try node.output(0).mutableView(as: Float.self, op).base)
    }
}
