import Foundation
@testable import TFLiteInterpreter
import TFLiteSchema
import TFLiteKernels
import TestSupport
import XCTest

/// Weights packed at prepare live with the model: the first interpreter packs them, every other
/// interpreter of the same model (on any thread) reuses them and computes the same outputs.
final class PackedWeightCacheTests: XCTestCase {
    func testInterpretersOfOneModelShareThePackedWeights() throws {
        for name in ["efficientnet_lite0.tflite", "deeplabv3.tflite"] {
            let model = try Model(path: try TestPaths.model(name))
            let cache = model.subgraphs[0].packedWeights
            let first = try Interpreter(model: model, options: .init(threadCount: 1))
            try first.allocateTensors()
            let (nodes, packings) = (cache.count, cache.packingCount)
            XCTAssertGreaterThan(nodes, 10, "\(name): the convolutions' packed weights are in the model's cache")
            XCTAssertEqual(packings, nodes, "\(name): one packing per node")

            let second = try Interpreter(model: model, options: .init(threadCount: 2))
            try second.allocateTensors()
            XCTAssertEqual(cache.packingCount, packings, "\(name): the second interpreter packs nothing again")

            let input = try first.input(at: 0)
            var rng = SeededGenerator(seed: 12)
            let values = (0..<input.shape.dimensions.reduce(1, *)).map { _ in rng.float() }
            let bytes = Self.inputBytes(values, type: input.dataType)
            for interpreter in [first, second] {
                _ = try interpreter.copy(bytes, toInputAt: 0)
                try interpreter.invoke()
            }
            XCTAssertEqual(try first.output(at: 0).data, try second.output(at: 0).data, "\(name): same outputs")
        }
    }

    /// Where the system offers transparent huge pages, a model's packed weights are carved from
    /// one region (``PackingRegion``), at most the bytes the cache reserved (plus alignment).
    func testPackedWeightsAreCarvedFromOneRegion() throws {
        guard HugePageMapping.isAvailable else {
            throw XCTSkip("no transparent huge pages on request (or LITEVISION_HUGE_PAGES=0): packed weights are allocated one by one")
        }
        let model = try Model(path: try TestPaths.model("efficientnet_lite0.tflite"))
        let cache = model.subgraphs[0].packedWeights
        XCTAssertNil(cache.regionByteCount, "no region before the first packing")
        try Interpreter(model: model, options: .init(threadCount: 1)).allocateTensors()
        let used = try XCTUnwrap(cache.regionByteCount)
        XCTAssertGreaterThan(used, 4 << 20, "efficientnet_lite0 packs about 5 MB")
        XCTAssertLessThanOrEqual(used, cache.byteCount + 64 * 2 * cache.count)
    }

    /// The huge-page part of the region (`expectedPackedByteCount`) follows what packing writes
    /// at the level in use: about the constant bytes, with the 8-bit ones counted twice without
    /// VNNI (int16 pairs, not int8 quads; yolov8n_dynamic_range_640's hybrid layers too). Where
    /// the pairs' weights of small layers stay bytes (`QuantizedGEMM.packsPairWeightsAsBytes`:
    /// AVX2, AVX-512 without VNNI) it is an upper bound: packing writes between half of it (every
    /// 8-bit weight a byte) and all of it. Run at `LITEVISION_ISA=avx2` for the pair level.
    func testExpectedPackedBytesFollowTheLayout() throws {
        let models = [try TestPaths.model("efficientnet_lite0.tflite"), try TestPaths.sharedModel("ssd_fish_uint8.tflite"),
                      try TestPaths.sharedModel("yolov8n_int8_640.tflite"), try TestPaths.sharedModel("yolov8n_dynamic_range_640.tflite")]
        for path in models {
            let model = try Model(path: path)
            let cache = model.subgraphs[0].packedWeights
            try Interpreter(model: model, options: .init(threadCount: 1)).allocateTensors()
            let written = Double(cache.byteCount), expected = Double(cache.expectedPackedByteCount)
            let message = "\(path): expected \(expected) bytes, packing reserved \(written) (quads: \(QuantizedGEMM.prefersInt8Quads))"
            if QuantizedGEMM.packsPairWeightsAsBytes {
                XCTAssertLessThanOrEqual(written, expected * 1.1, message)
                XCTAssertGreaterThanOrEqual(written, expected * 0.45, message)
            } else {
                XCTAssertEqual(expected / written, 1, accuracy: 0.1, message)
            }
        }
    }

