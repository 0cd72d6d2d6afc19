import TFLiteKernels
import TFLiteSchema

/// `TFLite_Detection_PostProcess` (custom): box encodings `[1, N, ≥4]` and class scores
/// `[1, N, C]` (float32 or uint8), anchors `[N, 4]` (float32, or uint8 with uint8
/// encodings) → boxes `[1, M, 4]` (ymin, xmin, ymax, xmax), classes `[1, M]`, scores
/// `[1, M]`, count `[1]`, all float32, with M = max_detections × max_classes_per_detection.
/// Options come from the node's FlexBuffer map. Quantized inputs are dequantized exactly as
/// the reference does before decoding (``DetectionFloatInput``); the kernel is
/// ``DetectionPostProcessReference``. All the memory an invoke works in — the dequantized
/// inputs and the kernel's ``DetectionPostProcessWorkspace`` — is arena scratch requested at
/// prepare, so invoke allocates nothing.
final class DetectionPostProcessOperator: OperatorKernel {
    private static let op = "TFLite_Detection_PostProcess"

    /// What prepare decided: the sizes, how each input becomes float, and the kernel's
    /// workspace (arena scratch, one step long, like the dequantized inputs).
    private struct Plan {
        let parameters: DetectionPostProcessParameters
        let boxCount: Int, encodingLength: Int, columns: Int
        let encodings: DetectionFloatInput, anchors: DetectionFloatInput, scores: DetectionFloatInput
        let workspace: ScratchArray<UInt8>
    }
    private var plan: Plan?

    /// The kernel parameters from the operator's typed options (``DetectionPostProcessOptions``),
    /// range-checked.
    static func parameters(fromFlexBuffer bytes: [UInt8]) throws -> DetectionPostProcessParameters {
        let o: DetectionPostProcessOptions
        do { o = try DetectionPostProcessOptions(customOptions: bytes) } catch let error as TFLiteSchemaError {
            throw InterpreterError.invalidModel(error.description)
        }
        let p = DetectionPostProcessParameters(
            maxDetections: o.maxDetections, maxClassesPerDetection: o.maxClassesPerDetection,
            detectionsPerClass: o.detectionsPerClass, scoreThreshold: o.nmsScoreThreshold,
            iouThreshold: o.nmsIouThreshold, numClasses: o.numClasses,
            yScale: o.yScale, xScale: o.xScale, hScale: o.hScale, wScale: o.wScale, useRegularNMS: o.useRegularNMS)
        guard p.maxDetections >= 0, p.maxDetections <= 1 << 16, p.maxClassesPerDetection >= 0,
              p.maxClassesPerDetection <= 1 << 12, p.numClasses >= 0, p.numClasses <= 1 << 16,
              p.detectionsPerClass >= 0, p.detectionsPerClass <= 1 << 20 else {
            throw InterpreterError.invalidModel("\(op): option values out of range: \(p)")
        }
        return p
    }

