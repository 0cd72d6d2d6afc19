import Foundation
@testable import TFLiteInterpreter
import TFLiteKernels
import TFLiteSchema
import TestSupport
import XCTest

/// Per-invoke kernel scratch (integer GEMM activations and patch rows, quantized hybrid rows,
/// the depthwise kernels' per-thread input windows) lives in the arena, placed by the planner with the lifetime of its node's step, so the bytes
/// hold anything between invokes. These tests poison the whole arena before an invoke and
/// require the same output bits: they fail if a kernel relies on scratch contents written at
/// prepare (the quad layout's padding pixel, the int16 pairs' zero pixel) or by an earlier invoke.
final class ScratchArenaTests: XCTestCase {
    /// Single-operator fixtures whose plans request scratch: uint8 / int8 GEMMs over SAME
    /// padding read through the activation buffer's padding pixel (24 and 33 input channels), in
    /// patch form (3 channels) and over batches, hybrid convolutions and a uint8 FULLY_CONNECTED.
    static let fixtures = ["conv_i8_deep_3x3", "conv_u8_deep_3x3_s2", "conv_i8_batch2_s2",
                           "conv_u8_same_s1_3x3_relu", "conv_i8_same_s1_3x3_relu", "conv_u8_same_s2x1_5x4_none",
                           "conv_i8_same_dil2_relu_n1_to_1", "conv_u8_batch2_1x1_none", "conv_hybrid_pc_same",
                           "conv_hybrid_pc_batch2_s2", "conv_hybrid_pt", "fc_u8_batch2"]

    /// Single-operator DEPTHWISE_CONV_2D fixtures the optimized kernels run (depth multiplier
    /// 1): the 8-bit ones always through per-thread input windows, the float ones where
    /// `DepthwiseConv2DOptimized.floatReadsInPlace` is false (no generated kernels,
    /// `LITEVISION_JIT=0`), with SAME padding, dilation, stride 2, 5 × 5 filters.
    static let depthwiseFixtures = ["dw_u8_same_s1_m1_relu6", "dw_i8_same_s1_m1_relu6", "dw_u8_same_5x5_s2_none",
                                    "dw_i8_same_5x5_s2_none", "dw_u8_same_dil2_m1_none", "dw_i8_same_dil2_m1_none",
                                    "dw_u8_wide_s2", "dw_i8_wide_3x3", "dw_u8_saturating", "dw_f32_same_s1_m1_relu6",
                                    "dw_f32_same_dil2_m1_none", "dw_f32_same_5x5_s2_none", "dw_f32_wide_dil2"]

    /// Models whose depthwise layers run through the windows at 1 and 2 threads: uint8
    /// (efficientnet_lite0) and float (face_detection_full_range, windowed where floats are).
    static let depthwiseModels = ["efficientnet_lite0.tflite", "face_detection_full_range.tflite"]

    /// A prepared executor of fixture `name` and its input.
    private func load(_ name: String, threads: Int = 1) throws -> (SubgraphExecutor, NumPyArray) {
        let directory = try TestPaths.fixture("ops/convolution/\(name)/model.tflite")
        let model = try Model(file: TFLiteModelFile(contentsOf: directory))
        let executor = SubgraphExecutor(blueprint: model.subgraphs[0], threads: ThreadPool(threadCount: threads))
        try executor.prepare()
        let input = try NumPyArray(contentsOf: (directory as NSString).deletingLastPathComponent + "/input_0.npy")
        return (executor, input)
    }

    /// Writes `input` into the executor's graph input, invokes, and returns output 0's bytes.
    private func run(_ executor: SubgraphExecutor, _ input: NumPyArray) throws -> [UInt8] {
        let tensor = executor.tensors[executor.inputIndices[0]]
        XCTAssertEqual(input.data.count, tensor.byteCount)
        input.data.withUnsafeBytes { tensor.data!.copyMemory(from: $0.baseAddress!, byteCount: tensor.byteCount) }
        try executor.invoke()
        let output = executor.tensors[executor.outputIndices[0]]
        return Array(UnsafeRawBufferPointer(start: output.data!, count: output.byteCount))
    }