    /// Packed weights count once in each interpreter's budget, as model data (the cache's bytes,
    /// reserved at the start of every prepare), however many interpreters share them and however
    /// often one prepares again: a cache hit reserves nothing more. (Convolutions and fully
    /// connected layers: a depthwise layer also reserves its per-thread input windows.)
    func testPackedWeightsCountOnceInEachBudget() throws {
        for name in ["conv_i8_deep_3x3", "conv_u8_deep_3x3_s2", "conv_f32_same_s1_3x3_relu",
                     "conv_hybrid_pc_same"] {
            let model = try Model(path: try TestPaths.fixture("ops/convolution/\(name)/model.tflite"))
            let cache = model.subgraphs[0].packedWeights
            let first = SubgraphExecutor(blueprint: model.subgraphs[0], threads: ThreadPool(threadCount: 1))
            try first.prepare()
            XCTAssertGreaterThan(cache.byteCount, 0, "\(name): nothing packed")
            let base = first.baseBudget.used
            XCTAssertEqual(first.reservedByteCount, base + cache.byteCount + first.arenaByteCount, name)
            try first.prepare()
            XCTAssertEqual(first.reservedByteCount, base + cache.byteCount + first.arenaByteCount, "\(name): prepared again")
            let second = SubgraphExecutor(blueprint: model.subgraphs[0], threads: ThreadPool(threadCount: 1))
            try second.prepare()
            XCTAssertEqual(second.reservedByteCount, base + cache.byteCount + second.arenaByteCount, "\(name): second executor")
            XCTAssertEqual(cache.packingCount, 1, "\(name): packed once")
        }
    }

    func testConcurrentPreparesPackEachNodeOnce() throws {
        let model = try Model(path: try TestPaths.model("efficientnet_lite0.tflite"))
        let errors = ErrorBox()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            do {
                let interpreter = try Interpreter(model: model, options: .init(threadCount: 1))
                try interpreter.allocateTensors()
            } catch { errors.append(error) }
        }
        XCTAssertTrue(errors.isEmpty, "\(errors.all)")
        let cache = model.subgraphs[0].packedWeights
        XCTAssertGreaterThan(cache.count, 0)
        XCTAssertEqual(cache.packingCount, cache.count, "each node packed once, whichever interpreter came first")
    }

    func testAFormPackedUnderAnotherKeyIsReplaced() throws {
        let cache = PackedWeightCache(constants: [])
        var reserved: [Int] = []
        let a = try cache.packed(position: 3, key: "a", byteCount: 10, reserve: { reserved.append($0) }) { Box(1) }
        XCTAssertTrue(try cache.packed(position: 3, key: "a", byteCount: 10, reserve: { reserved.append($0) }) { Box(2) } === a,
                      "same key: the cached form")
        XCTAssertEqual(reserved, [10], "a cached form reserves nothing")
        let b = try cache.packed(position: 3, key: "b", byteCount: 7, reserve: { reserved.append($0) }) { Box(3) }
        XCTAssertEqual(b.value, 3, "another key: packed again")
        XCTAssertEqual(reserved, [10, 7])
        XCTAssertEqual(cache.count, 1, "one form per node")
        XCTAssertEqual(cache.byteCount, 7, "the replaced form's bytes are no longer counted")
        XCTAssertEqual(cache.packingCount, 2)
    }

    func testOnlyTheModelsOwnConstantsAreShared() {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 16)
        defer { buffer.deallocate() }
        let constant = ConstantTensor(data: buffer, type: .float32, shape: [4], quantization: nil, byteCount: 16)
        let cache = PackedWeightCache(constants: [nil, constant])
        let tensor = RuntimeTensor(index: 1, name: "w", type: .float32, shape: [4], quantization: nil, sparsity: nil,
                                   isConstant: true)
        tensor.data = buffer
        XCTAssertTrue(cache.isModelConstant(tensor))
        let derived = RuntimeTensor(index: 1, name: "w", type: .float32, shape: [4], quantization: nil, sparsity: nil,
                                    isConstant: true)
        derived.data = buffer + 4
        XCTAssertFalse(cache.isModelConstant(derived), "data an interpreter derived is not shared")
        let activation = RuntimeTensor(index: 0, name: "x", type: .float32, shape: [4], quantization: nil, sparsity: nil,
                                       isConstant: false)
        activation.data = buffer
        XCTAssertFalse(cache.isModelConstant(activation))
    }

    /// `values` as the input bytes of `type` (float32, or uint8/int8 spread over the range).
    private static func inputBytes(_ values: [Float], type: Tensor.DataType) -> Data {
        switch type {
        case .float32: return values.withUnsafeBufferPointer { Data(buffer: $0) }
        case .int8: return Data(values.map { UInt8(bitPattern: Int8(clamping: Int($0 * 255) - 128)) })
        default: return Data(values.map { UInt8(clamping: Int($0 * 255)) })
        }
    }

    private final class Box {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    private final class ErrorBox: @unchecked Sendable {
        private let lock = NSLock()
        private var errors: [Error] = []
        func append(_ error: Error) { lock.lock(); errors.append(error); lock.unlock() }
        var isEmpty: Bool { lock.lock(); defer { lock.unlock() }; return errors.isEmpty }
        var all: [Error] { lock.lock(); defer { lock.unlock() }; return errors }
    }
}
