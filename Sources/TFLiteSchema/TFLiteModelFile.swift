// CONTRACT (public API). Bodies are placeholders until the FlatBuffers reader lands.

/// A model-level `metadata` entry (name → buffer index).
public struct MetadataEntry: Sendable, Equatable {
    /// Entry name, e.g. `TFLITE_METADATA`, `min_runtime_version`.
    public var name: String
    /// Buffer index holding its bytes.
    public var buffer: Int
}

/// A parsed and validated `.tflite` file: immutable, `Sendable`, shareable across threads.
/// Holds the file bytes in one 64-byte-aligned allocation that lives as long as the object.
public final class TFLiteModelFile: @unchecked Sendable {
    /// Schema version.
    public let version: Int
    /// Model description string.
    public let description: String
    /// Operator-code table.
    public let operatorCodes: [OperatorCode]
    /// Subgraphs; 0 is the main one.
    public let subgraphs: [SubgraphDescription]
    /// Signature definitions.
    public let signatures: [SignatureDescription]
    /// Model-level metadata entries.
    public let metadataEntries: [MetadataEntry]
    /// Decoded `TFLITE_METADATA`, when present and valid.
    public let metadata: ModelMetadata?
    /// Files from the ZIP archive appended to the model (name → bytes).
    public let associatedFiles: [String: [UInt8]]

    /// Parses and validates a model from bytes (copied into owned, aligned storage).
    public init(bytes: [UInt8]) throws {
        throw TFLiteSchemaError.truncated("not implemented yet")
    }

    /// Reads, parses and validates the model at `path`.
    public convenience init(contentsOf path: String) throws {
        throw TFLiteSchemaError.truncated("not implemented yet")
    }

    /// Number of buffers.
    public var bufferCount: Int { 0 }

    /// Byte count of buffer `index` (0 for empty buffers or out-of-range indices).
    public func bufferByteCount(_ index: Int) -> Int { 0 }

    /// Calls `body` with the bytes of buffer `index` (empty for empty or out-of-range buffers).
    /// The pointer stays valid as long as this object lives.
    public func withBufferBytes<R>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: nil, count: 0))
    }

    /// Labels of output `index` of subgraph 0 (`TENSOR_AXIS_LABELS` file), when the metadata has them.
    public func labels(forOutput index: Int) -> LabelList? { nil }
}

/// Why a model file was rejected. Every case names the offending element.
public enum TFLiteSchemaError: Error, Equatable, Sendable {
    /// The data ends before a read.
    case truncated(String)
}
