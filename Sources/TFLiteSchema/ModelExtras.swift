import FlatBufferReader

/// The optional parts of a model file besides the graph: the `TFLITE_METADATA` buffer and
/// the ZIP archive of associated files appended after the FlatBuffer. A malformed optional
/// part rejects the model with a typed error.
struct ModelExtras {
    var metadata: ModelMetadata?
    var files: [String: [UInt8]] = [:]

    /// Name of the metadata entry holding the metadata FlatBuffer.
    static let metadataEntryName = "TFLITE_METADATA"

    static func load(storage: ByteStorage, buffers: [Range<Int>], entries: [MetadataEntry]) throws -> ModelExtras {
        var extras = ModelExtras()
        if let entry = entries.first(where: { $0.name == metadataEntryName }), entry.buffer < buffers.count {
            extras.metadata = try MetadataDecoder(storage: storage, range: buffers[entry.buffer]).decode()
        }
        extras.files = try AssociatedFileArchive.read(storage: storage)
        return extras
    }
}
