import TFLiteSchema

/// Finds object boxes in an upright image.
protocol Localizer: AnyObject {
    /// Candidates in upright-image pixel coordinates, best first.
    func localize(_ image: RGBImage) throws -> [DetectionCandidate]
    /// Names of `DetectionCandidate.classIndex` values, when the localizer classifies.
    var labels: LabelList? { get }
    /// The longest side of the model inputs it runs (0 when unknown).
    var largestInputSide: Int { get }
}

/// A detector model run through its ``DetectorFamily``: the family's resize mode and input
/// normalization (unless the metadata states one), its decoder, and the boxes mapped back to
/// the upright image and clipped to it.
final class FamilyLocalizer: Localizer {
    let runner: ModelRunner
    let family: any DetectorFamily
    let model: DetectorModelInfo
    let labels: LabelList?
    var largestInputSide: Int { max(model.inputWidth, model.inputHeight) }
    /// The score candidates need to be returned (`reportThreshold` × the candidate fraction).
    let scoreThreshold: Float
    /// The score an object needs to be reported.
    let reportThreshold: Float

    /// Loads `modelPath` and picks its family: `family` when given, else the first of
    /// `registry` that matches.
    /// - Parameters:
    ///   - labels: a side-car label file's contents; nil uses the labels packed in the model.
    ///   - scoreThreshold: nil uses the family's default for this model.
    ///   - candidateFraction: candidates are kept down to this fraction of the threshold (stream
    ///     mode's tracker uses the weaker ones to keep partly hidden objects, see `TrackingFeed`).
    ///   - limits: bound the model's load and the interpreter's allocations.
    init(modelPath: String, labels: LabelList?, scoreThreshold: Float?, threadCount: Int?,
         family: (any DetectorFamily)? = nil, registry: DetectorFamilyRegistry = .shared,
         candidateFraction: Float = 1, limits: ResourceLimits = .default) throws {
        let runner = try ModelRunner(path: modelPath, threadCount: threadCount, floatNormalization: .signedUnitInterval,
                                     limits: limits)
        // Class names: value labels of the classes output (SSD, EfficientDet), else axis labels.
        let packed = runner.file.labels(forOutput: 1, type: .tensorValueLabels)
            ?? runner.file.labels(forOutput: 0) ?? runner.file.labels(forOutput: 1)
        let size = runner.inputSize
        let model = DetectorModelInfo(path: modelPath, inputWidth: size.width, inputHeight: size.height,
                                      outputShapes: try runner.outputShapes(), file: runner.file, labels: labels ?? packed)
        let chosen = try family ?? registry.family(for: model)
        try runner.useDefaultFloatNormalization(chosen.defaultNormalization)
        self.runner = runner
        self.family = chosen
        self.model = model
        self.labels = chosen.labels(for: model)
        reportThreshold = scoreThreshold ?? chosen.defaultScoreThreshold(for: model)
        self.scoreThreshold = reportThreshold * candidateFraction
    }

    func localize(_ image: RGBImage) throws -> [DetectionCandidate] {
        let transform = try runner.run(image, resize: family.resizeMode)
        let runner = self.runner
        let outputs = DetectorOutputs(shapes: model.outputShapes) { try runner.output($0).values }
        let bounds = ImageRect(x: 0, y: 0, width: Double(image.width), height: Double(image.height))
        return try family.decode(outputs, model: model, scoreThreshold: scoreThreshold)
            .compactMap { c in
                let rect = transform.imageRect(fromNormalizedInput: c.rect).intersection(bounds)
                return rect.isEmpty ? nil : DetectionCandidate(rect: rect, score: c.score, classIndex: c.classIndex)
            }
            .sorted { $0.score > $1.score }
    }
}
