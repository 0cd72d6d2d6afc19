import FlatBufferReader

/// Drives every reader on arbitrary bytes and touches all decoded values: the body of the
/// libFuzzer target (`Scripts/fuzz.sh`) and of the crash-regression tests, which reach it
/// with `@testable import` (it is not API).
enum FuzzTargets {
    /// Loads `bytes` as a model, a FlexBuffer map and an appended ZIP archive; errors are expected,
    /// crashes are bugs.
    static func exercise(_ bytes: [UInt8]) {
        if let model = try? TFLiteModelFile(bytes: bytes) { touch(model) }
        if let map = try? FlexBufferMap(bytes: bytes) { touch(map, depth: 0) }
        _ = try? AssociatedFileArchive.files(in: bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        _ = LabelList(text: text)
        _ = LabelList(ultralyticsMetadata: text)
    }

    private static func touch(_ model: TFLiteModelFile) {
        for index in 0..<model.bufferCount {
            _ = try? model.withBufferBytes(index) { raw in _ = raw.first; _ = raw.last }
        }
        for subgraph in model.subgraphs {
            for op in subgraph.operators {
                // The typed options of every operator the summary knows (validated models have
                // valid operator-code indices).
                if op.opcodeIndex >= 0, op.opcodeIndex < model.operatorCodes.count {
                    _ = OperatorOptionsSummary.options(of: op, code: model.operatorCodes[op.opcodeIndex])
                }
                _ = try? DetectionPostProcessOptions(customOptions: op.customOptions)
                _ = try? TransposeConvBiasOptions(customOptions: op.customOptions)
                _ = try? LandmarksToTransformMatrixOptions(customOptions: op.customOptions)
                if let map = try? FlexBufferMap(bytes: op.customOptions) { touch(map, depth: 0) }
            }
        }
        for index in -1...(model.subgraphs.first?.outputs.count ?? 0) { _ = model.labels(forOutput: index) }
    }

    private static func touch(_ map: FlexBufferMap, depth: Int) {
        guard depth < 4 else { return }
        for key in map.keys {
            guard let value = map[key] else { continue }
            touch(value, depth: depth)
        }
    }

    private static func touch(_ value: FlexBufferReference, depth: Int) {
        _ = value.int; _ = value.double; _ = value.bool; _ = value.string; _ = value.blob
        if let vector = value.vector, depth < 4 {
            for element in vector.elements.prefix(16) { touch(element, depth: depth + 1) }
        }
        if let map = value.map { touch(map, depth: depth + 1) }
    }
}
