import FlatBufferReader

/// The options of the custom operator `TFLite_Detection_PostProcess`: a FlexBuffer map in
/// the operator's `custom_options`, keys as the TensorFlow converter writes them. Decoded
/// here so that the operator and reports such as `tflite-dump` read the same values.
public struct DetectionPostProcessOptions: Sendable, Equatable {
    /// The custom operator's name.
    public static let operatorName = "TFLite_Detection_PostProcess"
    /// `max_detections` (required).
    public var maxDetections: Int
    /// `max_classes_per_detection` (required).
    public var maxClassesPerDetection: Int
    /// `detections_per_class`; 100 when absent or null.
    public var detectionsPerClass: Int
    /// `nms_score_threshold` (required).
    public var nmsScoreThreshold: Float
    /// `nms_iou_threshold` (required).
    public var nmsIouThreshold: Float
    /// `num_classes` (required).
    public var numClasses: Int
    /// `y_scale`, `x_scale`, `h_scale`, `w_scale` (required).
    public var yScale: Float, xScale: Float, hScale: Float, wScale: Float
    /// `use_regular_nms`; false when absent or null.
    public var useRegularNMS: Bool

    /// Decodes the FlexBuffer options map. Values are not range-checked here (the operator
    /// checks what its kernel can run).
    /// - Throws: ``TFLiteSchemaError/invalidCustomOptions(operator:reason:)`` when the bytes
    ///   are not a FlexBuffer map or a required key is missing.
    public init(customOptions bytes: [UInt8]) throws {
        let op = Self.operatorName
        let map: FlexBufferMap
        do { map = try FlexBufferMap(bytes: bytes) } catch {
            throw TFLiteSchemaError.invalidCustomOptions(operator: op, reason: "not a FlexBuffer map (\(error))")
        }
        func int(_ key: String) throws -> Int {
            guard let v = map.int(key) else {
                throw TFLiteSchemaError.invalidCustomOptions(operator: op, reason: "option '\(key)' is missing")
            }
            return v
        }
        func float(_ key: String) throws -> Float {
            guard let v = map.float(key) else {
                throw TFLiteSchemaError.invalidCustomOptions(operator: op, reason: "option '\(key)' is missing")
            }
            return v
        }
        func isAbsent(_ key: String) -> Bool { map[key].map { $0.isNull } ?? true }
        maxDetections = try int("max_detections")
        maxClassesPerDetection = try int("max_classes_per_detection")
        detectionsPerClass = isAbsent("detections_per_class") ? 100 : try int("detections_per_class")
        nmsScoreThreshold = try float("nms_score_threshold")
        nmsIouThreshold = try float("nms_iou_threshold")
        numClasses = try int("num_classes")
        yScale = try float("y_scale"); xScale = try float("x_scale")
        hScale = try float("h_scale"); wScale = try float("w_scale")
        useRegularNMS = isAbsent("use_regular_nms") ? false : (map.bool("use_regular_nms") ?? false)
    }
}
