import FlatBufferReader

/// Decodes the TFLite `Model` table (schema.fbs field ids) into the value types of
/// `ModelTypes.swift`. Structural checks only; graph semantics are checked by `ModelValidator`.
struct ModelDecoder {
    /// The FlatBuffer identifier of `.tflite` files.
    static let fileIdentifier = "TFL3"
    /// Smallest possible model: root offset, identifier and a minimal vtable/table.
    static let minimumSize = 12

    let buffer: FlatBuffer

    /// Output of decoding.
    struct Decoded {
        var version: Int
        var description: String
        var operatorCodes: [OperatorCode]
        var subgraphs: [SubgraphDescription]
        var buffers: [Range<Int>]
        var signatures: [SignatureDescription]
        var metadataEntries: [MetadataEntry]
    }

    init(storage: ByteStorage) throws {
        guard storage.count >= Self.minimumSize else {
            throw TFLiteSchemaError.truncated("file has \(storage.count) bytes, a model needs at least \(Self.minimumSize)")
        }
        do { buffer = try FlatBuffer(storage: storage) } catch {
            throw TFLiteSchemaError.wrapping(error, element: "model buffer")
        }
        guard buffer.hasIdentifier(Self.fileIdentifier) else {
            throw TFLiteSchemaError.wrongIdentifier(expected: Self.fileIdentifier, found: buffer.fileIdentifier ?? "")
        }
    }

    /// Decodes the model; `known`: its buffers' ranges where ``bufferRanges()`` already gave
    /// them (they are decoded here otherwise).
    func decode(bufferRanges known: [Range<Int>]? = nil) throws -> Decoded {
        let model = try element("model root") { try buffer.rootTable() }
        let version = Int(try element("model version") { try model.scalar(0, default: UInt32(0)) })
        let description = try element("model description") { try model.string(3) } ?? ""
        let operatorCodes = try element("operator codes") { try model.tableArray(1) }
            .enumerated().map { try decodeOperatorCode($1, index: $0) }
        let buffers = try known ?? bufferRanges()
        let subgraphs = try element("subgraphs") { try model.tableArray(2) }
            .enumerated().map { try decodeSubgraph($1, index: $0) }
        let metadataEntries = try element("metadata") { try model.tableArray(6) }
            .enumerated().map { index, table in
                try element("metadata entry \(index)") {
                    MetadataEntry(name: try table.string(0) ?? "", buffer: Int(try table.scalar(1, default: UInt32(0))))
                }
            }
        let signatures = try element("signature defs") { try model.tableArray(7) }
            .enumerated().map { try decodeSignature($1, index: $0) }
        return Decoded(version: version, description: description, operatorCodes: operatorCodes,
                       subgraphs: subgraphs, buffers: buffers, signatures: signatures,
                       metadataEntries: metadataEntries)
    }

    /// The bytes of each buffer (empty for none), as `decode()` gives them: what a model read on
    /// demand can read ahead of the rest of the decode.
    func bufferRanges() throws -> [Range<Int>] {
        let model = try element("model root") { try buffer.rootTable() }
        return try element("buffers") { try model.tableArray(4) }.enumerated().map { try decodeBuffer($1, index: $0) }
    }

    /// Runs `body`, converting reader errors into schema errors naming `name`.
    private func element<R>(_ name: @autoclosure () -> String, _ body: () throws -> R) throws -> R {
        do { return try body() } catch { throw TFLiteSchemaError.wrapping(error, element: name()) }
    }

    private func decodeOperatorCode(_ table: FlatTable, index: Int) throws -> OperatorCode {
        try element("operator code \(index)") {
            let deprecated = Int32(try table.scalar(0, default: Int8(0)))
            let builtin = try table.scalar(3, default: Int32(0))
            let custom = try table.string(1)
            let version = Int(try table.scalar(2, default: Int32(1)))
            return OperatorCode(builtin: BuiltinOperator(rawValue: Swift.max(deprecated, builtin)),
                                customName: custom, version: version)
        }
    }

    /// Inline data, or `offset`/`size` relative to the file start when `offset > 1`.
    private func decodeBuffer(_ table: FlatTable, index: Int) throws -> Range<Int> {
        try element("buffer \(index)") {
            let offset = try table.scalar(1, default: UInt64(0))
            let size = try table.scalar(2, default: UInt64(0))
            if offset > 1 {
                let fileSize = buffer.count
                let (end, overflow) = offset.addingReportingOverflow(size)
                guard !overflow, end <= UInt64(fileSize) else {
                    throw TFLiteSchemaError.bufferOutOfFile(buffer: index, offset: offset, size: size, fileSize: fileSize)
                }
                return (buffer.start + Int(offset))..<(buffer.start + Int(end))
            }
            guard let data = try table.vector(0, elementSize: 1) else { return 0..<0 }
            return data.storageRange
        }
    }

    private func decodeSubgraph(_ table: FlatTable, index: Int) throws -> SubgraphDescription {
        let name = try element("subgraph \(index) name") { try table.string(4) } ?? ""
        let tensors = try element("subgraph \(index) tensors") { try table.tableArray(0) }
            .enumerated().map { try decodeTensor($1, element: "subgraph \(index) tensor \($0)") }
        let inputs = try element("subgraph \(index) inputs") { try table.int32Array(1) }.map { Int($0) }
        let outputs = try element("subgraph \(index) outputs") { try table.int32Array(2) }.map { Int($0) }
        let operators = try element("subgraph \(index) operators") { try table.tableArray(3) }
            .enumerated().map { try decodeOperator($1, element: "subgraph \(index) operator \($0)") }
        return SubgraphDescription(name: name, tensors: tensors, inputs: inputs, outputs: outputs, operators: operators)
    }

