import TFLiteKernels
import TFLiteSchema

/// `TFLite_Detection_PostProcess` (custom): box encodings `[1, N, ≥4]` and class scores
/// `[1, N, C]` (float32 or uint8), anchors `[N, 4]` (float32, or uint8 with uint8
/// encodings) → boxes `[1, M, 4]` (ymin, xmin, ymax, xmax), classes `[1, M]`, scores
/// `[1, M]`, count `[1]`, all float32, with M = max_detections × max_classes_per_detection.
/// Options come from the node's FlexBuffer map. Quantized inputs are dequantized exactly as
/// the reference does before decoding; the kernel is ``DetectionPostProcessReference``.
final class DetectionPostProcessOperator: OperatorKernel {
    private static let op = "TFLite_Detection_PostProcess"
    private var parameters = DetectionPostProcessParameters(maxDetections: 0, maxClassesPerDetection: 0, scoreThreshold: 0,
                                                            iouThreshold: 0, numClasses: 0, yScale: 1, xScale: 1,
                                                            hScale: 1, wScale: 1)
    private var workspace = DetectionPostProcessWorkspace(boxCount: 0, encodingLength: 4, classesWithBackground: 0,
                                                          parameters: DetectionPostProcessParameters(
                                                            maxDetections: 0, maxClassesPerDetection: 0, scoreThreshold: 0,
                                                            iouThreshold: 0, numClasses: 0, yScale: 1, xScale: 1, hScale: 1, wScale: 1))
    private var boxCount = 0
    private var encodingLength = 4
    private var columns = 0

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
        parameters = try Self.parameters(fromFlexBuffer: node.customOptions)
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
        boxCount = encodings.shape[1]
        encodingLength = encodings.shape[2]
        columns = scores.shape[2]
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
        if encodings.type == .uint8 { _ = try DetectionTensorAccess.quantization(encodings, "box encodings", op: op) }
        if anchors.type == .uint8 { _ = try DetectionTensorAccess.quantization(anchors, "anchors", op: op) }
        if scores.type == .uint8 { _ = try DetectionTensorAccess.quantization(scores, "class predictions", op: op) }
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
        try node.reserveScratch(DetectionPostProcessWorkspace.byteCount(boxCount: boxCount, encodingLength: encodingLength,
                                                                        classesWithBackground: columns, parameters: parameters),
                                "the workspace (\(boxCount) boxes x \(columns) classes)")
        workspace = DetectionPostProcessWorkspace(boxCount: boxCount, encodingLength: encodingLength,
                                                  classesWithBackground: columns, parameters: parameters)
    }

    func invoke(_ node: NodeContext) throws {
        let op = Self.op
        let encodings = try node.input(0), scores = try node.input(1), anchors = try node.input(2)
        let n = boxCount
        // Inputs as float, dequantized as the reference does.
        switch encodings.type {
        case .uint8:
            let q = try DetectionTensorAccess.quantization(encodings, "box encodings", op: op)
            let raw = try DetectionTensorAccess.buffer(encodings, as: UInt8.self, op: op)
            let zero = Float(q.zeroPoint)
            for i in 0..<(n * encodingLength) { workspace.encodings[i] = (Float(raw[i]) - zero) * q.scale }
        default:
            let raw = try DetectionTensorAccess.buffer(encodings, as: Float.self, op: op)
            for i in 0..<(n * encodingLength) { workspace.encodings[i] = raw[i] }
        }
        switch anchors.type {
        case .uint8:
            let q = try DetectionTensorAccess.quantization(anchors, "anchors", op: op)
            let raw = try DetectionTensorAccess.buffer(anchors, as: UInt8.self, op: op)
            let zero = Float(q.zeroPoint)
            for i in 0..<(n * 4) { workspace.anchors[i] = (Float(raw[i]) - zero) * q.scale }
        default:
            let raw = try DetectionTensorAccess.buffer(anchors, as: Float.self, op: op)
            for i in 0..<(n * 4) { workspace.anchors[i] = raw[i] }
        }
        switch scores.type {
        case .uint8:
            let q = try DetectionTensorAccess.quantization(scores, "class predictions", op: op)
            let raw = try DetectionTensorAccess.buffer(scores, as: UInt8.self, op: op)
            let scale = Double(q.scale)
            for i in 0..<(n * columns) { workspace.scores[i] = Float(scale * Double(Int32(raw[i]) - q.zeroPoint)) }
        default:
            let raw = try DetectionTensorAccess.buffer(scores, as: Float.self, op: op)
            for i in 0..<(n * columns) { workspace.scores[i] = raw[i] }
        }
        let boxes = try DetectionTensorAccess.buffer(try node.output(0), as: Float.self, op: op)
        let classes = try DetectionTensorAccess.buffer(try node.output(1), as: Float.self, op: op)
        let outScores = try DetectionTensorAccess.buffer(try node.output(2), as: Float.self, op: op)
        let count = try DetectionTensorAccess.buffer(try node.output(3), as: Float.self, op: op)
        do {
            let encodingCopy = workspace.encodings, anchorCopy = workspace.anchors
            try encodingCopy.withUnsafeBufferPointer { e in
                try anchorCopy.withUnsafeBufferPointer { a in
                    try DetectionPostProcessReference.decodeBoxes(encodings: e, encodingLength: encodingLength, anchors: a,
                                                         boxCount: n, parameters: parameters, into: &workspace)
                }
            }
            let detections = try DetectionPostProcessReference.suppress(boxCount: n, classesWithBackground: columns,
                                                               parameters: parameters, workspace: &workspace,
                                                               boxes: boxes, classes: classes, scores: outScores)
            if count.count > 0 { count[0] = Float(detections) }
        } catch let error as DetectionPostProcessError {
            throw InterpreterError.invocationFailed(error.description)
        }
    }
}