    func prepare(_ node: NodeContext) throws {
        let op = Self.op
        guard node.inputs.count == 3, node.outputs.count == 4 else {
            throw InterpreterError.invalidModel("\(op): needs 3 inputs and 4 outputs, got \(node.inputs.count) and \(node.outputs.count)")
        }
        plan = nil
        let parameters = try Self.parameters(fromFlexBuffer: node.customOptions)
        let encodings = try node.input(0), scores = try node.input(1), anchors = try node.input(2)
        try DetectionTensorAccess.requireRank(encodings, 3, "box encodings", op: op)
        try DetectionTensorAccess.requireRank(scores, 3, "class predictions", op: op)
        try DetectionTensorAccess.requireRank(anchors, 2, "anchors", op: op)
        try DetectionTensorAccess.requireType(encodings, [.float32, .uint8], "box encodings", op: op)
        try DetectionTensorAccess.requireType(scores, [.float32, .uint8], "class predictions", op: op)
        if encodings.type == .float32 {
            try DetectionTensorAccess.requireType(anchors, [.float32], "anchors (with float box encodings)", op: op)
        } else {
            try DetectionTensorAccess.requireType(anchors, [.float32, .uint8], "anchors", op: op)
        }
        let boxCount = encodings.shape[1], encodingLength = encodings.shape[2], columns = scores.shape[2]
        guard encodings.shape[0] == 1, scores.shape[0] == 1 else {
            throw InterpreterError.invalidShape("\(op): batch size must be 1, got \(encodings.shape) and \(scores.shape)")
        }
        guard encodingLength >= 4 else {
            throw InterpreterError.invalidShape("\(op): box encodings need at least 4 values per box, got \(encodings.shape)")
        }
        guard scores.shape[1] == boxCount else {
            throw InterpreterError.invalidShape("\(op): \(boxCount) box encodings but \(scores.shape[1]) score rows")
        }
        guard anchors.shape[1] == 4, anchors.shape[0] >= boxCount else {
            throw InterpreterError.invalidShape("\(op): anchors \(anchors.shape) do not cover \(boxCount) boxes")
        }
        guard columns - parameters.numClasses >= 0, columns - parameters.numClasses <= 1 else {
            throw InterpreterError.invalidModel("\(op): num_classes \(parameters.numClasses) does not fit \(columns) score columns")
        }
        guard boxCount <= 1 << 22, boxCount * max(columns, encodingLength) <= 1 << 28 else {
            throw InterpreterError.invalidShape("\(op): \(boxCount) boxes x \(columns) classes is too large")
        }
        let m = parameters.outputBoxCount
        let shapes = [[1, m, 4], [1, m], [1, m], [1]]
        for (k, shape) in shapes.enumerated() {
            let output = try node.output(k)
            output.type = .float32
            output.shape = shape
        }
        let workspaceBytes = DetectionPostProcessWorkspace.byteCount(boxCount: boxCount, parameters: parameters)
        plan = Plan(
            parameters: parameters, boxCount: boxCount, encodingLength: encodingLength, columns: columns,
            encodings: try DetectionFloatInput.prepare(encodings, count: boxCount * encodingLength, .float, "box encodings",
                                                       node: node, op: op),
            anchors: try DetectionFloatInput.prepare(anchors, count: boxCount * 4, .float, "anchors", node: node, op: op),
            scores: try DetectionFloatInput.prepare(scores, count: boxCount * columns, .double, "class predictions",
                                                    node: node, op: op),
            workspace: try node.requestScratch(UInt8.self, count: workspaceBytes,
                                               "the workspace (\(boxCount) boxes, \(parameters.numClasses) classes)"))
    }

    func invoke(_ node: NodeContext) throws {
        let op = Self.op
        guard let plan else { throw InterpreterError.allocateTensorsRequired }
        let n = plan.boxCount, p = plan.parameters
        let encodings = try plan.encodings.floats(try node.input(0), count: n * plan.encodingLength, op: op)
        let scores = try plan.scores.floats(try node.input(1), count: n * plan.columns, op: op)
        let anchors = try plan.anchors.floats(try node.input(2), count: n * 4, op: op)
        let boxes = try DetectionTensorAccess.buffer(try node.output(0), as: Float.self, op: op)
        let classes = try DetectionTensorAccess.buffer(try node.output(1), as: Float.self, op: op)
        let outScores = try DetectionTensorAccess.buffer(try node.output(2), as: Float.self, op: op)
        let count = try DetectionTensorAccess.buffer(try node.output(3), as: Float.self, op: op)
        do {
            let memory = UnsafeMutableRawBufferPointer(start: plan.workspace.pointer, count: plan.workspace.count)
            let workspace = try DetectionPostProcessWorkspace(memory: memory, boxCount: n, parameters: p)
            try DetectionPostProcessReference.decodeBoxes(encodings: encodings, encodingLength: plan.encodingLength,
                                                          anchors: anchors, boxCount: n, parameters: p, into: workspace)
            let detections = try DetectionPostProcessReference.suppress(
                classScores: scores, boxCount: n, classesWithBackground: plan.columns, parameters: p, workspace: workspace,
                boxes: boxes, classes: classes, scores: outScores)
            if count.count > 0 { count[0] = Float(detections) }
        } catch let error as DetectionPostProcessError {
            throw InterpreterError.invocationFailed(error.description)
        }
    }
}
