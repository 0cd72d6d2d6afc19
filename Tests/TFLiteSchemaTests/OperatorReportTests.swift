import TFLiteSchema
import XCTest

/// MAC estimates and key-option summaries on real operators.
final class OperatorReportTests: XCTestCase {
    func testConvolutionMACsFromShapes() throws {
        let model = try TFLiteModelFile(bytes: try SchemaTestFiles.referenceModelBytes("efficientnet_lite0.tflite"))
        let subgraph = model.subgraphs[0]
        func macs(_ index: Int) -> Int {
            let op = subgraph.operators[index]
            return OperatorCostEstimate.macs(of: op, code: model.operatorCodes[op.opcodeIndex], in: subgraph)
        }
        // Operator 1: CONV_2D 3x3 stride 2, 224x224x3 -> 112x112x32: 112*112*32 outputs x 3*3*3 products.
        XCTAssertEqual(macs(1), 112 * 112 * 32 * 27)
        // Operator 2: DEPTHWISE_CONV_2D 3x3 on 112x112x32: 112*112*32 outputs x 9 products.
        XCTAssertEqual(macs(2), 112 * 112 * 32 * 9)
        // Operator 61: FULLY_CONNECTED 1280 -> 1000.
        XCTAssertEqual(macs(61), 1280 * 1000)
        XCTAssertEqual(macs(0), 0, "QUANTIZE has no MACs")
        // EfficientNet-Lite0 is published at about 0.4 G multiply-adds.
        XCTAssertEqual(Double(model.estimatedMACs()), 0.39e9, accuracy: 0.02e9)
        XCTAssertEqual(model.estimatedMACs(subgraph: 5), 0)
    }

    func testKeyOptions() throws {
        let model = try TFLiteModelFile(bytes: try SchemaTestFiles.referenceModelBytes("efficientnet_lite0.tflite"))
        let subgraph = model.subgraphs[0]
        func options(_ index: Int) -> [String] {
            let op = subgraph.operators[index]
            return OperatorOptionsSummary.options(of: op, code: model.operatorCodes[op.opcodeIndex]).map { "\($0.0)=\($0.1)" }
        }
        XCTAssertEqual(options(1), ["stride=2x2", "padding=SAME", "activation=RELU6", "dilation=1x1"])
        XCTAssertEqual(options(59), ["filter=7x7", "stride=1x1", "padding=VALID", "activation=NONE"])
        XCTAssertEqual(options(62), ["beta=1.0"])
    }

    func testCustomOperatorOptionsFromFlexBuffer() throws {
        let model = try TFLiteModelFile(bytes: try SchemaTestFiles.sharedModelBytes("ssd_pets_uint8.tflite"))
        let op = try XCTUnwrap(model.subgraphs[0].operators.last)
        let options = Dictionary(uniqueKeysWithValues: OperatorOptionsSummary.options(of: op, code: model.operatorCodes[op.opcodeIndex]))
        XCTAssertEqual(options["max_detections"], "10")
        XCTAssertEqual(options["use_regular_nms"], "false")
    }
}
