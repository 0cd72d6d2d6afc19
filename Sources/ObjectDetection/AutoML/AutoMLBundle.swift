import Foundation
import ObjectTracking
import TFLiteSchema

/// An AutoML-style object-detection export: `model.tflite`, `dict.txt` (one label per line)
/// and `tflite_metadata.json` (`inputShape` [1, height, width, 3], default 320×320;
/// `maxDetections`, default 40).
public struct AutoMLBundle: Sendable {
    /// Path of `model.tflite`.
    public var modelPath: String
    /// Labels from `dict.txt`.
    public var labels: LabelList
    /// Model input width.
    public var inputWidth: Int
    /// Model input height.
    public var inputHeight: Int
    /// Maximum detections the export produces.
    public var maxDetections: Int

    /// Reads the bundle in `directory`. `tflite_metadata.json` is optional (defaults apply);
    /// `model.tflite` and `dict.txt` are required.
    public init(directory: String) throws {
        let base = directory as NSString
        modelPath = base.appendingPathComponent("model.tflite")
        guard FileManager.default.fileExists(atPath: modelPath) else {
            throw ObjectDetectionError.invalidResource("\(modelPath) is missing")
        }
        labels = try LabelList(contentsOf: base.appendingPathComponent("dict.txt"))
        inputWidth = 320; inputHeight = 320; maxDetections = 40
        let metadataPath = base.appendingPathComponent("tflite_metadata.json")
        if let data = FileManager.default.contents(atPath: metadataPath) {
            guard data.count <= 1 << 20,
                  let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw ObjectDetectionError.invalidResource("\(metadataPath) is not a JSON object")
            }
            if let shape = json["inputShape"] as? [Int] {
                guard shape.count == 4, shape[1] > 0, shape[2] > 0, shape[1] <= 8192, shape[2] <= 8192 else {
                    throw ObjectDetectionError.invalidResource("\(metadataPath): inputShape \(shape) is not [1, height, width, channels]")
                }
                inputHeight = shape[1]; inputWidth = shape[2]
            }
            if let max = json["maxDetections"] as? Int {
                guard max > 0 else { throw ObjectDetectionError.invalidResource("\(metadataPath): maxDetections \(max)") }
                maxDetections = max
            }
        }
    }
}

/// Runs an AutoML detection bundle: an ``ObjectDetector`` configured for it (single-image
/// mode, up to `bundle.maxDetections` objects, the ``PostProcessedSSDFamily`` decoder, labels
/// from `dict.txt`). The image is scaled to the model input; each ``DetectedObject`` has its
/// frame in upright-image pixels and one label (text from `dict.txt`, class index, score).
public final class AutoMLObjectDetector: Sendable {
    /// The bundle.
    public let bundle: AutoMLBundle
    /// Minimum score of returned detections.
    public let scoreThreshold: Float
    private let detector: ObjectDetector

    /// Loads `bundle`; throws when the model's input does not match `tflite_metadata.json` or
    /// its outputs are not those of `TFLite_Detection_PostProcess`.
    public init(bundle: AutoMLBundle, scoreThreshold: Float = 0.5, threadCount: Int? = nil) throws {
        self.bundle = bundle
        self.scoreThreshold = scoreThreshold
        let family = PostProcessedSSDFamily()
        let localizer = try FamilyLocalizer(modelPath: bundle.modelPath, labels: bundle.labels, scoreThreshold: scoreThreshold,
                                            threadCount: threadCount, family: family)
        let model = localizer.model
        guard (model.inputWidth, model.inputHeight) == (bundle.inputWidth, bundle.inputHeight) else {
            throw ObjectDetectionError.invalidResource(
                "\(bundle.modelPath) takes \(model.inputWidth)x\(model.inputHeight), tflite_metadata.json says \(bundle.inputWidth)x\(bundle.inputHeight)")
        }
        guard family.matches(model) else {
            throw ObjectDetectionError.unsupportedModel("\(bundle.modelPath): outputs \(model.outputShapes) are not boxes, classes, scores, count")
        }
        var options = ObjectDetectorOptions()
        options.detectorMode = .singleImage
        options.shouldEnableMultipleObjects = true
        options.shouldEnableClassification = true
        options.maxObjectCount = bundle.maxDetections
        detector = ObjectDetector(settings: .init(options), localizer: localizer, classifier: nil,
                                  clock: SystemTrackingClock())
    }

    /// Detects labelled boxes, best first, at most `bundle.maxDetections`.
    public func results(in image: VisionImage) throws -> [DetectedObject] {
        try detector.results(in: image)
    }
}
