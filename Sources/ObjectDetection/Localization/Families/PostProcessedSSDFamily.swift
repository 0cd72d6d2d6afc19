import TFLiteSchema

/// Detectors whose graph ends in `TFLite_Detection_PostProcess` (SSD MobileNet, EfficientDet,
/// AutoML exports): four outputs, boxes `[1,N,4]` as ymin, xmin, ymax, xmax (normalized),
/// classes, scores and count. The outputs are told apart by the operator's own output
/// tensors (EfficientDet exports list them in another order), else taken in that order.
///
/// Labels: the side-car file, else the label map packed in the model. A list that starts with
/// a background slot (`???`, `background`) is shifted: the op's class 0 is the list's entry 1.
public struct PostProcessedSSDFamily: DetectorFamily {
    public let name = "ssd-postprocess"
    public var defaultScoreThreshold: Float = 0.5
    public var defaultNormalization = InputNormalization.signedUnitInterval
    public var resizeMode = ResizeMode.stretch

    /// The custom operator that ends these graphs.
    public static let operatorName = "TFLite_Detection_PostProcess"

    /// Creates the family with its defaults.
    public init() {}

    public func matches(_ model: DetectorModelInfo) -> Bool {
        guard model.outputShapes.count == 4 else { return false }
        if model.operatorNames.contains(Self.operatorName) { return outputOrder(model) != nil }
        let s = model.outputShapes
        return s[0].count == 3 && s[0].last == 4 && s[1].count == 2 && s[2].count == 2 && s[3].reduce(1, *) == 1
    }

    /// Positions of boxes, classes, scores and count among the model's outputs.
    func outputOrder(_ model: DetectorModelInfo) -> [Int]? {
        guard let graph = model.file.subgraphs.first else { return nil }
        let postProcess = graph.operators.last { op in
            model.file.operatorCodes.indices.contains(op.opcodeIndex)
                && model.file.operatorCodes[op.opcodeIndex].customName == Self.operatorName
        }
        if let postProcess, postProcess.outputs.count == 4 {
            let order = postProcess.outputs.map { graph.outputs.firstIndex(of: $0) }
            if order.allSatisfy({ $0 != nil }) { return order.map { $0! } }
        }
        let s = model.outputShapes
        return s[0].count == 3 && s[0].last == 4 ? [0, 1, 2, 3] : nil
    }

    public func decode(_ outputs: DetectorOutputs, model: DetectorModelInfo, scoreThreshold: Float) throws -> [DetectionCandidate] {
        guard let order = outputOrder(model) else {
            throw ObjectDetectionError.unsupportedModel("\(model.path): outputs \(model.outputShapes) are not boxes, classes, scores, count")
        }
        let boxes = try outputs.values(at: order[0]), classes = try outputs.values(at: order[1])
        let scores = try outputs.values(at: order[2]), count = try outputs.values(at: order[3])
        let first = model.labels?.labels.first?.lowercased()
        let labelOffset = (first == "???" || first == "background") ? 1 : 0
        let reported = count.first.map { $0.isFinite ? Int(max(0, min($0, 1e6))) : 0 } ?? 0
        let n = min(reported, scores.count, classes.count, boxes.count / 4)
        var result: [DetectionCandidate] = []
        for i in 0..<n where scores[i] >= scoreThreshold && classes[i].isFinite {
            let b = boxes[(4 * i)..<(4 * i + 4)].map { Double(min(max($0, 0), 1)) }
            result.append(DetectionCandidate(rect: ImageRect(corners: b[1], b[0], b[3], b[2]), score: scores[i],
                                             classIndex: Int(max(0, min(classes[i], 1e6))) + labelOffset))
        }
        return result.sorted { $0.score > $1.score }
    }
}
