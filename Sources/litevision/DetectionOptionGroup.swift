import ArgumentParser
import Foundation
import ModelHosting
import ObjectDetection
import ResourceLimitOptions
import TFLiteSchema

/// Options shared by `detect` and `track`: which models, which objects, which labels.
struct DetectionOptionGroup: ParsableArguments {
    @Option(help: "Detector mode: stream (tracking IDs) or single (no IDs).")
    var mode: ModeArgument = .stream

    @Flag(help: "Return up to --max-objects objects instead of only the most prominent one.")
    var multiple = false

    @Flag(help: "Label objects: coarse categories with the default classifier, or the --classifier / --detector model's labels.")
    var classify = false

    @Option(help: "Image-classification .tflite that labels each object (turns on --classify).")
    var classifier: String?

    @Option(help: "Detector .tflite used as the localizer (SSD with TFLite_Detection_PostProcess, BlazeFace, YOLO).")
    var detector: String?

    @Option(help: "Label file of the --detector model, or of the --classifier model when no detector is given.")
    var labels: String?

    @Option(help: "Label file of the --classifier model when --labels names the detector's labels.")
    var classifierLabels: String?

    // Numeric options parse their next word unconditionally, so `--max-objects -1` reaches
    // validate() as a value (and gets a message) instead of being read as an unknown flag.
    @Option(parsing: .unconditional,
            help: "Minimum confidence in 0...1: detector score (with --detector) and label confidence (with --classifier).")
    var threshold: Float?

    @Option(parsing: .unconditional, help: "Labels kept per object (custom classifier).")
    var maxLabels: Int = 10

    @Option(parsing: .unconditional, help: "Maximum objects returned (implies --multiple when above 1).")
    var maxObjects: Int?

    @Option(help: "Orientation of the stored image: up, down, left, right, upMirrored, ..., EXIF 1-8, or topLeft...leftBottom.")
    var orientation: String = "up"

    @Option(help: "Directory with the default models (default: $LITEVISION_MODELS or Models).")
    var models: String?

    @Option(parsing: .unconditional, help: "Interpreter threads (default: all cores).")
    var threads: Int?

    @OptionGroup(title: "Resource limits") var limits: ResourceLimitOptionGroup

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Largest image or frame (width × height pixels) to decode (default \(ResourceLimits.default.maximumImagePixelCount)).",
                               valueName: "pixels"))
    var maxImagePixels: Int?

    /// The shared resource limits with the image size of `--max-image-pixels`.
    func resourceLimits() -> ResourceLimits {
        var resourceLimits = limits.resourceLimits()
        if let maxImagePixels { resourceLimits.maximumImagePixelCount = max(1, maxImagePixels) }
        return resourceLimits
    }

    /// The limits the image and frame readers apply: `--max-image-pixels`, and `--max-memory`
    /// as the most one decode may take.
    var imageLimits: ImageLimits {
        let limits = resourceLimits()
        return ImageLimits(maxPixelCount: limits.maximumImagePixelCount, maxDecodeByteCount: limits.maximumTotalByteCount)
    }

    func validate() throws {
        if let threshold {
            guard threshold.isFinite, (0...1).contains(threshold) else {
                throw ValidationError("--threshold must be a confidence between 0 and 1, got \(threshold)")
            }
            guard detector != nil || classifier != nil else {
                throw ValidationError(
                    "--threshold applies to --detector scores and --classifier label confidences; the default detector has neither")
            }
        }
        if let maxObjects, maxObjects < 1 { throw ValidationError("--max-objects must be at least 1, got \(maxObjects)") }
        if maxLabels < 1 { throw ValidationError("--max-labels must be at least 1, got \(maxLabels)") }
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1, got \(threads)") }
        if let maxImagePixels, maxImagePixels < 1 {
            throw ValidationError("--max-image-pixels must be at least 1, got \(maxImagePixels)")
        }
    }

    enum ModeArgument: String, ExpressibleByArgument, CaseIterable {
        case stream, single
    }

    /// The parsed orientation.
    func imageOrientation() throws -> ImageOrientation {
        if let exif = Int(orientation), let o = ImageOrientation(exifValue: exif) { return o }
        guard let o = ImageOrientation(name: orientation) else {
            throw ValidationError("unknown orientation \(orientation)")
        }
        return o
    }

    /// Builds the detector these options describe (with `tracking`'s settings in stream mode).
    func makeDetector(tracking: TrackingOptionGroup? = nil) throws -> ObjectDetector {
        let directory = models ?? DefaultModels.directory
        let multipleObjects = multiple || (maxObjects ?? 1) > 1
        let detectorMode: DetectorMode = mode == .stream ? .stream : .singleImage
        if let n = maxObjects, n < 1 { throw ValidationError("--max-objects must be at least 1") }
        guard let classifier else {
            var options = ObjectDetectorOptions()
            options.detectorMode = detectorMode
            options.shouldEnableMultipleObjects = multipleObjects
            options.shouldEnableClassification = classify
            options.maxObjectCount = maxObjects ?? 5
            options.detectorModel = detector.map { .local(LocalModel(path: $0)) }
            options.detectorLabelsPath = labels
            options.detectionScoreThreshold = detector != nil ? threshold : nil
            tracking?.apply(to: &options)
            return try ObjectDetector.objectDetector(options: options, modelDirectory: directory, threadCount: threads,
                                                     resourceLimits: resourceLimits())
        }
        var options = CustomObjectDetectorOptions(localModel: LocalModel(path: classifier))
        options.detectorMode = detectorMode
        options.shouldEnableMultipleObjects = multipleObjects
        options.shouldEnableClassification = true
        options.maxObjectCount = maxObjects ?? 5
        options.maxPerObjectLabelCount = maxLabels
        options.detectorModel = detector.map { .local(LocalModel(path: $0)) }
        options.detectorLabelsPath = detector != nil ? labels : nil
        options.classifierLabelsPath = detector != nil ? classifierLabels : (classifierLabels ?? labels)
        options.classificationConfidenceThreshold = threshold
        options.detectionScoreThreshold = detector != nil ? threshold : nil
        tracking?.apply(to: &options)
        return try ObjectDetector.objectDetector(options: options, modelDirectory: directory, threadCount: threads,
                                                 resourceLimits: resourceLimits())
    }
}
