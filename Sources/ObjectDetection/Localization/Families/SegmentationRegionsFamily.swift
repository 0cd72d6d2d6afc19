import Foundation
import TFLiteSchema

/// Semantic-segmentation models used as class-agnostic "prominent objects" localizers (the
/// default detector's DeepLabV3, 21 VOC classes): one output `[1, H, W, C]` of class logits →
/// non-background mask → 8-connected regions → boxes ranked by prominence (size, closeness to
/// the centre, confidence). The score is the prominence; the class index is the region's most
/// frequent class.
public struct SegmentationRegionsFamily: DetectorFamily {
    public let name = "segmentation-regions"
    /// Minimum prominence.
    public var defaultScoreThreshold: Float = 0.02
    public var defaultNormalization = InputNormalization.signedUnitInterval
    public var resizeMode = ResizeMode.stretch
    /// Regions smaller than this fraction of the mask are noise.
    public var minAreaFraction = 0.004

    /// Creates the family with the default detector's settings.
    public init() {}

    public func matches(_ model: DetectorModelInfo) -> Bool {
        model.outputShapes.count == 1 && model.outputShapes[0].count == 4 && model.outputShapes[0][0] == 1
            && model.outputShapes[0][3] > 1
    }

    /// Axis labels of the logits output (the model's class names).
    public func labels(for model: DetectorModelInfo) -> LabelList? {
        model.labels ?? model.file.labels(forOutput: 0)
    }

    public func decode(_ outputs: DetectorOutputs, model: DetectorModelInfo, scoreThreshold: Float) throws -> [DetectionCandidate] {
        let shape = outputs.shapes[0]
        guard shape.count == 4, shape[3] > 1 else {
            throw ObjectDetectionError.unsupportedModel("\(model.path): output \(shape) is not [1, height, width, classes]")
        }
        let logits = try outputs.values(at: 0)
        let (h, w, c) = (shape[1], shape[2], shape[3])
        var classMap = [Int32](repeating: 0, count: w * h)
        var foreground = [Float](repeating: 0, count: w * h)
        logits.withUnsafeBufferPointer { logits in
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
            .map { DetectionCandidate(rect: $0.normalizedRect(width: w, height: h), score: $0.prominence(width: w, height: h),
                                      classIndex: $0.dominantClass) }
            .filter { $0.score >= scoreThreshold }
            .sorted { $0.score > $1.score }
    }
}
