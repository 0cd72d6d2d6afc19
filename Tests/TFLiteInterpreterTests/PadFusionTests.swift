import Foundation
@testable import TFLiteInterpreter
import TFLiteSchema
import TestSupport
import XCTest

/// An 8-bit or float PAD read only by a CONV_2D or DEPTHWISE_CONV_2D is folded into it
/// (`PadFusion`): the convolution reads the PAD's input with the PAD's spatial padding, the PAD
/// leaves the run order and its output gets no memory. The fused run must equal the node-by-node
/// run bit for bit (bit-exactness against the reference runtime is `ModelGoldenTests` and
/// `compare-outputs.py`); PADs that cannot fold (channel padding, a padding value other than the
/// zero point or +0.0, a second reader, a graph output, a float layer with a non-finite weight)
/// keep running.
final class PadFusionTests: XCTestCase {
    /// yolov8n_int8_640: 7 PADs, each before a stride-2 VALID int8 CONV_2D.
    func testYOLOPadsFoldIntoTheirConvolutions() throws {
        let path = try TestPaths.sharedModel("yolov8n_int8_640.tflite")
        try checkFolds(path: path, expected: [.conv2D: 7], input: .bytes)
    }

    /// classifier_mobilenet_v2_uint8: uint8 PADs before one CONV_2D and four DEPTHWISE_CONV_2D.
    func testMobileNetUInt8PadsFoldIntoConvolutionsAndDepthwise() throws {
        let path = try TestPaths.sharedModel("classifier_mobilenet_v2_uint8.tflite")
        try checkFolds(path: path, expected: [.conv2D: 1, .depthwiseConv2D: 4], input: .bytes)
    }

    /// face_detection_full_range: its 8 PADs pad the channels of residual shortcuts read by ADDs;
    /// none folds into a convolution (the fused ADDs read their inputs instead, see
    /// `ClampFusionTests`), and the run still equals the node-by-node one.
    func testFaceDetectorChannelPadsDoNotFold() throws {
        let path = try TestPaths.model("face_detection_full_range.tflite")
        try checkFolds(path: path, expected: [:], input: .floats, pads: 8)
    }

    /// classifier_utensils_float (a Keras MobileNetV2): its float PADs of +0.0 before the
    /// stride-2 convolutions fold.
    func testFloatPadsFoldIntoTheirConvolutions() throws {
        let path = try TestPaths.sharedModel("classifier_utensils_float.tflite")
        try checkFolds(path: path, expected: [.conv2D: 1, .depthwiseConv2D: 4], input: .floats)
    }

    /// MediaPipe's pose_detection: the 5 of its 8 PADs that pad height and width before a
    /// convolution fold (the other 3 pad the channels of residual shortcuts).
    func testPoseDetectorFloatPadsFold() throws {
        let path = try TestPaths.model("mediapipe/pose_detection.tflite")
        try checkFolds(path: path, expected: [.conv2D: 1, .depthwiseConv2D: 4], input: .floats, pads: 8)
    }

