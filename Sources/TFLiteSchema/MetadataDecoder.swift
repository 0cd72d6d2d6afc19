import FlatBufferReader

/// Decodes the `TFLITE_METADATA` buffer (metadata_schema.fbs, file identifier `M001`)
/// into `ModelMetadata`. Field ids follow the schema's declaration order; a union takes
/// two ids (type, then value).
struct MetadataDecoder {
    /// File identifier of metadata buffers.
    static let fileIdentifier = "M001"

    let storage: ByteStorage
    let range: Range<Int>

    func decode() throws -> ModelMetadata? {
        guard !range.isEmpty else { return nil }
        do {
            let buffer = try FlatBuffer(storage: storage, start: range.lowerBound, count: range.count)
            guard buffer.hasIdentifier(Self.fileIdentifier) else {
                throw TFLiteSchemaError.invalidMetadata(
                    "TFLITE_METADATA buffer has identifier \"\(buffer.fileIdentifier ?? "")\", expected \"\(Self.fileIdentifier)\"")
            }
            let root = try buffer.rootTable()
            return ModelMetadata(name: try root.string(0), description: try root.string(1),
                                 version: try root.string(2), author: try root.string(4),
                                 license: try root.string(5), minParserVersion: try root.string(7),
                                 subgraphs: try root.tableArray(3).map(decodeSubgraph),
                                 associatedFiles: try root.tableArray(6).map(decodeFile))
        } catch let error as TFLiteSchemaError {
            throw error
        } catch {
            throw TFLiteSchemaError.invalidMetadata(String(describing: error))
        }
    }

    private func decodeSubgraph(_ table: FlatTable) throws -> SubgraphMetadata {
        SubgraphMetadata(name: try table.string(0), description: try table.string(1),
                         inputTensors: try table.tableArray(2).map(decodeTensor),
                         outputTensors: try table.tableArray(3).map(decodeTensor),
                         inputProcessUnits: try table.tableArray(5).map(decodeProcessUnit),
                         outputProcessUnits: try table.tableArray(6).map(decodeProcessUnit),
                         associatedFiles: try table.tableArray(4).map(decodeFile))
    }

    private func decodeFile(_ table: FlatTable) throws -> AssociatedFile {
        let code = try table.scalar(2, default: Int8(0))
        return AssociatedFile(name: try table.string(0) ?? "", description: try table.string(1),
                              type: AssociatedFileType(rawValue: code) ?? .unknown, locale: try table.string(3))
    }

    private func decodeTensor(_ table: FlatTable) throws -> TensorMetadata {
        var metadata = TensorMetadata(name: try table.string(0), description: try table.string(1),
                                      dimensionNames: try table.stringArray(2),
                                      processUnits: try table.tableArray(4).map(decodeProcessUnit),
                                      associatedFiles: try table.tableArray(6).map(decodeFile))
        if let content = try table.table(3) {
            metadata.content = try decodeContentProperties(content)
            if let range = try content.table(2) {
                let low = Int(try range.scalar(0, default: Int32(0)))
                let high = Int(try range.scalar(1, default: Int32(0)))
                if low <= high { metadata.contentRange = low...high }
            }
        }
        if let stats = try table.table(5) {
            metadata.statsMax = try stats.floatArray(0)
            metadata.statsMin = try stats.floatArray(1)
        }
        return metadata
    }

    /// `ContentProperties` union: 1 Feature, 2 Image, 3 BoundingBox, 4 Audio.
    private func decodeContentProperties(_ content: FlatTable) throws -> TensorContent? {
        guard let (type, properties) = try content.union(typeId: 0, valueId: 1) else { return nil }
        switch type {
        case 1: return .feature
        case 2:
            let code = try properties.scalar(0, default: Int8(0))
            return .image(colorSpace: ColorSpace(rawValue: code) ?? .unknown)
        case 3:
            let index = try properties.vector(0, elementSize: 4)?.integers(UInt32.self).map { Int($0) } ?? []
            return .boundingBox(index: index, type: Int(try properties.scalar(1, default: Int8(0))),
                                coordinateType: Int(try properties.scalar(2, default: Int8(0))))
        case 4:
            return .audio(sampleRate: Int(try properties.scalar(0, default: UInt32(0))),
                          channels: Int(try properties.scalar(1, default: UInt32(0))))
        default: return nil
        }
    }

    /// `ProcessUnitOptions` union: 1 Normalization, 2 ScoreCalibration, 3 ScoreThresholding,
    /// then tokenizers (kept as `.other`).
    private func decodeProcessUnit(_ unit: FlatTable) throws -> ProcessUnit {
        guard let (type, options) = try unit.union(typeId: 0, valueId: 1) else { return .other(typeCode: 0) }
        switch type {
        case 1: return .normalization(mean: try options.floatArray(0), std: try options.floatArray(1))
        case 2:
            return .scoreCalibration(function: Int(try options.scalar(0, default: Int8(0))),
                                     defaultScore: try options.float(1, default: 0))
        case 3: return .scoreThresholding(globalThreshold: try options.float(0, default: 0))
        default: return .other(typeCode: type)
        }
    }
}
