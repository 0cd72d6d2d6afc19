import Foundation
import TFLiteSchema

/// The class-agnostic "prominent objects" localizer of the default detector: a semantic
/// segmentation model (DeepLabV3, 21 VOC classes) → non-background mask → 8-connected regions
/// → boxes ranked by prominence (size, closeness to the centre, confidence).
final class ProminentRegionLocalizer: Localizer {
    let runner: ModelRunner
    let labels: LabelList?
    let minProminence: Float
    /// Regions smaller than this fraction of the mask are noise.
    let minAreaFraction = 0.004

    init(runner: ModelRunner, scoreThreshold: Float) {
        self.runner = runner
        labels = runner.file.labels(forOutput: 0)
        minProminence = scoreThreshold
    }

    func localize(_ image: RGBImage) throws -> [DetectionCandidate] {
        let transform = try runner.run(image)
        let output = try runner.output(0)
        let (h, w, c) = (output.shape[1], output.shape[2], output.shape[3])
        var classMap = [Int32](repeating: 0, count: w * h)
        var foreground = [Float](repeating: 0, count: w * h)
        output.values.withUnsafeBufferPointer { logits in
            for p in 0..<(w * h) {
                let row = logits[(p * c)..<(p * c + c)]
                var best = 0
                let top = row.max() ?? 0
                var sum: Float = 0
                for k in 0..<c {
                    sum += exp(row[row.startIndex + k] - top)
                    if row[row.startIndex + k] > row[row.startIndex + best] { best = k }
                }
                classMap[p] = Int32(best)
                foreground[p] = 1 - exp(row[row.startIndex] - top) / sum   // 1 − P(background)
            }
        }
        let minArea = max(1, Int(Double(w * h) * minAreaFraction))
        return connectedRegions(classMap: classMap, confidence: foreground, width: w, height: h, minArea: minArea)
            .map { region in
                DetectionCandidate(rect: transform.imageRect(fromNormalizedInput: region.normalizedRect(width: w, height: h)),
                                   score: region.prominence(width: w, height: h), classIndex: region.dominantClass)
            }
            .filter { $0.score >= minProminence }
            .sorted { $0.score > $1.score }
    }
}
