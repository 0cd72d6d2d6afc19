/// Why one work item has no result. The stream goes on after it: the item's record carries
/// `{"error": {"kind": ..., "message": ...}}` instead of detections.
public struct BatchItemError: Error, Sendable, Equatable, Encodable, CustomStringConvertible {
    /// The class of failure, stable across releases (the `kind` key of error records).
    public enum Kind: String, Sendable, Encodable, CaseIterable {
        /// The input line is not a path nor a valid `{"id", "path"}` object.
        case invalidItem
        /// No file at the path.
        case notFound
        /// The file exists but cannot be read (permissions, a directory, an I/O error).
        case unreadable
        /// The file is larger than the loader accepts.
        case fileTooLarge
        /// The file is not in an image format this build decodes.
        case unsupportedFormat
        /// The file claims a supported format but is corrupt, truncated or too large in pixels.
        case invalidImage
        /// The image decoded but detection failed on it.
        case detectionFailed
    }

    /// The class of failure.
    public var kind: Kind
    /// What went wrong and what to do, for people.
    public var message: String

    /// Creates an item error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// `kind: message`.
    public var description: String { "\(kind.rawValue): \(message)" }
}

/// A failed item: its id and the error its record reports.
public struct BatchFailure: Error, Sendable, Equatable {
    /// The id echoed in the error record.
    public var id: WorkItemID
    /// The error.
    public var error: BatchItemError
}