    func testScratchIsPlacedInTheArena() throws {
        for name in Self.fixtures {
            let (executor, _) = try load(name)
            let (_, requests, scratch) = try executor.arenaRequests()
            XCTAssertFalse(scratch.isEmpty, "\(name): no scratch placed in the arena")
            for slot in scratch {
                let address = try XCTUnwrap(slot.address, "\(name): scratch not placed")
                XCTAssertFalse(slot.hasOwnMemory, "\(name): scratch outside the arena")
                XCTAssertEqual(Int(bitPattern: address) % AlignedBuffer.alignment, 0, "\(name): scratch not 64-byte aligned")
            }
            XCTAssertGreaterThanOrEqual(executor.arenaByteCount, ArenaPlanner.peakLiveByteCount(requests), name)
        }
    }

    /// An arena of at least one huge page is a ``HugePageMapping`` where the system offers
    /// them (2 MiB aligned), zeroed and writable to its last byte; a smaller one is allocated
    /// as before.
    func testLargeArenasAreZeroedHugePageMemory() throws {
        guard HugePageMapping.isAvailable else {
            throw XCTSkip("no transparent huge pages on request (or LITEVISION_HUGE_PAGES=0): arenas are allocated as before")
        }
        let count = 5 << 20 + 123
        let large = try AlignedBuffer(byteCount: count, onHugePages: true)
        XCTAssertEqual(Int(bitPattern: large.pointer) % HugePageMapping.hugePageBytes, 0)
        let bytes = large.pointer.assumingMemoryBound(to: UInt8.self)
        XCTAssertTrue((0..<count).allSatisfy { bytes[$0] == 0 })
        bytes[0] = 1; bytes[count - 1] = 2
        XCTAssertEqual(bytes[0] + bytes[count - 1], 3)
        let small = try AlignedBuffer(byteCount: 100_000, onHugePages: true)
        XCTAssertNil(HugePageMapping(byteCount: 100_000, hugeByteCount: 100_000), "no whole huge page in it")
        XCTAssertEqual(Int(bitPattern: small.pointer) % AlignedBuffer.alignment, 0)
        XCTAssertEqual(small.pointer.load(fromByteOffset: 99_999, as: UInt8.self), 0)
    }

    func testInvokeReadsNothingItsScratchHeldBefore() throws {
        for name in Self.fixtures {
            let (executor, input) = try load(name)
            let clean = try run(executor, input)
            for poison: UInt8 in [0xA5, 0x00, 0xFF, 0x7F] {
                executor.overwriteArena(with: poison)
                XCTAssertEqual(try run(executor, input), clean, "\(name): output depends on stale scratch (\(poison))")
            }
        }
    }

    /// The windowed depthwise kernels take one workspace per pool thread from the arena (by
    /// their worker index) and refill every window row they read, padding zeros included: a
    /// kernel that kept the zeros of an earlier invoke, or read another thread's window, fails.
    func testDepthwiseWindowsAreArenaScratchRefilledEveryInvoke() throws {
        var windowed = 0
        for name in Self.depthwiseFixtures {
            for threads in [1, 2] {
                let (executor, input) = try load(name, threads: threads)
                let (_, _, scratch) = try executor.arenaRequests()
                let quantized = !name.hasPrefix("dw_f32")
                if quantized || !scratch.isEmpty {
                    XCTAssertEqual(scratch.count, threads, "\(name): one window per thread (\(threads))")
                    windowed += 1
                }
                for slot in scratch { XCTAssertFalse(slot.hasOwnMemory, "\(name): window outside the arena") }
                let clean = try run(executor, input)
                for poison: UInt8 in [0xA5, 0x00, 0xFF, 0x7F] {
                    executor.overwriteArena(with: poison)
                    XCTAssertEqual(try run(executor, input), clean, "\(name), \(threads) threads: output depends on stale windows (\(poison))")
                }
            }
        }
        // 9 8-bit fixtures at 2 thread counts, and the 4 float ones where floats are windowed.
        XCTAssertGreaterThanOrEqual(windowed, DepthwiseConv2DOptimized.floatReadsInPlace ? 18 : 26,
                                    "fixtures run through the windows")
    }

