import Foundation
@testable import TFLiteInterpreter
import TFLiteSchema
import TestSupport
import XCTest
@testable import TFLiteKernels

/// Float SiLU (a LOGISTIC and the MUL of its output by its input) runs as one pass: the MUL
/// leaves the run order, its output shares the LOGISTIC's output memory, and the fused run
/// equals, bit for bit, the same model run node by node, on ordinary inputs and on inputs with
/// NaN, infinities and the largest floats. yolov8n_dynamic_range_640 has 57 SiLUs and one
/// plain LOGISTIC (the class scores).
final class SiLUFusionTests: XCTestCase {
    func testYOLOv8SiLUsAreFusedAndResultsUnchanged() throws {
        let path = try TestPaths.sharedModel("yolov8n_dynamic_range_640.tflite")
        let model = try Model(file: TFLiteModelFile(contentsOf: path))
        let executor = SubgraphExecutor(blueprint: model.subgraphs[0], threads: ThreadPool(threadCount: 1))
        try executor.prepare()
        defer { withExtendedLifetime(model) {} }
        let logistics = executor.nodes.indices.filter { executor.nodes[$0].context.code.builtin == .logistic }
        let products = executor.nodes.indices.filter { k in
            executor.nodes[k].context.code.builtin == .mul && executor.nodes[k].context.inputs.contains { input in
                logistics.contains { executor.nodes[$0].context.outputs[0].index == input?.index }
            }
        }
        XCTAssertEqual(logistics.count, 58)
        XCTAssertEqual(products.count, 57)
        XCTAssertEqual(products.filter { executor.runOrder.contains($0) }, [], "every SiLU MUL leaves the run order")
        XCTAssertTrue(logistics.allSatisfy(executor.runOrder.contains))
        for k in products {
            let mul = executor.nodes[k].context
            let sigmoid = try XCTUnwrap(mul.inputs.first { input in logistics.contains { executor.nodes[$0].context.outputs[0].index == input?.index } } ?? nil)
            XCTAssertEqual(mul.outputs[0].data, sigmoid.data, "the MUL output shares the LOGISTIC output's memory")
        }

        let input = try XCTUnwrap(executor.nodes.first?.context.inputs.first ?? nil)
        var rng = SeededGenerator(seed: 9)
        let values = (0..<input.elementCount).map { _ in rng.float() }
        var extremes = values
        for i in stride(from: 0, to: extremes.count, by: 89) {
            extremes[i] = [Float.nan, .infinity, -.infinity, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, -100, 100][i % 7]
        }
        for sample in [values, extremes] {
            let fused = try FusedRunComparison.run(executor, input: input, values: sample)
            let reference = try FusedRunComparison.runUnfused(path: path, values: sample, fusedOperator: .mul)
            XCTAssertEqual(fused.count, reference.count)
            for (a, b) in zip(fused, reference) {
                XCTAssertEqual(a.count, b.count)
                let differing = zip(a, b).filter { $0.bitPattern != $1.bitPattern && !($0.isNaN && $1.isNaN) }
                XCTAssertEqual(differing.count, 0, "first differences: \(differing.prefix(3))")
            }
        }
    }
}