    /// A float layer with a non-finite weight reads the padded tensor: `0 · ∞` is NaN where the
    /// PAD's zeros meet it, which a folded layer would not add. One weight of the first folded
    /// layer of classifier_utensils_float set to +∞ in a copy of the file: that PAD runs, the
    /// others still fold.
    func testAFloatLayerWithANonFiniteWeightKeepsItsPad() throws {
        let path = try TestPaths.sharedModel("classifier_utensils_float.tflite")
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let model = try Model(file: TFLiteModelFile(bytes: original))
        let executor = SubgraphExecutor(blueprint: model.subgraphs[0], threads: ThreadPool(threadCount: 1))
        try executor.prepare()
        let first = try XCTUnwrap(executor.foldedInputs.keys.min())
        let filter = try XCTUnwrap(executor.nodes[first].context.inputs[1])
        let weights = try filter.view(as: Float.self, "filter")
        // The first 16 weights locate the filter in the file (a pattern found once).
        let pattern = (0..<16).flatMap { withUnsafeBytes(of: weights[$0].bitPattern.littleEndian, Array.init) }
        let offsets = (0...(original.count - pattern.count)).filter { original[$0] == pattern[0] && Array(original[$0..<$0 + 16 * 4]) == pattern }
        XCTAssertEqual(offsets.count, 1, "the filter's first weights are not unique in the file")
        var changed = original
        let infinity = withUnsafeBytes(of: Float.infinity.bitPattern.littleEndian, Array.init)
        changed.replaceSubrange(offsets[0] + 4 ..< offsets[0] + 8, with: infinity)
        let broken = try Model(file: TFLiteModelFile(bytes: changed))
        let fused = SubgraphExecutor(blueprint: broken.subgraphs[0], threads: ThreadPool(threadCount: 1))
        try fused.prepare()
        XCTAssertNil(fused.foldedInputs[first], "the layer with +∞ reads its PAD's output")
        XCTAssertEqual(Set(fused.foldedInputs.keys), Set(executor.foldedInputs.keys).subtracting([first]))
        let pad = try XCTUnwrap(fused.nodes.indices.first { fused.nodes[$0].context.outputs[0].index == fused.nodes[first].context.inputs[0]?.index })
        XCTAssertTrue(fused.runOrder.contains(pad))
        withExtendedLifetime((model, broken)) {}
    }

    // MARK: The decision

    func testDecisionFoldsSpatialPaddingWithTheZeroPoint() {
        let (x, y) = tensors(.int8, zeroPoint: -3)
        let padding = PadFusion.foldablePadding(pad(code: -3), input: x, output: y, outputReaders: 1, outputIsKept: false)
        XCTAssertEqual(padding, SpatialPadding(nhwcBefore: [0, 1, 2, 0], after: [0, 3, 4, 0]))
        XCTAssertEqual(padding.map { [$0.top, $0.bottom, $0.left, $0.right] }, [1, 3, 2, 4])
        let (u, v) = tensors(.uint8, zeroPoint: 128)
        XCTAssertNotNil(PadFusion.foldablePadding(pad(code: 128), input: u, output: v, outputReaders: 1, outputIsKept: false))
    }

    func testDecisionRefusesAPaddingValueOtherThanTheZeroPoint() {
        let (x, y) = tensors(.int8, zeroPoint: -3)
        for code in [0, -2, -128, Int32?.none] as [Int32?] {
            XCTAssertNil(PadFusion.foldablePadding(pad(code: code), input: x, output: y, outputReaders: 1, outputIsKept: false),
                         "code \(String(describing: code))")
        }
    }

    func testDecisionRefusesBatchChannelAndNegativePadding() {
        let (x, y) = tensors(.int8, zeroPoint: 0)
        for (before, after) in [([1, 1, 1, 0], [0, 1, 1, 0]), ([0, 1, 1, 0], [1, 1, 1, 0]),
                                ([0, 1, 1, 2], [0, 1, 1, 0]), ([0, 1, 1, 0], [0, 1, 1, 8]),
                                ([0, -1, 1, 0], [0, 1, 1, 0]), ([0, 1, 1], [0, 1, 1])] {
            let p = ConstantPad(before: before, after: after, code: 0, padsFloatZeros: false)
            XCTAssertNil(PadFusion.foldablePadding(p, input: x, output: y, outputReaders: 1, outputIsKept: false),
                         "\(before) \(after)")
        }
    }

    func testDecisionRefusesASecondReaderOrAKeptOutput() {
        let (x, y) = tensors(.int8, zeroPoint: 0)
        XCTAssertNil(PadFusion.foldablePadding(pad(code: 0), input: x, output: y, outputReaders: 2, outputIsKept: false))
        XCTAssertNil(PadFusion.foldablePadding(pad(code: 0), input: x, output: y, outputReaders: 0, outputIsKept: false))
        XCTAssertNil(PadFusion.foldablePadding(pad(code: 0), input: x, output: y, outputReaders: 1, outputIsKept: true))
    }

