import FlatBufferReader
import Foundation
import TFLiteSchema
import XCTest

/// Every reference and shared model parses, and the decoded structure matches an independent
/// reader (the python `tflite` package, see `Tests/Fixtures/schema/make_model_summaries.py`).
final class ModelParsingTests: XCTestCase {
    struct SubgraphSummary: Decodable {
        var tensors: Int; var operators: Int; var inputs: [Int]; var outputs: [Int]
        var operatorHistogram: [String: Int]; var perAxisTensors: Int; var sparseTensors: Int
    }
    struct ModelSummary: Decodable {
        var version: Int; var operatorCodes: [String]; var subgraphs: [SubgraphSummary]
        var buffers: Int; var totalBufferBytes: Int; var metadataNames: [String]; var signatureKeys: [String]
    }

    func loadSummaries() throws -> [String: ModelSummary] {
        let url = SchemaTestFiles.fixturesDirectory.appendingPathComponent("model_summaries.json")
        return try JSONDecoder().decode([String: ModelSummary].self, from: Data(contentsOf: url))
    }

    func testEveryModelMatchesIndependentReader() throws {
        let summaries = try loadSummaries()
        for url in try SchemaTestFiles.allModels() {
            let name = url.lastPathComponent
            let model: TFLiteModelFile
            do { model = try TFLiteModelFile(contentsOf: url.path) } catch {
                XCTFail("\(name) failed to load: \(error)"); continue
            }
            guard let expected = summaries[name] else {
                XCTFail("\(name) has no summary: rerun make_model_summaries.py"); continue
            }
            XCTAssertEqual(model.version, expected.version, name)
            XCTAssertEqual(model.operatorCodes.map(\.displayName), expected.operatorCodes, name)
            XCTAssertEqual(model.bufferCount, expected.buffers, name)
            XCTAssertEqual((0..<model.bufferCount).reduce(0) { $0 + model.bufferByteCount($1) },
                           expected.totalBufferBytes, name)
            XCTAssertEqual(model.metadataEntries.map(\.name), expected.metadataNames, name)
            XCTAssertEqual(model.signatures.map(\.key), expected.signatureKeys, name)
            XCTAssertEqual(model.subgraphs.count, expected.subgraphs.count, name)
            for (subgraph, summary) in zip(model.subgraphs, expected.subgraphs) {
                XCTAssertEqual(subgraph.tensors.count, summary.tensors, name)
                XCTAssertEqual(subgraph.operators.count, summary.operators, name)
                XCTAssertEqual(subgraph.inputs, summary.inputs, name)
                XCTAssertEqual(subgraph.outputs, summary.outputs, name)
                var histogram: [String: Int] = [:]
                for op in subgraph.operators { histogram[model.operatorCodes[op.opcodeIndex].displayName, default: 0] += 1 }
                XCTAssertEqual(histogram, summary.operatorHistogram, name)
                XCTAssertEqual(subgraph.tensors.filter { ($0.quantization?.scales.count ?? 0) > 1 }.count,
                               summary.perAxisTensors, name)
                XCTAssertEqual(subgraph.tensors.filter { $0.sparsity != nil }.count, summary.sparseTensors, name)
            }
        }
    }

    func testConstantBuffersMatchTensorShapes() throws {
        for url in try SchemaTestFiles.allModels() {
            let model = try TFLiteModelFile(contentsOf: url.path)
            for tensor in model.subgraphs[0].tensors where model.bufferByteCount(tensor.buffer) > 0 && tensor.sparsity == nil {
                guard let size = tensor.type.byteSize else { continue }
                XCTAssertEqual(model.bufferByteCount(tensor.buffer), tensor.shape.reduce(1, *) * size,
                               "\(url.lastPathComponent) \(tensor.name)")
            }
        }
    }

