import TFLiteSchema

/// BlazeFace-style detectors: two outputs, raw box regressions `[1,N,≥4]` and logits
/// `[1,N,1]`, decoded against SSD anchors (MediaPipe's `SsdAnchorsCalculator`) and merged
/// with weighted non-maximum suppression. A model matches when one of ``anchorOptions`` has
/// its input size and exactly N anchors.
public struct AnchorSSDFamily: DetectorFamily {
    public let name: String
    public var defaultScoreThreshold: Float = 0.5
    /// BlazeFace models take [-1, 1].
    public var defaultNormalization = InputNormalization.signedUnitInterval
    public var resizeMode = ResizeMode.stretch
    /// Anchor layouts this family knows, tried in order.
    public var anchorOptions: [SSDAnchorOptions]
    /// Label of every box when the model has no labels.
    public var className: String
    /// IoU above which boxes are merged.
    public var iouThreshold: Float = 0.3
    /// Detections kept.
    public var maxDetections = 100

    /// The family for MediaPipe's three face detectors (128, 192 and 256 pixel inputs), or
    /// for other anchor layouts and a class name of your own.
    public init(name: String = "blazeface-anchors",
                anchorOptions: [SSDAnchorOptions] = [.faceShortRange, .faceFullRange, .faceBackCamera],
                className: String = "Face") {
        self.name = name; self.anchorOptions = anchorOptions; self.className = className
    }

    /// The anchor options for `model`'s input size and anchor count.
    func options(for model: DetectorModelInfo) -> SSDAnchorOptions? {
        let s = model.outputShapes
        guard s.count == 2, s[0].count == 3, s[0][2] >= 4, s[1].count == 3, s[1][2] == 1, s[0][1] == s[1][1] else { return nil }
        return anchorOptions.first {
            $0.inputWidth == model.inputWidth && $0.inputHeight == model.inputHeight && $0.anchors().count == s[0][1]
        }
    }

    public func matches(_ model: DetectorModelInfo) -> Bool { options(for: model) != nil }

    public func labels(for model: DetectorModelInfo) -> LabelList? { model.labels ?? LabelList(labels: [className]) }

    public func decode(_ outputs: DetectorOutputs, model: DetectorModelInfo, scoreThreshold: Float) throws -> [DetectionCandidate] {
        guard let options = options(for: model) else {
            throw ObjectDetectionError.unsupportedModel("\(model.path): no anchor options for outputs \(model.outputShapes)")
        }
        let decoder = AnchorBoxDecoder(options: options, minScore: scoreThreshold)
        let decoded = try decoder.decode(boxes: try outputs.values(at: 0), coordsPerBox: model.outputShapes[0][2],
                                         logits: try outputs.values(at: 1))
        return weightedNonMaxSuppression(decoded, iouThreshold: iouThreshold, maxCount: maxDetections)
            .map { DetectionCandidate(rect: $0.rect, score: $0.score, classIndex: 0) }
    }
}
