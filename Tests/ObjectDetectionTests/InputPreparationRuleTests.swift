import Foundation
@testable import ObjectDetection
import TestSupport
import TFLiteSchema
import XCTest

/// One input-preparation rule (`InputTensorSpec(tensor:metadata:)`), used by every model runner:
/// metadata first, then the documented fallbacks, for float, uint8 and both kinds of int8 input.
final class InputPreparationRuleTests: XCTestCase {
    private func path(_ name: String, shared: Bool) throws -> String {
        try shared ? TestPaths.sharedModel(name) : TestPaths.model(name)
    }

    /// The spec the rule gives for `name`'s input, and the one its model runner uses.
    private func specs(_ name: String, shared: Bool) throws -> (rule: InputTensorSpec, runner: InputTensorSpec, file: TFLiteModelFile) {
        let path = try path(name, shared: shared)
        let file = try TFLiteModelFile(contentsOf: path)
        let graph = try XCTUnwrap(file.subgraphs.first)
        let tensor = graph.tensors[try XCTUnwrap(graph.inputs.first)]
        let rule = try InputTensorSpec(tensor: tensor, metadata: file.metadata?.subgraphs.first?.inputTensors.first)
        let runner = try ModelRunner(path: path, threadCount: 1, floatNormalization: .signedUnitInterval)
        return (rule, runner.preprocessor.spec, file)
    }

    func testEveryRunnerUsesTheRuleOnTheRealModels() throws {
        for (name, shared) in [("efficientnet_lite0.tflite", false), ("deeplabv3.tflite", false),
                               ("face_detection_short_range.tflite", false), ("yolov8n_int8_640.tflite", true),
                               ("yolov8n_dynamic_range_640.tflite", true), ("classifier_stopsign_int8.tflite", true),
                               ("classifier_mobilenet_v2_uint8.tflite", true), ("classifier_utensils_float.tflite", true),
                               ("ssd_pets_uint8.tflite", true)] {
            let (rule, runner, _) = try specs(name, shared: shared)
            XCTAssertEqual(rule, runner, name)
        }
    }

    func testUInt8InputsTakeRawPixelsEvenWhenMetadataStatesANormalization() throws {
        let (spec, _, file) = try specs("efficientnet_lite0.tflite", shared: false)
        XCTAssertNotNil(file.metadata?.subgraphs.first?.inputTensors.first?.normalization,
                        "EfficientNet-Lite0's metadata states mean/std; its quantization already encodes them")
        XCTAssertEqual(spec, InputTensorSpec(width: 224, height: 224, elementType: .uint8))
        XCTAssertEqual(spec.lookupTables().bytes.prefix(256), ArraySlice((0...255).map(UInt8.init)))
    }

    func testInt8WithoutMetadataIsQuantizedFromTheGuessedRange() throws {
        // YOLOv8n's int8 input (scale ≈ 0.0185, zero point −14) represents at most ≈ 2.6: [0, 1] images.
        let (spec, _, file) = try specs("yolov8n_int8_640.tflite", shared: true)
        let graph = try XCTUnwrap(file.subgraphs.first)
        let q = try XCTUnwrap(graph.tensors[graph.inputs[0]].quantization)
        XCTAssertEqual(spec.normalization, .unitInterval)
        XCTAssertEqual(spec.quantization, InputQuantization(scale: q.scales[0], zeroPoint: Int(q.zeroPoints[0])))
        let table = spec.lookupTables().bytes.map { Int(Int8(bitPattern: $0)) }
        for p in [0, 128, 255] {
            let expected = Int((Float(p) / 255 / q.scales[0]).rounded()) + Int(q.zeroPoints[0])
            XCTAssertEqual(table[p], expected, "pixel \(p)")
        }
        XCTAssertNotEqual(table[0], -128, "raw pixels would be wrong for this model")
        // A pixel-value calibration (scale 1, zero point −128) reaches 255: pixels, i.e. p − 128.
        let pixels = TensorDescription(name: "image", shape: [1, 4, 4, 1], type: .int8, buffer: 0,
                                       quantization: Quantization(scales: [1], zeroPoints: [-128]))
        let pixelSpec = try InputTensorSpec(tensor: pixels)
        XCTAssertEqual(pixelSpec.normalization, .identity)
        XCTAssertEqual(pixelSpec.lookupTables().bytes, (0...255).map { UInt8(bitPattern: Int8($0 - 128)) })
        // Without quantization parameters: p − 128.
        let bare = TensorDescription(name: "image", shape: [1, 4, 4, 1], type: .int8, buffer: 0)
        XCTAssertNil(try InputTensorSpec(tensor: bare).quantization)
    }

    func testInt8WithMetadataIsNormalizedThenQuantized() throws {
        // Trained on raw pixel values (mean 0, std 1), calibrated with scale 2 and zero point 0.
        let tensor = TensorDescription(name: "image", shape: [1, 8, 8, 3], type: .int8, buffer: 0,
                                       quantization: Quantization(scales: [2], zeroPoints: [0]))
        let metadata = TensorMetadata(processUnits: [.normalization(mean: [0], std: [1])])
        let spec = try InputTensorSpec(tensor: tensor, metadata: metadata)
        XCTAssertEqual(spec.normalization, InputNormalization(mean: [0], std: [1]))
        XCTAssertEqual(spec.quantization, InputQuantization(scale: 2, zeroPoint: 0))
        let table = spec.lookupTables().bytes.map { Int(Int8(bitPattern: $0)) }
        XCTAssertEqual([table[0], table[100], table[101], table[255]], [0, 50, 51, 127], "round(p / 2), saturated")
        // The same tensor without metadata: its range (up to 254) says pixel values.
        XCTAssertEqual(try InputTensorSpec(tensor: tensor).normalization, .identity)
    }

    func testFloatInputsUseMetadataElseTheGivenDefault() throws {
        let deepLab = try specs("deeplabv3.tflite", shared: false).rule
        XCTAssertEqual(deepLab.normalization, InputNormalization(mean: [127.5], std: [127.5]))
        let (utensils, _, file) = try specs("classifier_utensils_float.tflite", shared: true)
        XCTAssertNil(file.metadata?.subgraphs.first?.inputTensors.first?.normalization)
        XCTAssertEqual(utensils.normalization, .signedUnitInterval)
        let graph = try XCTUnwrap(file.subgraphs.first)
        let unit = try InputTensorSpec(tensor: graph.tensors[graph.inputs[0]], defaultFloatNormalization: .unitInterval)
        XCTAssertEqual(unit.normalization, .unitInterval)
    }
}
