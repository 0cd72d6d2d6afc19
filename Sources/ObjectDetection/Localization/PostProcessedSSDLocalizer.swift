import TFLiteSchema

/// Detectors whose graph ends in `TFLite_Detection_PostProcess` (SSD MobileNet, EfficientDet,
/// AutoML exports): boxes `[1,N,4]` as ymin, xmin, ymax, xmax (normalized), classes, scores, count.
final class PostProcessedSSDLocalizer: Localizer {
    let runner: ModelRunner
    let labels: LabelList?
    let scoreThreshold: Float
    /// Label lists of SSD exports often start with a background slot (`???`, `background`):
    /// the op's class 0 is then the list's entry 1.
    let labelOffset: Int

    init(runner: ModelRunner, labels: LabelList?, scoreThreshold: Float) {
        self.runner = runner
        self.scoreThreshold = scoreThreshold
        let first = labels?.labels.first?.lowercased()
        labelOffset = (first == "???" || first == "background") ? 1 : 0
        self.labels = labels
    }

    func localize(_ image: RGBImage) throws -> [DetectionCandidate] {
        let transform = try runner.run(image)
        let boxes = try runner.output(0), classes = try runner.output(1)
        let scores = try runner.output(2), count = try runner.output(3)
        let n = min(Int(count.values.first ?? 0), scores.values.count, classes.values.count, boxes.values.count / 4)
        var result: [DetectionCandidate] = []
        for i in 0..<max(0, n) where scores.values[i] >= scoreThreshold {
            let b = Array(boxes.values[(4 * i)..<(4 * i + 4)]).map { Double(min(max($0, 0), 1)) }
            let rect = ImageRect(corners: b[1], b[0], b[3], b[2])
            result.append(DetectionCandidate(rect: transform.imageRect(fromNormalizedInput: rect),
                                             score: scores.values[i],
                                             classIndex: Int(classes.values[i]) + labelOffset))
        }
        return result.sorted { $0.score > $1.score }
    }
}
