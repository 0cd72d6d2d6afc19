import Foundation
@testable import TFLiteInterpreter
import TFLiteSchema
import TestSupport
import XCTest

/// YOLOv8's 8-bit SiLU pairs (LOGISTIC then MUL on the same input) run as one byte table
/// (`ByteMapFusion`), which the int8 convolution producing the input applies to its output as
/// it writes it (`OutputByteMapFusion`): the LOGISTIC and MUL nodes leave the run order, the
/// LOGISTIC outputs get no memory, and each MUL's output shares its convolution's output
/// memory. The fused run must equal the node-by-node run bit for bit, at 1 and 2 threads
/// (bit-exactness against the reference runtime is `ModelGoldenTests`).
final class ByteMapFusionTests: XCTestCase {
    func testYOLOSiLUPairsRunInTheirConvolutions() throws {
        let path = try TestPaths.sharedModel("yolov8n_int8_640.tflite")
        let model = try Model(file: TFLiteModelFile(contentsOf: path))
        let executor = SubgraphExecutor(blueprint: model.subgraphs[0], threads: ThreadPool(threadCount: 1))
        try executor.prepare()
        let logistic = executor.nodes.indices.filter { executor.nodes[$0].context.code.builtin == .logistic }
        let skipped = logistic.filter { !executor.runOrder.contains($0) }
        XCTAssertGreaterThanOrEqual(skipped.count, 50, "the SiLU LOGISTIC nodes should be fused away")
        var moved = 0
        for k in skipped {
            let logisticNode = executor.nodes[k].context
            XCTAssertNil(logisticNode.outputs[0].data, "a skipped node's output has no memory")
            // Its one reader is a MUL that also reads the LOGISTIC's input.
            let readers = executor.readers(of: logisticNode.outputs[0].index)
            XCTAssertEqual(readers.count, 1)
            guard let r = readers.first else { continue }
            let mul = executor.nodes[r].context
            XCTAssertEqual(mul.code.builtin, .mul)
            XCTAssertTrue(mul.inputs.contains { $0?.index == logisticNode.inputs[0]?.index })
            // The MUL left the run order too: its output is the convolution's, written in place.
            guard !executor.runOrder.contains(r) else { continue }
            let producer = try XCTUnwrap(executor.runOrder.first { p in
                executor.nodes[p].context.outputs.contains { $0.index == logisticNode.inputs[0]?.index }
            })
            XCTAssertEqual(executor.nodes[producer].context.code.builtin, .conv2D)
            XCTAssertEqual(mul.outputs[0].data, executor.nodes[producer].context.outputs[0].data)
            moved += 1
        }
        XCTAssertEqual(moved, skipped.count, "every SiLU of yolov8n follows a CONV_2D read by it alone")

        // The same model node by node, on the same inputs (random codes, then the extremes).
        var rng = SeededGenerator(seed: 11)
        let input = try XCTUnwrap(executor.nodes.first?.context.inputs.first ?? nil)
        let inputBytes = try XCTUnwrap(TensorLayout.byteCount(input.shape, input.type))
        let random = (0..<inputBytes).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let extremes = (0..<inputBytes).map { [0, 255, 127, 128][$0 % 4] as UInt8 }
        for threads in [1, 2] {
            let fused = SubgraphExecutor(blueprint: model.subgraphs[0], threads: ThreadPool(threadCount: threads))
            try fused.prepare()
            let unfused = SubgraphExecutor(blueprint: model.subgraphs[0], threads: ThreadPool(threadCount: threads))
            unfused.fusesNodes = false
            try unfused.prepare()
            XCTAssertTrue(logistic.allSatisfy(unfused.runOrder.contains), "nothing is fused when fusion is off")
            for bytes in [random, extremes] {
                XCTAssertEqual(try run(fused, bytes), try run(unfused, bytes), "\(threads) thread(s)")
            }
        }
    }

    /// Invokes `executor` with its first input's bytes set to `bytes`; every graph output's bytes.
    private func run(_ executor: SubgraphExecutor, _ bytes: [UInt8]) throws -> [[UInt8]] {
        let input = try XCTUnwrap(executor.nodes.first?.context.inputs.first ?? nil)
        let p = try XCTUnwrap(input.data).assumingMemoryBound(to: UInt8.self)
        for (i, b) in bytes.enumerated() { p[i] = b }
        try executor.invoke()
        return executor.outputIndices.map { index in
            let t = executor.tensors[index]
            let q = t.data!.assumingMemoryBound(to: UInt8.self)
            return (0..<(TensorLayout.byteCount(t.shape, t.type) ?? 0)).map { q[$0] }
        }
    }
}
