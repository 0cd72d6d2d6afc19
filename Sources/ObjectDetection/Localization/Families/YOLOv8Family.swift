import TFLiteSchema

/// YOLOv8 / YOLO11-style detectors: one raw output `[1, 4+C, N]` (or transposed
/// `[1, N, 4+C]`) with centre x, centre y, width, height and one score per class for each of
/// the N = Σ (W/s)(H/s) cells of strides 8, 16, 32; no objectness. Letterboxed [0, 1] input,
/// class-aware NMS outside the graph.
public struct YOLOv8Family: DetectorFamily {
    public let name = "yolov8"
    public var defaultScoreThreshold: Float = 0.25
    public var defaultNormalization = InputNormalization.unitInterval
    public var resizeMode = YOLOBoxes.letterbox
    /// IoU above which a lower-scored box of the same class is suppressed.
    public var iouThreshold: Float = 0.45
    /// Detections kept.
    public var maxDetections = 100

    /// Creates the family with Ultralytics' defaults.
    public init() {}

    public func matches(_ model: DetectorModelInfo) -> Bool {
        guard let (a, b) = YOLOBoxes.singleOutputDims(model) else { return false }
        let cells = model.gridCellCount()
        return (b == cells && a > 4) || (a == cells && b > 4)
    }

    public func decode(_ outputs: DetectorOutputs, model: DetectorModelInfo, scoreThreshold: Float) throws -> [DetectionCandidate] {
        let decoder = YOLOOutputDecoder(scoreThreshold: scoreThreshold, iouThreshold: iouThreshold, maxDetections: maxDetections)
        return try decoder.decode(values: try outputs.values(at: 0), shape: outputs.shapes[0],
                                  inputWidth: model.inputWidth, inputHeight: model.inputHeight)
    }
}
