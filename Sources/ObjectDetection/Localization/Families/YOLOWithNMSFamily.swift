import TFLiteSchema

/// YOLO exports with non-maximum suppression inside the graph (Ultralytics `nms=True`): one
/// output `[1, N, 6]` of x1, y1, x2, y2, score, class per kept box, N the export's detection
/// cap (300 by default; not a grid size, which tells it from a one-class YOLOv5/YOLOv8
/// output). Boxes in input pixels or normalized. Letterboxed [0, 1] input.
public struct YOLOWithNMSFamily: DetectorFamily {
    public let name = "yolo-nms"
    public var defaultScoreThreshold: Float = 0.25
    public var defaultNormalization = InputNormalization.unitInterval
    public var resizeMode = YOLOBoxes.letterbox

    /// Creates the family with Ultralytics' defaults.
    public init() {}

    public func matches(_ model: DetectorModelInfo) -> Bool {
        guard let (n, attributes) = YOLOBoxes.singleOutputDims(model), attributes == 6 else { return false }
        let cells = model.gridCellCount()
        return n != cells && n != 3 * cells
    }

    public func decode(_ outputs: DetectorOutputs, model: DetectorModelInfo, scoreThreshold: Float) throws -> [DetectionCandidate] {
        let values = try outputs.values(at: 0)
        guard outputs.shapes[0].count == 3, outputs.shapes[0][2] == 6 else {
            throw ObjectDetectionError.unsupportedModel("\(model.path): output \(outputs.shapes[0]) is not [1, N, 6]")
        }
        let n = outputs.shapes[0][1]
        var extents: [Float] = []
        extents.reserveCapacity(2 * n)
        // Units from the boxes that can pass the threshold: junk candidates may be huge.
        for i in 0..<n where values[i * 6 + 4] >= scoreThreshold {
            extents.append(values[i * 6 + 2]); extents.append(values[i * 6 + 3])
        }
        let (sx, sy) = YOLOBoxes.unitDivisors(extents: extents, model: model)
        var result: [DetectionCandidate] = []
        for i in 0..<n {
            let row = Array(values[(6 * i)..<(6 * i + 6)])
            guard row[4] >= scoreThreshold, row[5].isFinite, row[5] >= 0 else { continue }
            result.append(DetectionCandidate(rect: ImageRect(corners: Double(row[0]) / sx, Double(row[1]) / sy,
                                                             Double(row[2]) / sx, Double(row[3]) / sy),
                                             score: row[4], classIndex: Int(min(row[5], 1e6))))
        }
        return result.sorted { $0.score > $1.score }
    }
}
