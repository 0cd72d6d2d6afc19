import Foundation
import ObjectDetection
import TFLiteSchema
import TestSupport
import XCTest

final class ImageInputSpecTests: XCTestCase {
    func model(_ relativePath: String) throws -> TFLiteModelFile {
        let path = TestPaths.packageRoot.appendingPathComponent(relativePath).standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: path) else {
            throw TestEnvironment.missing("\(path) missing: run Scripts/fetch-models.sh (or provide ../shared/models)")
        }
        return try TFLiteModelFile(contentsOf: path)
    }

    func spec(_ relativePath: String) throws -> InputTensorSpec {
        let file = try model(relativePath)
        let subgraph = try XCTUnwrap(file.subgraphs.first)
        let tensor = subgraph.tensors[try XCTUnwrap(subgraph.inputs.first)]
        return try InputTensorSpec(tensor: tensor, metadata: file.metadata?.subgraphs.first?.inputTensors.first)
    }

    func testSpecsOfReferenceModels() throws {
        // EfficientNet-Lite0 (uint8): raw pixels; its quantization encodes the normalization.
        let efficientNet = try spec("Models/efficientnet_lite0.tflite")
        XCTAssertEqual(efficientNet, InputTensorSpec(width: 224, height: 224, elementType: .uint8))
        // DeepLabV3 (float) carries NormalizationOptions mean 127.5, std 127.5 in its metadata.
        let deepLab = try spec("Models/deeplabv3.tflite")
        XCTAssertEqual(deepLab.width, 257)
        XCTAssertEqual(deepLab.elementType, .float32)
        XCTAssertEqual(deepLab.normalization, InputNormalization(mean: [127.5], std: [127.5]))
        XCTAssertEqual(try ImagePreprocessor(spec: deepLab).makeInput(from: RGBImage(width: 3, height: 3, fill: .white)).data.count,
                       257 * 257 * 3 * 4)
    }

    func testSpecsOfThirdPartyModels() throws {
        let stopSign = try spec("../shared/models/classifier_stopsign_int8.tflite")
        XCTAssertEqual([stopSign.width, stopSign.height], [96, 96])
        XCTAssertEqual(stopSign.colorOrder, .grayscale)
        XCTAssertEqual(stopSign.elementType, .int8)
        XCTAssertNotNil(stopSign.quantization, "int8 inputs are quantized with their own parameters")
        let nonSquare = try spec("../shared/models/classifier_nonsquare_float.tflite")
        XCTAssertEqual(nonSquare.width, 30)
        XCTAssertEqual(nonSquare.height, 100)
        XCTAssertEqual(nonSquare.elementType, .float32)
    }

    func testRejectsNonImageTensors() {
        let tensor = TensorDescription(name: "x", shape: [1, 10], type: .float32, buffer: 0)
        XCTAssertThrowsError(try InputTensorSpec(tensor: tensor))
        let int32 = TensorDescription(name: "y", shape: [1, 4, 4, 3], type: .int32, buffer: 0)
        XCTAssertThrowsError(try InputTensorSpec(tensor: int32))
    }
}
