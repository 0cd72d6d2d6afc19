import FlatBufferReader

/// The optional parts of a model file besides the graph: the `TFLITE_METADATA` buffer and
/// the ZIP archive of associated files appended after the FlatBuffer. A malformed optional
/// part rejects the model with a typed error.
struct ModelExtras {
    var metadata: ModelMetadata?
    var files: [String: [UInt8]] = [:]

    /// Name of the metadata entry holding the metadata FlatBuffer.
    static let metadataEntryName = "TFLITE_METADATA"

    /// Reads the metadata and the archive, then checks every label file the metadata declares:
    /// it must be in the archive (a model cut inside its archive is rejected, not run with
    /// unnamed classes) and within the label limits.
    static func load(storage: ByteStorage, buffers: [Range<Int>], entries: [MetadataEntry],
                     limits: ResourceLimits = .default) throws -> ModelExtras {
        var extras = ModelExtras()
        if let entry = entries.first(where: { $0.name == metadataEntryName }), entry.buffer < buffers.count {
            extras.metadata = try MetadataDecoder(storage: storage, range: buffers[entry.buffer]).decode()
        }
        extras.files = try AssociatedFileArchive.read(storage: storage, limits: limits)
        try extras.checkLabelFiles(storage: storage, flatBufferEnd: buffers.map(\.upperBound).max() ?? 0, limits: limits)
        return extras
    }

    /// The label files (`TENSOR_AXIS_LABELS`, `TENSOR_VALUE_LABELS`) the metadata declares.
    private var declaredLabelFiles: [AssociatedFile] {
        guard let metadata else { return [] }
        let tensors = metadata.subgraphs.flatMap { $0.outputTensors + $0.inputTensors }
        return (metadata.associatedFiles + tensors.flatMap(\.associatedFiles))
            .filter { $0.type == .tensorAxisLabels || $0.type == .tensorValueLabels }
    }

    private func checkLabelFiles(storage: ByteStorage, flatBufferEnd: Int, limits: ResourceLimits) throws {
        for declared in declaredLabelFiles {
            guard let bytes = files[declared.name] else {
                // Metadata may name files that were never packed; a ZIP header after the
                // FlatBuffer with no readable archive means the file was cut.
                if files.isEmpty, Self.containsLocalHeader(storage, from: flatBufferEnd) {
                    throw TFLiteSchemaError.invalidArchive(
                        "the label file \(declared.name) is in a ZIP archive that ends early (the model file is "
                        + "truncated or damaged after byte \(flatBufferEnd)); download or copy the model again")
                }
                continue
            }
            try LabelList.checkBounds(bytes, limits: limits, "label file \(declared.name) in the model's archive")
        }
    }

    /// True when a ZIP local-file-header signature ("PK\u{3}\u{4}") occurs at or after `start`.
    private static func containsLocalHeader(_ storage: ByteStorage, from start: Int) -> Bool {
        var position = max(0, start)
        while position + 4 <= storage.count {
            if storage.load(UInt32.self, at: position) == 0x0403_4B50 { return true }
            position += 1
        }
        return false
    }
}