    private func decodeTensor(_ table: FlatTable, element name: String) throws -> TensorDescription {
        try element(name) {
            let shape = try table.int32Array(0).map { Int($0) }
            let typeCode = try table.scalar(1, default: Int8(0))
            guard let type = TensorType(rawValue: typeCode) else {
                throw TFLiteSchemaError.malformedFlatBuffer(element: name, reason: "unknown tensor type \(typeCode)")
            }
            let bufferIndex = Int(try table.scalar(2, default: UInt32(0)))
            let tensorName = try table.string(3) ?? ""
            let quantization = try table.table(4).flatMap { try decodeQuantization($0) }
            let isVariable = try table.bool(5, default: false)
            let sparsity = try table.table(6).map { try decodeSparsity($0) }
            let signature = try table.vector(7, elementSize: 4).map { try $0.integers(Int32.self).map { Int($0) } }
            return TensorDescription(name: tensorName, shape: shape, shapeSignature: signature, type: type,
                                     buffer: bufferIndex, quantization: quantization, sparsity: sparsity,
                                     isVariable: isVariable)
        }
    }

    private func decodeQuantization(_ table: FlatTable) throws -> Quantization? {
        let scales = try table.floatArray(2)
        let zeroPoints = try table.int64Array(3)
        guard !scales.isEmpty else { return nil }
        return Quantization(scales: scales, zeroPoints: zeroPoints,
                            quantizedDimension: Int(try table.scalar(6, default: Int32(0))),
                            min: try table.floatArray(0), max: try table.floatArray(1))
    }

    private func decodeSparsity(_ table: FlatTable) throws -> Sparsity {
        let dimensions = try table.tableArray(2).map { dimension -> SparseDimension in
            let formatCode = try dimension.scalar(0, default: Int8(0))
            guard let format = SparseDimension.Format(rawValue: formatCode) else {
                throw TFLiteSchemaError.malformedFlatBuffer(element: "sparsity", reason: "unknown dimension format \(formatCode)")
            }
            return SparseDimension(format: format, denseSize: Int(try dimension.scalar(1, default: Int32(0))),
                                   arraySegments: try sparseIndexVector(dimension, typeId: 2, valueId: 3),
                                   arrayIndices: try sparseIndexVector(dimension, typeId: 4, valueId: 5))
        }
        return Sparsity(traversalOrder: try table.int32Array(0), blockMap: try table.int32Array(1),
                        dimensions: dimensions)
    }

    /// `SparseIndexVector` union: 1 Int32Vector, 2 Uint16Vector, 3 Uint8Vector (field 0 `values`).
    private func sparseIndexVector(_ table: FlatTable, typeId: Int, valueId: Int) throws -> [Int32] {
        guard let (type, values) = try table.union(typeId: typeId, valueId: valueId) else { return [] }
        switch type {
        case 1: return try values.int32Array(0)
        case 2: return try values.uint16Array(0).map { Int32($0) }
        case 3: return try values.byteArray(0).map { Int32($0) }
        default:
            throw TFLiteSchemaError.malformedFlatBuffer(element: "sparsity", reason: "unknown index vector type \(type)")
        }
    }

    private func decodeOperator(_ table: FlatTable, element name: String) throws -> OperatorDescription {
        try element(name) {
            let opcodeIndex = Int(try table.scalar(0, default: UInt32(0)))
            let inputs = try table.int32Array(1).map { Int($0) }
            let outputs = try table.int32Array(2).map { Int($0) }
            let options = try table.union(typeId: 3, valueId: 4).map { OptionsTable(typeCode: $0.type, table: $0.table) }
            var custom = try table.byteArray(5)
            let largeOffset = try table.scalar(9, default: UInt64(0))
            let largeSize = try table.scalar(10, default: UInt64(0))
            if custom.isEmpty, largeOffset > 1 {
                let (end, overflow) = largeOffset.addingReportingOverflow(largeSize)
                guard !overflow, end <= UInt64(buffer.count) else {
                    throw TFLiteSchemaError.truncated("\(name): large custom options at \(largeOffset) (+\(largeSize)) past end of file")
                }
                custom = try buffer.bytes(at: Int(largeOffset), count: Int(largeSize), "large custom options")
            }
            let intermediates = try table.int32Array(8).map { Int($0) }
            return OperatorDescription(opcodeIndex: opcodeIndex, inputs: inputs, outputs: outputs,
                                       intermediates: intermediates, builtinOptions: options, customOptions: custom)
        }
    }

    private func decodeSignature(_ table: FlatTable, index: Int) throws -> SignatureDescription {
        try element("signature \(index)") {
            func tensorMaps(_ id: Int) throws -> [SignatureTensor] {
                try table.tableArray(id).map {
                    SignatureTensor(name: try $0.string(0) ?? "", tensorIndex: Int(try $0.scalar(1, default: UInt32(0))))
                }
            }
            return SignatureDescription(key: try table.string(2) ?? "",
                                        subgraphIndex: Int(try table.scalar(4, default: UInt32(0))),
                                        inputs: try tensorMaps(0), outputs: try tensorMaps(1))
        }
    }
}
