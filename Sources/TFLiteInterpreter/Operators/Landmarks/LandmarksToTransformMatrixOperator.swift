import TFLiteKernels
import TFLiteSchema

/// MediaPipe's `Landmarks2TransformMatrix` (version 2): landmarks `[1, N, 3]` float32 → the
/// 4 × 4 matrix `[1, 4, 4]` that maps a crop around a landmark subset into the input; options
/// ``LandmarksToTransformMatrixOptions``. Kernel: ``LandmarksToTransformMatrixReference``.
final class LandmarksToTransformMatrixOperator: OperatorKernel {
    private static let op = "Landmarks2TransformMatrix"
    private var parameters: LandmarksToTransformMatrixParameters?

    func prepare(_ node: NodeContext) throws {
        let op = Self.op
        try LandmarksSupport.checkNode(node, inputs: 1)
        let input = try node.input(0), output = try node.output(0)
        try ConvSupport.requireRank(input, 3, "landmarks", op: op)
        let o: LandmarksToTransformMatrixOptions
        do { o = try LandmarksToTransformMatrixOptions(customOptions: node.customOptions) } catch let error as TFLiteSchemaError {
            throw InterpreterError.invalidModel(error.description)
        }
        let p = LandmarksToTransformMatrixParameters(
            subsetIndices: o.subsetIndices, leftRotationIndex: o.leftRotationIndex, rightRotationIndex: o.rightRotationIndex,
            targetRotationRadians: o.targetRotationRadians, outputWidth: o.outputWidth, outputHeight: o.outputHeight,
            scaleX: o.scaleX, scaleY: o.scaleY)
        guard !p.subsetIndices.isEmpty, p.subsetIndices.allSatisfy({ $0 >= 0 }), p.leftRotationIndex >= 0, p.rightRotationIndex >= 0 else {
            throw InterpreterError.invalidModel("\(op): subset_idxs must be non-empty and every index non-negative")
        }
        // MediaPipe reads landmark i at 3·i whatever the last dimension; so does the kernel.
        guard p.largestIndex < input.elementCount / 3 else {
            throw InterpreterError.invalidModel("\(op): landmark index \(p.largestIndex) is past the \(input.elementCount / 3) landmarks of \(input.shape)")
        }
        guard p.outputWidth > 0, p.outputHeight > 0, p.scaleX > 0, p.scaleY > 0 else {
            throw InterpreterError.invalidModel("\(op): output size \(p.outputWidth)×\(p.outputHeight) and scales \(p.scaleX), \(p.scaleY) must be positive")
        }
        parameters = p
        output.type = .float32
        output.shape = [1, 4, 4]
    }

    func invoke(_ node: NodeContext) throws {
        guard let parameters else { throw InterpreterError.invocationFailed("\(Self.op): not prepared") }
        LandmarksToTransformMatrixReference.run(parameters, landmarks: try node.input(0).view(as: Float.self, Self.op).base,
                                                output: try node.output(0).mutableView(as: Float.self, Self.op).base)
    }
}
