import TFLiteKernels
import TFLiteSchema

/// NON_MAX_SUPPRESSION_V4 (5 inputs: boxes `[N, 4]`, scores `[N]`, max_output_size,
/// iou_threshold, score_threshold → selected indices, valid count) and
/// NON_MAX_SUPPRESSION_V5 (plus soft_nms_sigma → selected indices, selected scores, valid
/// count), float32 boxes and scores, as the reference computes them
/// (``NonMaxSuppressionReference``). `max_output_size` must be a constant so the outputs
/// have a static size; int8/int16 boxes are not supported.
final class NonMaxSuppressionOperator: OperatorKernel {
    private let isSoft: Bool
    private var op: String { isSoft ? "NON_MAX_SUPPRESSION_V5" : "NON_MAX_SUPPRESSION_V4" }
    private var maxOutputSize = 0
    /// The candidate queue's memory (arena scratch, one step long).
    private var queue: ScratchArray<UInt8>?

    /// `soft`: V5 (with sigma and selected scores).
    init(soft: Bool) { isSoft = soft }

    func prepare(_ node: NodeContext) throws {
        let expectedInputs = isSoft ? 6 : 5, expectedOutputs = isSoft ? 3 : 2
        guard node.inputs.count == expectedInputs, node.outputs.count == expectedOutputs else {
            throw InterpreterError.invalidModel("\(op): needs \(expectedInputs) inputs and \(expectedOutputs) outputs, " +
                                                "got \(node.inputs.count) and \(node.outputs.count)")
        }
        let boxes = try node.input(0), scores = try node.input(1), maxSize = try node.input(2)
        try DetectionTensorAccess.requireType(boxes, [.float32], "boxes (int8/int16 NMS is not supported)", op: op)
        try DetectionTensorAccess.requireType(scores, [.float32], "scores", op: op)
        try DetectionTensorAccess.requireRank(boxes, 2, "boxes", op: op)
        try DetectionTensorAccess.requireRank(scores, 1, "scores", op: op)
        guard boxes.shape[1] == 4, scores.shape[0] == boxes.shape[0] else {
            throw InterpreterError.invalidShape("\(op): boxes \(boxes.shape) and scores \(scores.shape) do not match")
        }
        try DetectionTensorAccess.requireType(maxSize, [.int32], "max_output_size", op: op)
        guard maxSize.elementCount == 1 else {
            throw InterpreterError.invalidShape("\(op): max_output_size must be a scalar, got \(maxSize.shape)")
        }
        guard maxSize.isConstant, maxSize.data != nil else {
            throw InterpreterError.invalidModel("\(op): a non-constant max_output_size (dynamic output size) is not supported")
        }
        let size = Int(try DetectionTensorAccess.buffer(maxSize, as: Int32.self, op: op)[0])
        guard size >= 0, size <= 1 << 24 else {
            throw InterpreterError.invalidModel("\(op): max_output_size \(size) is out of range")
        }
        maxOutputSize = size
        queue = try node.requestScratch(UInt8.self, count: SharedMemoryBudget.bytes(
            boxes.shape[0], NonMaxSuppressionReference.scratchBytesPerBox), "the candidate queue (\(boxes.shape[0]) boxes)")
        for k in 3..<expectedInputs {
            let t = try node.input(k)
            try DetectionTensorAccess.requireType(t, [.float32], "threshold input \(k)", op: op)
            guard t.elementCount == 1 else { throw InterpreterError.invalidShape("\(op): input \(k) must be a scalar, got \(t.shape)") }
        }
        let indices = try node.output(0)
        indices.type = .int32
        indices.shape = [size]
        if isSoft {
            let selectedScores = try node.output(1)
            selectedScores.type = .float32
            selectedScores.shape = [size]
        }
        let valid = try node.output(expectedOutputs - 1)
        valid.type = .int32
        valid.shape = []
    }

    func invoke(_ node: NodeContext) throws {
        let boxes = try DetectionTensorAccess.buffer(try node.input(0), as: Float.self, op: op)
        let scores = try DetectionTensorAccess.buffer(try node.input(1), as: Float.self, op: op)
        let iou = try DetectionTensorAccess.buffer(try node.input(3), as: Float.self, op: op)[0]
        let scoreThreshold = try DetectionTensorAccess.buffer(try node.input(4), as: Float.self, op: op)[0]
        let sigma = isSoft ? try DetectionTensorAccess.buffer(try node.input(5), as: Float.self, op: op)[0] : 0
        guard !(sigma < 0) else { throw InterpreterError.invocationFailed("\(op): soft_nms_sigma \(sigma) is negative") }
        let indices = try DetectionTensorAccess.buffer(try node.output(0), as: Int32.self, op: op)
        let selectedScores = isSoft ? try DetectionTensorAccess.buffer(try node.output(1), as: Float.self, op: op) : nil
        let valid = try DetectionTensorAccess.buffer(try node.output(isSoft ? 2 : 1), as: Int32.self, op: op)
        guard indices.count >= maxOutputSize, valid.count >= 1 else {
            throw InterpreterError.invocationFailed("\(op): output tensors are smaller than max_output_size")
        }
        guard let queue else { throw InterpreterError.allocateTensorsRequired }
        let count = queue.withUnsafeMutableBufferPointer { queue in
            NonMaxSuppressionReference.run(
                boxes: UnsafeBufferPointer(boxes), scores: UnsafeBufferPointer(scores), boxCount: scores.count,
                maxOutputSize: maxOutputSize, iouThreshold: iou, scoreThreshold: scoreThreshold, softNMSSigma: sigma,
                selectedIndices: indices, selectedScores: selectedScores, queue: UnsafeMutableRawBufferPointer(queue))
        }
        valid[0] = Int32(count)
    }
}