    /// A prepared executor of the detection fixture `name`, its folder, and its model, which
    /// the caller keeps while it runs the executor (the constant tensors point into its file).
    private func loadDetection(_ name: String) throws -> (SubgraphExecutor, String, Model) {
        let directory = try TestPaths.fixture("ops/detection/\(name)/model.tflite")
        let model = try Model(file: TFLiteModelFile(contentsOf: directory))
        let executor = SubgraphExecutor(blueprint: model.subgraphs[0], threads: ThreadPool(threadCount: 1))
        try executor.prepare()
        return (executor, (directory as NSString).deletingLastPathComponent, model)
    }

    /// Writes the fixture's `input_k.npy` files into the graph inputs, invokes, and returns every output's bytes.
    private func invokeWithFixtureInputs(_ executor: SubgraphExecutor, _ folder: String) throws -> [[UInt8]] {
        for (k, index) in executor.inputIndices.enumerated() {
            let input = try NumPyArray(contentsOf: folder + "/input_\(k).npy")
            let tensor = executor.tensors[index]
            XCTAssertEqual(input.data.count, tensor.byteCount)
            input.data.withUnsafeBytes { tensor.data!.copyMemory(from: $0.baseAddress!, byteCount: tensor.byteCount) }
        }
        try executor.invoke()
        return executor.outputIndices.map {
            let t = executor.tensors[$0]
            return Array(UnsafeRawBufferPointer(start: t.data!, count: t.byteCount))
        }
    }

    /// NON_MAX_SUPPRESSION_V4/V5's candidate queue is arena scratch, and a poisoned arena gives
    /// the same selections (hard and soft NMS, score ties): the kernel writes every slot of the
    /// queue it reads.
    func testNonMaxSuppressionQueueIsArenaScratch() throws {
        for name in ["nms_v4_score_ties", "nms_v5_soft", "nms_v5_soft_ties"] {
            let (executor, folder, model) = try loadDetection(name)
            defer { withExtendedLifetime(model) {} }
            let (_, _, scratch) = try executor.arenaRequests()
            XCTAssertEqual(scratch.count, 1, "\(name): one queue")
            for slot in scratch {
                XCTAssertNotNil(slot.address, "\(name): queue not placed")
                XCTAssertFalse(slot.hasOwnMemory, "\(name): queue outside the arena")
            }
            let clean = try invokeWithFixtureInputs(executor, folder)
            for poison: UInt8 in [0xA5, 0x00, 0xFF, 0x7F] {
                executor.overwriteArena(with: poison)
                XCTAssertEqual(try invokeWithFixtureInputs(executor, folder), clean, "\(name): output depends on a stale queue (\(poison))")
            }
        }
    }

    /// TFLite_Detection_PostProcess works in arena scratch only: the kernel's workspace and,
    /// for each uint8 input, its dequantized floats. A poisoned arena gives the reference's
    /// outputs bit for bit: regular and fast NMS, float and uint8 inputs, score ties, several
    /// classes per box, a cut of ssd_pets.
    func testDetectionPostProcessWorkspaceIsArenaScratch() throws {
        let cases: [(name: String, quantizedInputs: Int)] = [
            ("postprocess_fast_float_score_ties", 0), ("postprocess_fast_float_3_classes_per_box", 0),
            ("postprocess_regular_float_score_ties", 0), ("postprocess_fast_uint8_coarse_ties", 3),
            ("postprocess_fast_uint8_2_classes_per_box", 3), ("postprocess_regular_uint8_coarse_ties", 3),
            ("postprocess_cut_ssd_pets_uint8_chelsea_regular_nms", 3), ("postprocess_cut_ssd_fish_uint8_chelsea", 3)]
        for (name, quantizedInputs) in cases {
            let (executor, folder, model) = try loadDetection(name)
            defer { withExtendedLifetime(model) {} }
            let (_, _, scratch) = try executor.arenaRequests()
            // The workspace, plus the floats of each uint8 input (box encodings, class scores and
            // the constant anchors in these fixtures).
            XCTAssertEqual(scratch.count, 1 + quantizedInputs, "\(name): scratch slots")
            for slot in scratch {
                XCTAssertNotNil(slot.address, "\(name): scratch not placed")
                XCTAssertFalse(slot.hasOwnMemory, "\(name): scratch outside the arena")
            }
            let expected = try (0..<executor.outputIndices.count).map { try NumPyArray(contentsOf: folder + "/output_\($0).npy").data }
            XCTAssertEqual(try invokeWithFixtureInputs(executor, folder).map { Data($0) }, expected, "\(name): not the reference's outputs")
            for poison: UInt8 in [0xA5, 0x00, 0xFF, 0x7F] {
                executor.overwriteArena(with: poison)
                XCTAssertEqual(try invokeWithFixtureInputs(executor, folder).map { Data($0) }, expected,
                               "\(name): output depends on stale scratch (\(poison))")
            }
        }
    }

