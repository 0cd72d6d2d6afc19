import Foundation
@testable import TFLiteInterpreter
import TFLiteSchema
import TestSupport
import XCTest

/// YOLOv8's 8-bit SiLU pairs (LOGISTIC then MUL on the same input) run as one byte table:
/// the LOGISTIC nodes leave the run order, their outputs get no memory, and every fused MUL maps
/// its LOGISTIC's input to its own output. Bit-exactness of the fused model against the
/// reference runtime is `ModelGoldenTests` (yolov8n_int8_640 on a real photo).
final class ByteMapFusionTests: XCTestCase {
    func testYOLOSiLUPairsAreFused() throws {
        let path = try TestPaths.sharedModel("yolov8n_int8_640.tflite")
        let model = try Model(file: TFLiteModelFile(contentsOf: path))
        let executor = SubgraphExecutor(blueprint: model.subgraphs[0], threads: ThreadPool(threadCount: 1))
        try executor.prepare()
        let logistic = executor.nodes.indices.filter { executor.nodes[$0].context.code.builtin == .logistic }
        let skipped = logistic.filter { !executor.runOrder.contains($0) }
        XCTAssertGreaterThanOrEqual(skipped.count, 50, "the SiLU LOGISTIC nodes should be fused away")
        for k in skipped {
            let logisticNode = executor.nodes[k].context
            XCTAssertNil(logisticNode.outputs[0].data, "a skipped node's output has no memory")
            // Its one reader is a MUL in the run order that also reads the LOGISTIC's input.
            let readers = executor.runOrder.filter { r in
                executor.nodes[r].context.inputs.contains { $0?.index == logisticNode.outputs[0].index }
            }
            XCTAssertEqual(readers.count, 1)
            guard let mul = readers.first.map({ executor.nodes[$0].context }) else { continue }
            XCTAssertEqual(mul.code.builtin, .mul)
            XCTAssertTrue(mul.inputs.contains { $0?.index == logisticNode.inputs[0]?.index })
        }
        // The fused graph still runs (outputs checked against the reference in ModelGoldenTests).
        try executor.invoke()
    }
}
