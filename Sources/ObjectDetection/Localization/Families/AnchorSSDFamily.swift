import TFLiteSchema

/// BlazeFace-style detectors: two outputs, raw box regressions `[1,N,≥4]` and logits
/// `[1,N,1]`, decoded against SSD anchors (MediaPipe's `SsdAnchorsCalculator`) and merged
/// with weighted non-maximum suppression. A model matches when one of ``models`` has its
/// input size and exactly N anchors.
///
/// Follows MediaPipe's face detection graphs: the image is letterboxed (aspect kept, centred,
/// padded with black, which is -1 after normalization: `ImageToTensorCalculator` with
/// `keep_aspect_ratio` and `BORDER_ZERO`), boxes are mapped back to the original image, and
/// the score threshold is the matched model's (``AnchorSSDModel/scoreThreshold``: 0.5 short
/// range, 0.6 full range, 0.65 back camera).
public struct AnchorSSDFamily: DetectorFamily {
    public let name: String
    /// Threshold for a model none of ``models`` describes (never used by a matched model).
    public var defaultScoreThreshold: Float = 0.5
    /// BlazeFace models take [-1, 1].
    public var defaultNormalization = InputNormalization.signedUnitInterval
    /// Letterbox with black padding, as MediaPipe's graphs feed these models.
    public var resizeMode = ResizeMode.letterbox(fill: .black)
    /// Models this family knows (anchor layout and score threshold), tried in order.
    public var models: [AnchorSSDModel]
    /// Label of every box when the model has no labels.
    public var className: String
    /// IoU above which boxes are merged.
    public var iouThreshold: Float = 0.3
    /// Detections kept.
    public var maxDetections = 100

    /// The family for MediaPipe's three face detectors (128, 192 and 256 pixel inputs), or
    /// for other models and a class name of your own.
    public init(name: String = "blazeface-anchors",
                models: [AnchorSSDModel] = [.faceShortRange, .faceFullRange, .faceBackCamera],
                className: String = "Face") {
        self.name = name; self.models = models; self.className = className
    }

    /// The entry of ``models`` for `model`'s input size and anchor count.
    func knownModel(for model: DetectorModelInfo) -> AnchorSSDModel? {
        let s = model.outputShapes
        guard s.count == 2, s[0].count == 3, s[0][2] >= 4, s[1].count == 3, s[1][2] == 1, s[0][1] == s[1][1] else { return nil }
        return models.first {
            $0.anchors.inputWidth == model.inputWidth && $0.anchors.inputHeight == model.inputHeight
                && $0.anchors.anchors().count == s[0][1]
        }
    }

    public func matches(_ model: DetectorModelInfo) -> Bool { knownModel(for: model) != nil }

    /// The matched model's threshold (``AnchorSSDModel/scoreThreshold``).
    public func defaultScoreThreshold(for model: DetectorModelInfo) -> Float {
        knownModel(for: model)?.scoreThreshold ?? defaultScoreThreshold
    }

    public func labels(for model: DetectorModelInfo) -> LabelList? { model.labels ?? LabelList(labels: [className]) }

    public func decode(_ outputs: DetectorOutputs, model: DetectorModelInfo, scoreThreshold: Float) throws -> [DetectionCandidate] {
        guard let options = knownModel(for: model)?.anchors else {
            throw ObjectDetectionError.unsupportedModel("\(model.path): no anchor options for outputs \(model.outputShapes)")
        }
        let decoder = AnchorBoxDecoder(options: options, minScore: scoreThreshold)
        let decoded = try decoder.decode(boxes: try outputs.values(at: 0), coordsPerBox: model.outputShapes[0][2],
                                         logits: try outputs.values(at: 1))
        return weightedNonMaxSuppression(decoded, iouThreshold: iouThreshold, maxCount: maxDetections)
            .map { DetectionCandidate(rect: $0.rect, score: $0.score, classIndex: 0) }
    }
}
