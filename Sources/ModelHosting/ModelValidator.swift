import Foundation

/// Decides whether a downloaded, checksum-verified file is a model this engine can use, before
/// it is installed. Throwing rejects the file; the previous version stays current.
public struct ModelValidator: Sendable {
    /// Checks the file at the given path; throws when it is not usable.
    public let validate: @Sendable (String) throws -> Void

    /// A validator running `validate`.
    public init(_ validate: @escaping @Sendable (String) throws -> Void) {
        self.validate = validate
    }

    /// Checks the FlatBuffers file identifier `TFL3` at byte offset 4 that every `.tflite`
    /// file carries.
    public static let fileIdentifier = ModelValidator { path in
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ModelHostingError.invalidModel("cannot open \(path)")
        }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 8)) ?? Data()
        guard head.count == 8, Array(head[head.startIndex + 4 ..< head.startIndex + 8]) == Array("TFL3".utf8) else {
            throw ModelHostingError.invalidModel("no TFLite file identifier (TFL3) at offset 4")
        }
    }

    /// The validator a ``ModelManager`` uses unless configured otherwise.
    public static let standard = fileIdentifier
}
