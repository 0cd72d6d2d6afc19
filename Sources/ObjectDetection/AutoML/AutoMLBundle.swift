import Foundation
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

/// Runs an AutoML detection bundle through the `Interpreter`: scales the image to the model
/// input, decodes boxes (top, left, bottom, right, normalized), looks up labels and applies
/// the score threshold. Results are in upright-image pixels.
public final class AutoMLObjectDetector: @unchecked Sendable {
    /// One labelled box.
    public struct Detection: Sendable, Equatable {
        /// Label text from `dict.txt`, nil when the index is outside it.
        public var label: String?
        /// Class index.
        public var classIndex: Int
        /// Score in [0, 1].
        public var score: Float
        /// Box in upright-image pixels.
        public var frame: ImageRect
    }

    /// The bundle.
    public let bundle: AutoMLBundle
    /// Minimum score of returned detections.
    public var scoreThreshold: Float
    private let lock = NSLock()
    private let localizer: PostProcessedSSDLocalizer

    /// Loads `bundle`; throws when the model's input does not match `tflite_metadata.json`.
    public init(bundle: AutoMLBundle, scoreThreshold: Float = 0.5, threadCount: Int? = nil) throws {
        self.bundle = bundle
        self.scoreThreshold = scoreThreshold
        let runner = try ModelRunner(path: bundle.modelPath, threadCount: threadCount, floatNormalization: .signedUnitInterval)
        guard runner.inputSize == (bundle.inputWidth, bundle.inputHeight) else {
            throw ObjectDetectionError.invalidResource(
                "\(bundle.modelPath) takes \(runner.inputSize.width)x\(runner.inputSize.height), tflite_metadata.json says \(bundle.inputWidth)x\(bundle.inputHeight)")
        }
        let shapes = try runner.outputShapes()
        guard shapes.count == 4, shapes[0].last == 4 else {
            throw ObjectDetectionError.unsupportedModel("\(bundle.modelPath): outputs \(shapes) are not boxes, classes, scores, count")
        }
        localizer = PostProcessedSSDLocalizer(runner: runner, labels: bundle.labels, scoreThreshold: 0)
    }

    /// Detects labelled boxes, best first, at most `bundle.maxDetections`.
    public func detect(in image: VisionImage) throws -> [Detection] {
        let upright = image.uprightRGB()
        lock.lock(); defer { lock.unlock() }
        return try localizer.localize(upright)
            .filter { $0.score >= scoreThreshold }
            .prefix(bundle.maxDetections)
            .map { c in
                let index = c.classIndex ?? 0
                let names = bundle.labels.labels
                return Detection(label: names.indices.contains(index) ? names[index] : nil, classIndex: index,
                                 score: c.score, frame: c.rect)
            }
    }
}
