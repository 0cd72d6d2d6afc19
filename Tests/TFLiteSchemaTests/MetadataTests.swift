import Foundation
import TFLiteSchema
import XCTest

/// `TFLITE_METADATA` decoding and labels from the archive packed into real models.
final class MetadataTests: XCTestCase {
    func testEfficientNetLabelsAndNormalization() throws {
        let model = try TFLiteModelFile(bytes: try SchemaTestFiles.referenceModelBytes("efficientnet_lite0.tflite"))
        let metadata = try XCTUnwrap(model.metadata)
        XCTAssertNotNil(metadata.name)
        let subgraph = try XCTUnwrap(metadata.subgraphs.first)
        XCTAssertEqual(subgraph.inputTensors.count, model.subgraphs[0].inputs.count)
        XCTAssertEqual(subgraph.outputTensors.count, model.subgraphs[0].outputs.count)
        let input = try XCTUnwrap(subgraph.inputTensors.first)
        if case let .image(colorSpace)? = input.content { XCTAssertEqual(colorSpace, .rgb) } else {
            XCTFail("input content is \(String(describing: input.content))")
        }
        let normalization = try XCTUnwrap(input.normalization)
        XCTAssertEqual(normalization.mean.count, normalization.std.count)
        XCTAssertFalse(normalization.mean.isEmpty)
        XCTAssertEqual(model.associatedFiles.keys.sorted(), ["labels_without_background.txt"])
        let labels = try XCTUnwrap(model.labels(forOutput: 0))
        XCTAssertEqual(labels.labels.count, 1000)
        XCTAssertEqual(labels.labels.first, "tench")
        XCTAssertEqual(labels.labels.count, model.subgraphs[0].tensors[model.subgraphs[0].outputs[0]].shape.last)
        XCTAssertNil(model.labels(forOutput: 1))
        XCTAssertNil(model.labels(forOutput: -1))
    }

    func testDeepLabLabelMap() throws {
        let model = try TFLiteModelFile(bytes: try SchemaTestFiles.referenceModelBytes("deeplabv3.tflite"))
        let bytes = try XCTUnwrap(model.associatedFiles["labelmap.txt"])
        let labels = LabelList(text: String(decoding: bytes, as: UTF8.self))
        XCTAssertEqual(labels.labels.first, "background")
        XCTAssertEqual(labels.labels.count, 21)
        XCTAssertNotNil(model.metadata)
    }

    func testYoloMetadataFromExporter() throws {
        let model = try TFLiteModelFile(bytes: try SchemaTestFiles.sharedModelBytes("yolov8n_int8_640.tflite"))
        XCTAssertEqual(model.metadata?.author, "Ultralytics")
        XCTAssertNotNil(model.associatedFiles["temp_meta.txt"])
        // The exporter declares its metadata dict as the axis-label file: labels come from its `names`.
        let labels = try XCTUnwrap(model.labels(forOutput: 0))
        XCTAssertEqual(labels.labels.count, 80)
        XCTAssertEqual(labels.labels.first, "person")
        XCTAssertEqual(labels.labels.last, "toothbrush")
    }

    func testModelsWithoutMetadataHaveNone() throws {
        let model = try TFLiteModelFile(bytes: try SchemaTestFiles.referenceModelBytes("face_detection_short_range.tflite"))
        XCTAssertNil(model.metadata)
        XCTAssertTrue(model.associatedFiles.isEmpty)
        XCTAssertNil(model.labels(forOutput: 0))
    }
}