    func testConvolutionOptionsAreReadable() throws {
        let model = try TFLiteModelFile(bytes: try SchemaTestFiles.referenceModelBytes("efficientnet_lite0.tflite"))
        let conv = try XCTUnwrap(model.subgraphs[0].operators.first {
            model.operatorCodes[$0.opcodeIndex].builtin == .conv2D
        })
        let options = try XCTUnwrap(conv.builtinOptions)
        XCTAssertEqual(options.typeCode, 1, "Conv2DOptions")
        // Conv2DOptions: padding(0), stride_w(1), stride_h(2), fused_activation_function(3).
        XCTAssertEqual(options.int32(1), 2)
        XCTAssertEqual(options.int32(2), 2)
        XCTAssertEqual(options.int8(0), 0, "SAME padding")
        XCTAssertEqual(options.int8(3), 3, "RELU6")
    }

    func testPerAxisQuantizationAndWeights() throws {
        let model = try TFLiteModelFile(bytes: try SchemaTestFiles.sharedModelBytes("classifier_mobilenet_v2_uint8.tflite"))
        let subgraph = model.subgraphs[0]
        let perAxis = try XCTUnwrap(subgraph.tensors.first { ($0.quantization?.scales.count ?? 0) > 1 })
        let quantization = try XCTUnwrap(perAxis.quantization)
        XCTAssertEqual(quantization.scales.count, perAxis.shape[quantization.quantizedDimension])
        XCTAssertEqual(quantization.zeroPoints.count, quantization.scales.count)
        XCTAssertGreaterThan(model.bufferByteCount(perAxis.buffer), 0)
        try model.withBufferBytes(perAxis.buffer) { XCTAssertEqual($0.count, perAxis.shape.reduce(1, *)) }
    }

    func testSparseTensorsAreDecoded() throws {
        let model = try TFLiteModelFile(bytes: try SchemaTestFiles.referenceModelBytes("face_detection_full_range_sparse.tflite"))
        let sparse = model.subgraphs[0].tensors.compactMap(\.sparsity)
        XCTAssertFalse(sparse.isEmpty)
        for sparsity in sparse {
            XCTAssertEqual(sparsity.dimensions.count, sparsity.traversalOrder.count)
            XCTAssertTrue(sparsity.dimensions.contains { $0.format == .sparseCSR })
        }
    }

    func testDetectionPostProcessHasCustomOptions() throws {
        let model = try TFLiteModelFile(bytes: try SchemaTestFiles.sharedModelBytes("ssd_fish_uint8.tflite"))
        let op = try XCTUnwrap(model.subgraphs[0].operators.first {
            model.operatorCodes[$0.opcodeIndex].customName == "TFLite_Detection_PostProcess"
        })
        XCTAssertEqual(op.outputs.count, 4)
        // Values as decoded by the python flexbuffers reader.
        let options = try FlexBufferMap(bytes: op.customOptions)
        XCTAssertEqual(options.int("max_detections"), 10)
        XCTAssertEqual(options.int("max_classes_per_detection"), 1)
        XCTAssertEqual(options.int("detections_per_class"), 100)
        XCTAssertEqual(options.int("num_classes"), 1)
        XCTAssertEqual(options.float("nms_iou_threshold"), 0.6)
        XCTAssertEqual(options.float("nms_score_threshold"), 1e-8)
        XCTAssertEqual(options.float("y_scale"), 10)
        XCTAssertEqual(options.float("h_scale"), 5)
        XCTAssertEqual(options.bool("use_regular_nms"), false)
        XCTAssertEqual(options.bool("_output_quantized"), true)
    }

    func testMissingFileIsTypedError() {
        XCTAssertThrowsError(try TFLiteModelFile(contentsOf: "/nonexistent/model.tflite")) { error in
            guard case .unreadableFile = error as? TFLiteSchemaError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try TFLiteModelFile(contentsOf: SchemaTestFiles.fixturesDirectory.path)) { error in
            XCTAssertTrue(error is TFLiteSchemaError, "a directory is rejected with a typed error: \(error)")
        }
    }
}
