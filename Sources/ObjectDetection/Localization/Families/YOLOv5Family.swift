import TFLiteSchema

/// YOLOv5-style detectors: one output `[1, N, 5+C]` with centre x, centre y, width, height,
/// objectness and C class probabilities for N = 3 anchors × Σ (W/s)(H/s) cells of strides
/// 8, 16, 32. Score = objectness × best class probability. Letterboxed [0, 1] input,
/// class-aware NMS outside the graph.
public struct YOLOv5Family: DetectorFamily {
    public let name = "yolov5"
    public var defaultScoreThreshold: Float = 0.25
    public var defaultNormalization = InputNormalization.unitInterval
    public var resizeMode = YOLOBoxes.letterbox
    /// IoU above which a lower-scored box of the same class is suppressed.
    public var iouThreshold: Float = 0.45
    /// Detections kept.
    public var maxDetections = 100

    /// Creates the family with YOLOv5's defaults.
    public init() {}

    public func matches(_ model: DetectorModelInfo) -> Bool {
        guard let (n, attributes) = YOLOBoxes.singleOutputDims(model) else { return false }
        return attributes > 5 && n == 3 * model.gridCellCount()
    }

    public func decode(_ outputs: DetectorOutputs, model: DetectorModelInfo, scoreThreshold: Float) throws -> [DetectionCandidate] {
        let values = try outputs.values(at: 0)
        guard outputs.shapes[0].count == 3, outputs.shapes[0][2] > 5 else {
            throw ObjectDetectionError.unsupportedModel("\(model.path): YOLOv5 output \(outputs.shapes[0]) is not [1, N, 5+classes]")
        }
        let n = outputs.shapes[0][1], stride = outputs.shapes[0][2]
        var extents: [Float] = []
        extents.reserveCapacity(2 * n)
        // Units from the boxes that can pass the threshold: junk candidates may be huge.
        for i in 0..<n where values[i * stride + 4] >= scoreThreshold {
            extents.append(values[i * stride + 2]); extents.append(values[i * stride + 3])
        }
        let (sx, sy) = YOLOBoxes.unitDivisors(extents: extents, model: model)
        var candidates: [DetectionCandidate] = []
        for i in 0..<n {
            let row = i * stride
            let objectness = values[row + 4]
            guard objectness >= scoreThreshold else { continue }   // score ≤ objectness
            var best: Float = -.infinity, bestClass = 0
            for c in 5..<stride where values[row + c] > best { best = values[row + c]; bestClass = c - 5 }
            let score = objectness * best
            guard score >= scoreThreshold else { continue }
            let cx = Double(values[row]) / sx, cy = Double(values[row + 1]) / sy
            let w = Double(values[row + 2]) / sx, h = Double(values[row + 3]) / sy
            candidates.append(DetectionCandidate(rect: ImageRect(x: cx - w / 2, y: cy - h / 2, width: w, height: h),
                                                 score: score, classIndex: bestClass))
        }
        return YOLOBoxes.suppress(candidates, iouThreshold: iouThreshold, maxCount: maxDetections)
    }
}
