import Foundation
@testable import TFLiteInterpreter
import TFLiteSchema
import TestSupport
import XCTest

/// Per-invoke kernel scratch (integer GEMM activations and patch rows, quantized hybrid rows)
/// lives in the arena, placed by the planner with the lifetime of its node's step, so the bytes
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

    /// A prepared executor of fixture `name` and its input.
    private func load(_ name: String) throws -> (SubgraphExecutor, NumPyArray) {
        let directory = try TestPaths.fixture("ops/convolution/\(name)/model.tflite")
        let model = try Model(file: TFLiteModelFile(contentsOf: directory))
        let executor = SubgraphExecutor(blueprint: model.subgraphs[0], threads: ThreadPool(threadCount: 1))
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

    /// Two nodes' scratch may share bytes: each is live only at its own step.
    func testScratchOfDifferentStepsMayShareBytes() {
        let requests = [ArenaPlanner.Request(byteCount: 1000, firstUse: 0, lastUse: 0),
                        ArenaPlanner.Request(byteCount: 1000, firstUse: 1, lastUse: 1)]
        let plan = ArenaPlanner.plan(requests)
        XCTAssertEqual(plan.offsets, [0, 0])
        XCTAssertEqual(plan.arenaByteCount, 1024)
    }
}
