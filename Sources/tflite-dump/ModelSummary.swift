import TFLiteSchema

/// Everything `tflite-dump` reports about a model, as plain values (encoded as JSON by
/// `--json`, rendered as text otherwise).
struct ModelSummary: Encodable {
    struct QuantizationSummary: Encodable {
        var scales: [Float]
        var zeroPoints: [Int64]
        var quantizedDimension: Int
    }
    struct TensorSummary: Encodable {
        var index: Int
        var name: String
        var shape: [Int]
        var shapeSignature: [Int]?
        var type: String
        var buffer: Int
        var constantBytes: Int
        var isVariable: Bool
        var isSparse: Bool
        var quantization: QuantizationSummary?

        enum CodingKeys: String, CodingKey {
            case index, name, shape, shapeSignature, type, buffer, constantBytes, isVariable, isSparse, quantization
        }

        /// Writes every key, with `null` for absent values (`quantization` is always present).
        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(index, forKey: .index)
            try container.encode(name, forKey: .name)
            try container.encode(shape, forKey: .shape)
            try container.encode(shapeSignature, forKey: .shapeSignature)
            try container.encode(type, forKey: .type)
            try container.encode(buffer, forKey: .buffer)
            try container.encode(constantBytes, forKey: .constantBytes)
            try container.encode(isVariable, forKey: .isVariable)
            try container.encode(isSparse, forKey: .isSparse)
            try container.encode(quantization, forKey: .quantization)
        }
    }
    struct OperatorSummary: Encodable {
        var index: Int
        var op: String
        var version: Int
        var inputs: [Int]
        var outputs: [Int]
        var options: [String: String]
        var optionOrder: [String]
        var macs: Int
    }
    struct MetadataSummary: Encodable {
        var name: String?
        var description: String?
        var version: String?
        var author: String?
        var license: String?
        var labels: [String]
        var labelsOutputIndex: Int?
        var labelLocale: String?
        var normalization: [NormalizationSummary]
        var scoreThresholds: [ThresholdSummary]
        var associatedFiles: [String]
    }
    struct NormalizationSummary: Encodable {
        var input: Int
        var mean: [Float]
        var std: [Float]
    }
    struct ThresholdSummary: Encodable {
        var output: Int
        var threshold: Float
    }

    var path: String
    var fileSize: Int
    var version: Int
    var description: String
    var subgraphCount: Int
    var tensorCount: Int
    var bufferCount: Int
    var constantBytes: Int
    var signatures: [String]
    var inputs: [TensorSummary]
    var outputs: [TensorSummary]
    var operatorCounts: [String: Int]
    var operators: [OperatorSummary]
    var tensors: [TensorSummary]?
    var metadata: MetadataSummary
    var estimatedMACs: Int
    var unsupportedOperators: [String]
    var arenaBytes: Int?
    var arenaNote: String?
}

extension ModelSummary {
    /// Summarizes subgraph 0 of `model`; `includeTensors` adds the full tensor table.
    init(model: TFLiteModelFile, path: String, includeTensors: Bool, engine: EngineReport) {
        let subgraph = model.subgraphs.first ?? SubgraphDescription(name: "", tensors: [], inputs: [], outputs: [], operators: [])
        func tensor(_ index: Int) -> TensorSummary {
            let description = subgraph.tensors[index]
            return TensorSummary(
                index: index, name: description.name, shape: description.shape,
                shapeSignature: description.shapeSignature, type: description.type.description,
                buffer: description.buffer, constantBytes: model.bufferByteCount(description.buffer),
                isVariable: description.isVariable, isSparse: description.sparsity != nil,
                quantization: description.quantization.map {
                    QuantizationSummary(scales: $0.scales, zeroPoints: $0.zeroPoints, quantizedDimension: $0.quantizedDimension)
                })
        }
        self.path = path
        fileSize = model.fileSize
        version = model.version
        description = model.description
        subgraphCount = model.subgraphs.count
        tensorCount = subgraph.tensors.count
        bufferCount = model.bufferCount
        constantBytes = (0..<model.bufferCount).reduce(0) { $0 + model.bufferByteCount($1) }
        signatures = model.signatures.map(\.key)
        inputs = subgraph.inputs.map(tensor)
        outputs = subgraph.outputs.map(tensor)
        var counts: [String: Int] = [:]
        let macs = model.macEstimate()
        operators = subgraph.operators.enumerated().map { index, op in
            let code = model.operatorCodes[op.opcodeIndex]
            counts[code.displayName, default: 0] += 1
            let options = OperatorOptionsSummary.options(of: op, code: code)
            return OperatorSummary(index: index, op: code.displayName, version: code.version, inputs: op.inputs,
                                   outputs: op.outputs, options: Dictionary(options, uniquingKeysWith: { a, _ in a }),
                                   optionOrder: options.map(\.0),
                                   macs: macs.operators.indices.contains(index) ? macs.operators[index] : 0)
        }
        operatorCounts = counts
        tensors = includeTensors ? subgraph.tensors.indices.map(tensor) : nil
        metadata = MetadataSummary(model: model)
        estimatedMACs = macs.total
        unsupportedOperators = engine.unsupportedOperators
        arenaBytes = engine.arenaBytes
        arenaNote = engine.arenaNote
    }
}

extension ModelSummary.MetadataSummary {
    init(model: TFLiteModelFile) {
        let metadata = model.metadata
        name = metadata?.name; description = metadata?.description; version = metadata?.version
        author = metadata?.author; license = metadata?.license
        labels = []; labelsOutputIndex = nil; labelLocale = nil
        let outputCount = model.subgraphs.first?.outputs.count ?? 0
        search: for type in [AssociatedFileType.tensorAxisLabels, .tensorValueLabels] {
            for index in 0..<outputCount {
                if let list = model.labels(forOutput: index, type: type) {
                    labels = list.labels; labelsOutputIndex = index; labelLocale = list.locale
                    break search
                }
            }
        }
        let subgraph = metadata?.subgraphs.first
        normalization = (subgraph?.inputTensors ?? []).enumerated().compactMap { index, tensor in
            tensor.normalization.map { ModelSummary.NormalizationSummary(input: index, mean: $0.mean, std: $0.std) }
        }
        scoreThresholds = (subgraph?.outputTensors ?? []).enumerated().compactMap { index, tensor in
            tensor.scoreThreshold.map { ModelSummary.ThresholdSummary(output: index, threshold: $0) }
        }
        associatedFiles = model.associatedFiles.keys.sorted()
    }
}
