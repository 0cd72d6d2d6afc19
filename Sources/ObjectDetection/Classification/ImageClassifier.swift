import Foundation
import TFLiteSchema

/// Classifies image regions with an image-classification model (one image input, one
/// `[1, classes]` output; uint8, int8 or float). Labels come from the model's metadata or a
/// side-car label file; scores are probabilities (a softmax is applied when the model outputs
/// logits).
final class ImageClassifier {
    let runner: ModelRunner
    /// Label names, when known.
    let labels: LabelList?
    /// The metadata's score threshold, when present.
    let metadataScoreThreshold: Float?

    /// Loads `modelPath` within `limits` (see ``ModelRunner``).
    init(modelPath: String, labels: LabelList?, threadCount: Int?, limits: ResourceLimits = .default) throws {
        runner = try ModelRunner(path: modelPath, threadCount: threadCount, floatNormalization: .signedUnitInterval,
                                 limits: limits)
        let shapes = try runner.outputShapes()
        guard let shape = shapes.first, shape.reduce(1, *) == shape.last, (shape.last ?? 0) > 1 else {
            throw ObjectDetectionError.unsupportedModel(
                "\(modelPath): a classifier needs one [1, classes] output, found \(shapes)")
        }
        self.labels = labels ?? runner.file.labels(forOutput: 0)
        metadataScoreThreshold = runner.file.metadata?.subgraphs.first?.outputTensors.first?.scoreThreshold
        if let labels = self.labels, labels.labels.count != shape.last {
            // A label file with a background slot for a classifier without one, or the reverse,
            // shifts every name: refuse rather than mislabel.
            if labels.labels.count != (shape.last ?? 0) + 1 {
                throw ObjectDetectionError.invalidResource(
                    "\(modelPath): \(labels.labels.count) labels for \(shape.last ?? 0) classes")
            }
        }
    }

    /// Class probabilities of `region` of `image`, in class order.
    func probabilities(_ image: RGBImage, region: ImageRect?) throws -> [Float] {
        try runner.run(image, region: region)
        var scores = try runner.output(0).values
        // Quantized softmax outputs do not sum exactly to 1 (small values round to 0), so only
        // values outside [0, 1] mark logits.
        if !scores.allSatisfy({ $0 >= 0 && $0 <= 1.0001 }) {
            let top = scores.max() ?? 0
            scores = scores.map { exp($0 - top) }
            let sum = scores.reduce(0, +)
            scores = scores.map { $0 / sum }
        }
        return scores
    }

    /// Labels of `region`, best first: at most `maxCount`, each at least `threshold`.
    func classify(_ image: RGBImage, region: ImageRect?, threshold: Float, maxCount: Int) throws -> [ObjectLabel] {
        let scores = try probabilities(image, region: region)
        let offset = (labels?.labels.count ?? scores.count) - scores.count   // 1 with a background slot
        return scores.indices
            .filter { scores[$0] >= threshold }
            .sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }
            .prefix(max(0, maxCount))
            .map { i in ObjectLabel(text: labels?.labels[i + offset], index: i, confidence: scores[i]) }
    }
}
