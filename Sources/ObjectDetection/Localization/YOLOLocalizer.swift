import TFLiteSchema

/// YOLOv8-style detectors with one raw output `[1, 4 + classes, candidates]`: letterboxed input
/// (gray 114 padding, as Ultralytics), class-aware NMS outside the graph, boxes mapped back
/// through the letterbox.
final class YOLOLocalizer: Localizer {
    let runner: ModelRunner
    let labels: LabelList?
    let decoder: YOLOOutputDecoder

    init(runner: ModelRunner, labels: LabelList?, scoreThreshold: Float) {
        self.runner = runner
        self.labels = labels
        decoder = YOLOOutputDecoder(scoreThreshold: scoreThreshold, iouThreshold: 0.45, maxDetections: 100)
    }

    func localize(_ image: RGBImage) throws -> [DetectionCandidate] {
        let transform = try runner.run(image, resize: .letterbox(fill: RGBColor(red: 114, green: 114, blue: 114)))
        let output = try runner.output(0)
        let size = runner.inputSize
        return try decoder.decode(values: output.values, shape: output.shape, inputWidth: size.width, inputHeight: size.height)
            .compactMap { c in
                let rect = transform.imageRect(fromNormalizedInput: c.rect)
                    .intersection(ImageRect(x: 0, y: 0, width: Double(image.width), height: Double(image.height)))
                return rect.isEmpty ? nil : DetectionCandidate(rect: rect, score: c.score, classIndex: c.classIndex)
            }
    }
}
