import TFLiteSchema

extension OperatorRegistry {
    /// MediaPipe's custom operators of its attention face mesh (`face_landmark_with_attention`):
    /// crops around landmark groups (lips, eyes, irises) and their landmarks mapped back.
    static let landmarksCustomFamily: [String: OperatorFactory] = [
        "Landmarks2TransformMatrix": { LandmarksToTransformMatrixOperator() },
        "TransformTensorBilinear": { TransformTensorBilinearOperator() },
        "TransformLandmarks": { TransformLandmarksOperator() },
    ]
}

/// Checks shared by MediaPipe's landmark operators.
enum LandmarksSupport {
    /// Checks that the node is version 2 with `inputs` inputs and one output, and that every
    /// input is float32. MediaPipe's version 1 forms take other shapes and options.
    static func checkNode(_ node: NodeContext, inputs: Int) throws {
        let op = node.code.displayName
        guard node.code.version == 2 else {
            throw InterpreterError.unsupportedOperator(name: "\(op) version \(node.code.version) (version 2 is implemented)")
        }
        guard node.inputs.count == inputs, node.outputs.count == 1 else {
            throw InterpreterError.invalidModel("\(op): needs \(inputs) input(s) and 1 output, got \(node.inputs.count) and \(node.outputs.count)")
        }
        for i in 0..<inputs { try ConvSupport.requireType(try node.input(i), [.float32], "input \(i)", op: op) }
    }

    /// Checks that `tensor` has rank `rank` and batch 1 (MediaPipe's kernels compute the first batch only).
    static func checkBatchOne(_ tensor: RuntimeTensor, rank: Int, _ what: String, op: String) throws {
        try ConvSupport.requireRank(tensor, rank, what, op: op)
        guard tensor.shape[0] == 1 else {
            throw InterpreterError.invalidShape("\(op): \(what) \(tensor.shape) must have batch 1")
        }
    }

    /// Checks a transform node (`TransformTensorBilinear`, `TransformLandmarks`) as ``checkNode(_:inputs:)``
    /// with two inputs, the second a matrix holding the first two rows of a 4 × 4 transform (8 values).
    static func checkTransformNode(_ node: NodeContext) throws {
        try checkNode(node, inputs: 2)
        let matrix = try node.input(1)
        guard matrix.elementCount >= 8 else {
            throw InterpreterError.invalidShape("\(node.code.displayName): the matrix \(matrix.shape) has fewer than the 8 values of a 4 × 4 transform's first two rows")
        }
    }
}
