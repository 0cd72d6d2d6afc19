import Foundation
@testable import TFLiteInterpreter
import TFLiteSchema
import TestSupport
import XCTest
@testable import TFLiteKernels

/// Float RELU-family nodes after an ADD (BlazeFace's residual blocks) or a convolution without
/// an activation leave the run order: the producer clamps in the same pass and the RELU's output
/// shares its memory. The fused run must equal, bit for bit, the same model run node by node,
/// on ordinary inputs and on inputs with NaN, infinities and the largest floats.
final class ClampFusionTests: XCTestCase {
    func testFaceDetectorResidualReLUsAreFusedAndResultsUnchanged() throws {
        let (path, model, executor) = try preparedFaceDetector()
        defer { withExtendedLifetime(model) {} }
        let relus = executor.nodes.indices.filter { executor.nodes[$0].context.code.builtin == .relu }
        let skipped = relus.filter { !executor.runOrder.contains($0) }
        // face_detection_full_range has 47 RELUs: 23 after an ADD, the rest after a CONV_2D.
        XCTAssertEqual(relus.count, 47)
        XCTAssertEqual(skipped.count, relus.count, "every RELU follows an ADD or a CONV_2D read by it alone")
        for k in skipped {
            let relu = executor.nodes[k].context
            let producer = try XCTUnwrap(executor.nodes.indices.first { p in
                executor.nodes[p].context.outputs.contains { $0.index == relu.inputs[0]?.index }
            })
            XCTAssertTrue([.add, .conv2D, .depthwiseConv2D].contains(executor.nodes[producer].context.code.builtin),
                          "\(executor.nodes[producer].context.code.displayName)")
            XCTAssertEqual(relu.outputs[0].data, relu.inputs[0]?.data, "the RELU output shares the ADD output's memory")
        }

        // The same nodes run one by one, in the file's order, on the same input.
        let input = try XCTUnwrap(executor.nodes.first?.context.inputs.first ?? nil)
        var rng = SeededGenerator(seed: 5)
        let values = (0..<input.elementCount).map { _ in rng.float() * 2 - 1 }
        var extremes = values
        for i in stride(from: 0, to: extremes.count, by: 97) {
            extremes[i] = [Float.nan, .infinity, -.infinity, .greatestFiniteMagnitude, -.greatestFiniteMagnitude][i % 5]
        }
        for sample in [values, extremes] {
            let fused = try FusedRunComparison.run(executor, input: input, values: sample)
            let reference = try FusedRunComparison.runUnfused(path: path, values: sample, fusedOperator: .relu)
            XCTAssertEqual(fused.count, reference.count)
            for (a, b) in zip(fused, reference) { XCTAssertEqual(a.map(\.bitPattern), b.map(\.bitPattern)) }
        }
    }

    /// BlazeFace's residual ADDs run inside the convolution that produces one operand
    /// (`ResidualAddFusion`) where that layer runs a generated float tile: 20 of
    /// face_detection_full_range's 23. The ADD's output, and the fused RELU's after it, share the
    /// convolution's output memory, the convolution keeps its place before the ADD's other
    /// readers, and the bits equal the node-by-node run (the test above); channel PADs feeding
    /// them leave the run order.
    func testFaceDetectorResidualADDsRunInTheirConvolutions() throws {
        let (_, model, executor) = try preparedFaceDetector()
        defer { withExtendedLifetime(model) {} }
        let adds = executor.nodes.indices.filter { executor.nodes[$0].context.code.builtin == .add }
        let skipped = adds.filter { !executor.runOrder.contains($0) }
        XCTAssertEqual(adds.count, 23)
        guard GeneratedKernels.current?.floatConv6x16 != nil else {
            XCTAssertEqual(skipped, [], "without generated float tiles no ADD is fused")
            return
        }
        XCTAssertEqual(skipped.count, 20)
        for k in skipped {
            let add = executor.nodes[k].context
            let producer = try XCTUnwrap(executor.runOrder.first { p in
                add.inputs.contains { $0?.index == executor.nodes[p].context.outputs[0].index }
                    && executor.nodes[p].context.code.builtin == .conv2D
            })
            XCTAssertEqual(add.outputs[0].data, executor.nodes[producer].context.outputs[0].data)
            // Every other reader of the ADD's output still runs after the convolution.
            let position = try XCTUnwrap(executor.runOrder.firstIndex(of: producer))
            for reader in executor.runOrder where executor.nodes[reader].context.inputs.contains(where: { $0?.index == add.outputs[0].index }) {
                XCTAssertGreaterThan(try XCTUnwrap(executor.runOrder.firstIndex(of: reader)), position)
            }
        }
        // Eight of these ADDs add a channel PAD's output (BlazeFace's shortcuts into wider
        // blocks): their convolutions read the PAD's input in its place, and the PAD no longer
        // runs, wherever the tiles' panels take the input's channels whole (16-channel panels:
        // all; 32-channel ones: not the 48- and 144-channel inputs).
        let pads = executor.nodes.indices.filter { executor.nodes[$0].context.code.builtin == .pad }
        XCTAssertEqual(pads.count, 8)
        var skippedPads = 0
        for k in pads {
            let pad = executor.nodes[k].context
            let input = try XCTUnwrap(pad.inputs[0]), channels = try XCTUnwrap(input.shape.last)
            guard !executor.runOrder.contains(k) else {
                XCTAssertEqual(channels % 32, 16, "a channel PAD of \(channels) channels still runs")
                continue
            }
            skippedPads += 1
            XCTAssertNil(pad.outputs[0].data, "a PAD that does not run has no output memory")
            XCTAssertTrue(executor.fusedReads.values.contains { $0.index == input.index }, "a convolution reads the PAD's input")
            XCTAssertFalse(skipped.isEmpty)
        }
        XCTAssertGreaterThanOrEqual(skippedPads, 6)
    }

    /// face_detection_full_range's main subgraph, prepared (and fused) on one thread, with the
    /// model that owns its weights (the caller keeps it alive while the executor runs).
    private func preparedFaceDetector() throws -> (path: String, model: Model, executor: SubgraphExecutor) {
        let path = try TestPaths.model("face_detection_full_range.tflite")
        let model = try Model(file: TFLiteModelFile(contentsOf: path))
        let executor = SubgraphExecutor(blueprint: model.subgraphs[0], threads: ThreadPool(threadCount: 1))
        try executor.prepare()
        return (path, model, executor)
    }
}