    func testDecisionFoldsFloatZerosOnly() {
        let (f, g) = tensors(.float32, zeroPoint: 0)
        let zeros = ConstantPad(before: [0, 1, 2, 0], after: [0, 3, 4, 0], code: nil, padsFloatZeros: true)
        XCTAssertEqual(PadFusion.foldablePadding(zeros, input: f, output: g, outputReaders: 1, outputIsKept: false),
                       SpatialPadding(nhwcBefore: [0, 1, 2, 0], after: [0, 3, 4, 0]))
        XCTAssertNil(PadFusion.foldablePadding(pad(code: 0), input: f, output: g, outputReaders: 1, outputIsKept: false),
                     "a float PAD of another value, or one not known at prepare")
        XCTAssertNil(PadFusion.foldablePadding(zeros, input: f, output: g, outputReaders: 2, outputIsKept: false))
        let (x, _) = tensors(.int8, zeroPoint: 0)
        XCTAssertNil(PadFusion.foldablePadding(zeros, input: x, output: g, outputReaders: 1, outputIsKept: false), "types differ")
    }

    func testDecisionRefusesMismatchedQuantization() {
        let (x, y) = tensors(.int8, zeroPoint: 5)
        y.quantization = Quantization(scales: [0.5], zeroPoints: [5])
        XCTAssertNil(PadFusion.foldablePadding(pad(code: 5), input: x, output: y, outputReaders: 1, outputIsKept: false),
                     "the output's scale differs")
        y.quantization = Quantization(scales: [0.25], zeroPoints: [4])
        XCTAssertNil(PadFusion.foldablePadding(pad(code: 5), input: x, output: y, outputReaders: 1, outputIsKept: false),
                     "the output's zero point differs")
        y.quantization = nil
        XCTAssertNil(PadFusion.foldablePadding(pad(code: 5), input: x, output: y, outputReaders: 1, outputIsKept: false))
    }

    // MARK: Helpers

    private func pad(code: Int32?) -> ConstantPad { ConstantPad(before: [0, 1, 2, 0], after: [0, 3, 4, 0], code: code, padsFloatZeros: false) }

    /// A PAD's input `[1, 4, 4, 2]` and output `[1, 8, 10, 2]` of `type`, scale 0.25 and `zeroPoint`.
    private func tensors(_ type: TensorType, zeroPoint: Int64) -> (RuntimeTensor, RuntimeTensor) {
        let q = type == .float32 ? nil : Quantization(scales: [0.25], zeroPoints: [zeroPoint])
        return (RuntimeTensor(index: 0, name: "x", type: type, shape: [1, 4, 4, 2], quantization: q, sparsity: nil, isConstant: false),
                RuntimeTensor(index: 1, name: "y", type: type, shape: [1, 8, 10, 2], quantization: q, sparsity: nil, isConstant: false))
    }

    /// How a test fills the first graph input.
    private enum InputKind { case bytes, floats }