    /// Whole models at 1 and 2 threads (chunks of one layer on both threads, each with its own
    /// window): a poisoned arena gives the same bits, and 2 threads the same bits as 1.
    func testDepthwiseModelsIgnorePoisonedArenaAtOneAndTwoThreads() throws {
        var checked = 0, skipped: [String] = []
        for name in Self.depthwiseModels {
            let path: String
            do { path = try TestPaths.model(name) } catch let skip as XCTSkip { skipped.append(skip.message ?? name); continue }
            let model = try Model(file: TFLiteModelFile(contentsOf: path))
            var outputs: [[UInt8]] = []
            for threads in [1, 2] {
                let executor = SubgraphExecutor(blueprint: model.subgraphs[0], threads: ThreadPool(threadCount: threads))
                try executor.prepare()
                let input = executor.tensors[executor.inputIndices[0]]
                let bytes = Self.pseudoRandomInput(input)
                let clean = try run(executor, bytes)
                print("depthwise model \(name), \(threads) threads: arena \(executor.arenaByteCount) bytes")
                for poison: UInt8 in [0xA5, 0xFF] {
                    executor.overwriteArena(with: poison)
                    XCTAssertEqual(try run(executor, bytes), clean, "\(name), \(threads) threads: output depends on stale scratch (\(poison))")
                }
                outputs.append(clean)
            }
            XCTAssertEqual(outputs[0], outputs[1], "\(name): 2 threads differ from 1")
            checked += 1
        }
        if checked == 0 { throw TestEnvironment.missing("no depthwise model present: \(skipped.joined(separator: "; "))") }
        TestEnvironment.reportSkipped(skipped)
    }

    /// Deterministic input bytes for `tensor`: floats in [-1, 1), other types any byte.
    static func pseudoRandomInput(_ tensor: RuntimeTensor) -> [UInt8] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 33 }
        if tensor.type == .float32 {
            let floats = (0..<(tensor.byteCount / 4)).map { _ in Float(next() % 2048) / 1024 - 1 }
            return floats.withUnsafeBytes { Array($0) }
        }
        return (0..<tensor.byteCount).map { _ in UInt8(truncatingIfNeeded: next()) }
    }

    /// Writes `bytes` into the executor's graph input, invokes, and returns output 0's bytes.
    private func run(_ executor: SubgraphExecutor, _ bytes: [UInt8]) throws -> [UInt8] {
        let tensor = executor.tensors[executor.inputIndices[0]]
        XCTAssertEqual(bytes.count, tensor.byteCount)
        bytes.withUnsafeBytes { tensor.data!.copyMemory(from: $0.baseAddress!, byteCount: tensor.byteCount) }
        try executor.invoke()
        let output = executor.tensors[executor.outputIndices[0]]
        return Array(UnsafeRawBufferPointer(start: output.data!, count: output.byteCount))
    }

    /// Two nodes' scratch may share bytes: each is live only at its own step.
    func testScratchOfDifferentStepsMayShareBytes() {
        let requests = [ArenaPlanner.Request(byteCount: 1000, firstUse: 0, lastUse: 0),
                        ArenaPlanner.Request(byteCount: 1000, firstUse: 1, lastUse: 1)]
        let plan = ArenaPlanner.plan(requests)
        XCTAssertEqual(plan.offsets, [0, 0])
        XCTAssertEqual(plan.arenaByteCount, 1024)
    }
}
