import Foundation

/// The JSON encoding of the detection records (``ImageDetectionRecord``,
/// ``FrameDetectionRecord``, ``DetectedObjectRecord``) that the command line prints: one
/// compact line, keys sorted, slashes not escaped.
public enum DetectionJSON {
    /// `value` as one line of JSON (no trailing newline).
    /// - Throws: `EncodingError` for values JSON cannot hold (a non-finite number).
    public static func line(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