    /// Checks the folds of the model at `path` (`expected`: how many PADs fold into each kind of
    /// convolution; `pads`, when given, the model's PAD count) and that its fused run equals its
    /// node-by-node run bit for bit at 1 and 2 threads on two inputs.
    private func checkFolds(path: String, expected: [BuiltinOperator: Int], input kind: InputKind, pads: Int? = nil) throws {
        let model = try Model(file: TFLiteModelFile(contentsOf: path))
        defer { withExtendedLifetime(model) {} }
        let executor = SubgraphExecutor(blueprint: model.subgraphs[0], threads: ThreadPool(threadCount: 1))
        try executor.prepare()
        let padNodes = executor.nodes.indices.filter { [.pad, .padv2].contains(executor.nodes[$0].context.code.builtin) }
        if let pads { XCTAssertEqual(padNodes.count, pads) }
        var folded: [BuiltinOperator: Int] = [:]
        // Channel PADs whose input a fused ADD's convolution reads (`ResidualAddFusion`) leave the
        // order too, without folding: `ClampFusionTests` checks them.
        let readInPlace = Set(executor.fusedReads.values.map(\.index))
        for k in padNodes where !executor.runOrder.contains(k) && !readInPlace.contains(executor.nodes[k].context.inputs[0]?.index ?? -1) {
            let pad = executor.nodes[k].context
            XCTAssertNil(pad.outputs[0].data, "a folded PAD's output has no memory")
            let readers = executor.readers(of: pad.outputs[0].index)
            XCTAssertEqual(readers.count, 1)
            guard let r = readers.first else { continue }
            XCTAssertTrue(executor.runOrder.contains(r))
            XCTAssertEqual(executor.foldedInputs[r]?.index, pad.inputs[0]?.index, "the convolution reads the PAD's input")
            XCTAssertNotNil(executor.foldedInputs[r]?.data)
            folded[executor.nodes[r].context.code.builtin, default: 0] += 1
        }
        XCTAssertEqual(folded, expected)
        XCTAssertEqual(executor.foldedInputs.count, expected.values.reduce(0, +))

        let first = executor.tensors[executor.inputIndices[0]]
        let bytes = try XCTUnwrap(TensorLayout.byteCount(first.shape, first.type))
        var rng = SeededGenerator(seed: 23)
        let samples: [[UInt8]]
        switch kind {
        case .bytes:
            samples = [(0..<bytes).map { _ in UInt8.random(in: 0...255, using: &rng) },
                       (0..<bytes).map { [0, 255, 127, 128][$0 % 4] as UInt8 }]
        case .floats:
            samples = [rng.floats(bytes / 4), rng.floats(bytes / 4, in: -255...255)].map { values in
                values.withUnsafeBytes { Array($0) }
            }
        }
        // The outputs of the PADs' readers are compared too (kept readable, which folds nothing
        // less): the graph outputs alone can hide a changed layer (a saturated SOFTMAX).
        let watched = Set(padNodes.flatMap { k in
            executor.readers(of: executor.nodes[k].context.outputs[0].index).flatMap { executor.nodes[$0].context.outputs.map(\.index) }
        })
        for threads in [1, 2] {
            let fused = SubgraphExecutor(blueprint: model.subgraphs[0], threads: ThreadPool(threadCount: threads))
            fused.preservedIndices = watched
            try fused.prepare()
            XCTAssertEqual(fused.foldedInputs.count, executor.foldedInputs.count)
            let unfused = SubgraphExecutor(blueprint: model.subgraphs[0], threads: ThreadPool(threadCount: threads))
            unfused.preservedIndices = watched
            unfused.fusesNodes = false
            try unfused.prepare()
            XCTAssertTrue(padNodes.allSatisfy(unfused.runOrder.contains), "no PAD folds when fusion is off")
            XCTAssertEqual(unfused.foldedInputs.count, 0)
            for (s, sample) in samples.enumerated() {
                let (a, b) = (try run(fused, sample), try run(unfused, sample))
                XCTAssertEqual(a.count, b.count)
                for (t, (x, y)) in zip(a, b).enumerated() {
                    let first = x.count == y.count ? x.indices.first { x[$0] != y[$0] } : 0
                    XCTAssertNil(first,
                                  "\(threads) thread(s), sample \(s), tensor \(t): bytes differ from byte \(first ?? -1)")
                }
            }
        }
    }

    /// Invokes `executor` with its first input's bytes set to `bytes`; the bytes of every graph
    /// output, then of every preserved tensor (in index order).
    private func run(_ executor: SubgraphExecutor, _ bytes: [UInt8]) throws -> [[UInt8]] {
        let input = executor.tensors[executor.inputIndices[0]]
        let p = try XCTUnwrap(input.data).assumingMemoryBound(to: UInt8.self)
        for (i, b) in bytes.enumerated() { p[i] = b }
        try executor.invoke()
        return (executor.outputIndices + executor.preservedIndices.sorted()).map { index in
            let t = executor.tensors[index]
            let q = t.data!.assumingMemoryBound(to: UInt8.self)
            return (0..<(TensorLayout.byteCount(t.shape, t.type) ?? 0)).map { q[$0] }
        }
    }
}
