import FlatBufferReader

/// The options of MediaPipe's custom operator `Landmarks2TransformMatrix` (version 2, MediaPipe's
/// attention face mesh): a FlexBuffer map in the operator's `custom_options`.
public struct LandmarksToTransformMatrixOptions: Sendable, Equatable {
    /// The custom operator's name.
    public static let operatorName = "Landmarks2TransformMatrix"
    /// `subset_idxs`: landmark index pairs whose rotated bounding box sizes the crop, flattened;
    /// an odd count's last index is repeated, as MediaPipe pairs them.
    public var subsetIndices: [Int]
    /// `left_rotation_idx`, `right_rotation_idx`: the landmarks that give the rotation.
    public var leftRotationIndex: Int, rightRotationIndex: Int
    /// `target_rotation_radians`; 0 when absent.
    public var targetRotationRadians: Float
    /// `output_width`, `output_height`: the crop's size.
    public var outputWidth: Int, outputHeight: Int
    /// `scale_x`, `scale_y`: the crop's size relative to the landmarks' bounding box.
    public var scaleX: Float, scaleY: Float

    /// Decodes the FlexBuffer options map. Values are not range-checked here (the operator checks
    /// what its kernel can run).
    /// - Throws: ``TFLiteSchemaError/invalidCustomOptions(operator:reason:)`` when the bytes are
    ///   not a FlexBuffer map, a required key is missing or `subset_idxs` holds a non-integer.
    public init(customOptions bytes: [UInt8]) throws {
        let op = Self.operatorName
        let map: FlexBufferMap
        do { map = try FlexBufferMap(bytes: bytes) } catch {
            throw TFLiteSchemaError.invalidCustomOptions(operator: op, reason: "not a FlexBuffer map (\(error))")
        }
        func missing(_ key: String) -> TFLiteSchemaError {
            TFLiteSchemaError.invalidCustomOptions(operator: op, reason: "option '\(key)' is missing")
        }
        func int(_ key: String) throws -> Int {
            guard let v = map.int(key) else { throw missing(key) }
            return v
        }
        func float(_ key: String) throws -> Float {
            guard let v = map.float(key) else { throw missing(key) }
            return v
        }
        guard let subset = map.vector("subset_idxs") else { throw missing("subset_idxs") }
        let indices = subset.ints
        guard indices.count == subset.count else {
            throw TFLiteSchemaError.invalidCustomOptions(operator: op, reason: "subset_idxs holds a value that is not an integer")
        }
        subsetIndices = indices.map { Int(truncatingIfNeeded: $0) }
        if let last = subsetIndices.last, subsetIndices.count % 2 == 1 { subsetIndices.append(last) }
        leftRotationIndex = try int("left_rotation_idx")
        rightRotationIndex = try int("right_rotation_idx")
        targetRotationRadians = map.float("target_rotation_radians") ?? 0
        outputWidth = try int("output_width")
        outputHeight = try int("output_height")
        scaleX = try float("scale_x")
        scaleY = try float("scale_y")
    }
}
