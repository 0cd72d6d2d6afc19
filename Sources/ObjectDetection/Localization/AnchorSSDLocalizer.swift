import TFLiteSchema

/// BlazeFace-style detectors: raw box regressions and logits decoded against SSD anchors
/// generated from the model's anchor options, merged with weighted NMS. Labels every box `Face`.
final class AnchorSSDLocalizer: Localizer {
    let runner: ModelRunner
    let decoder: AnchorBoxDecoder
    let labels: LabelList? = LabelList(labels: ["Face"])

    init(runner: ModelRunner, scoreThreshold: Float) throws {
        self.runner = runner
        let size = runner.inputSize
        let options: SSDAnchorOptions
        switch (size.width, size.height) {
        case (128, 128): options = .faceShortRange
        case (192, 192): options = .faceFullRange
        case (256, 256): options = .faceBackCamera
        default:
            throw ObjectDetectionError.unsupportedModel(
                "\(runner.path): no anchor options known for a \(size.width)x\(size.height) raw-SSD input")
        }
        decoder = AnchorBoxDecoder(options: options, minScore: scoreThreshold)
    }

    func localize(_ image: RGBImage) throws -> [DetectionCandidate] {
        let transform = try runner.run(image)
        let boxes = try runner.output(0), logits = try runner.output(1)
        let decoded = try decoder.decode(boxes: boxes.values, coordsPerBox: boxes.shape.last ?? 0, logits: logits.values)
        return weightedNonMaxSuppression(decoded, iouThreshold: 0.3, maxCount: 100).map {
            DetectionCandidate(rect: transform.imageRect(fromNormalizedInput: $0.rect), score: $0.score, classIndex: 0)
        }
    }
}
