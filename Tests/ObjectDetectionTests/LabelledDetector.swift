import ModelHosting
import ObjectDetection

extension ObjectDetector {
    /// A single-image detector of up to `maxObjects` labelled objects with the local `model`
    /// and, when given, a side-car label file (the comparisons of derived detectors with their
    /// source models).
    static func labelledSingleImage(model: String, labels: String?, maxObjects: Int) throws -> ObjectDetector {
        var options = ObjectDetectorOptions()
        options.detectorMode = .singleImage
        options.shouldEnableMultipleObjects = true
        options.shouldEnableClassification = true
        options.maxObjectCount = maxObjects
        options.detectorModel = .local(LocalModel(path: model))
        options.detectorLabelsPath = labels
        return try ObjectDetector.objectDetector(options: options, threadCount: 1)
    }
}
