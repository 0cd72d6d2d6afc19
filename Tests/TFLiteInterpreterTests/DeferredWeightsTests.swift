import Foundation
@testable import TFLiteInterpreter
import TFLiteKernels
import TFLiteSchema
import TestSupport
import XCTest

/// A model read from a file keeps the weights its layers pack in the file (`DeferredWeights`):
/// they are read at prepare, exactly, without the model's memory holding them; a file truncated
/// or modified in place since the load fails that read with a typed error (never a crash, never
/// bytes of two versions); a file replaced by a rename does not affect the loaded model.
/// Float16 weights that a DEQUANTIZE feeds to those layers are converted at prepare in the same
/// way (`DeferredDequantization`), never folded into float32 constants the model keeps.
final class DeferredWeightsTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("deferred-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A copy of efficientnet_lite0 in the test's directory, and the original's bytes.
    private func modelCopy() throws -> (path: String, bytes: Data) {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: try TestPaths.model("efficientnet_lite0.tflite")))
        let path = directory.appendingPathComponent("model.tflite").path
        try bytes.write(to: URL(fileURLWithPath: path))
        return (path, bytes)
    }

    /// Output 0 for a seeded random input.
    private func output(of model: Model) throws -> Data {
        let interpreter = try Interpreter(model: model, options: .init(threadCount: 1))
        try interpreter.allocateTensors()
        let input = try interpreter.input(at: 0)
        var rng = SeededGenerator(seed: 31)
        let count = input.shape.dimensions.reduce(1, *) * input.dataType.byteSize
        _ = try interpreter.copy(Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }), toInputAt: 0)
        try interpreter.invoke()
        return try interpreter.output(at: 0).data
    }

    /// An interpreter's prepare on `model` fails with `invalidModel` naming what happened to the
    /// file (`reason`) and what to do.
    private func assertPrepareFails(_ model: Model, saying reason: String, line: UInt = #line) {
        XCTAssertThrowsError(try Interpreter(model: model, options: .init(threadCount: 1)).allocateTensors(),
                             line: line) { error in
            guard case .invalidModel(let message) = error as? InterpreterError else { return XCTFail("\(error)", line: line) }
            XCTAssertTrue(message.contains(reason) && message.contains("load the model again"), message, line: line)
        }
    }

    func testConvolutionWeightsStayInTheFileAndReadExactly() throws {
        let (path, bytes) = try modelCopy()
        let file = try TFLiteModelFile(contentsOf: path)
        let reference = try TFLiteModelFile(bytes: [UInt8](bytes))
        let deferred = (0..<file.bufferCount).filter(file.isDeferred)
        XCTAssertGreaterThan(deferred.count, 10, "the large convolution weights stay in the file")
        XCTAssertGreaterThan(deferred.reduce(0) { $0 + file.bufferByteCount($1) }, bytes.count / 2,
                             "most of the file is weights that stay in it")
        XCTAssertTrue((0..<reference.bufferCount).allSatisfy { !reference.isDeferred($0) }, "bytes in memory defer nothing")
        let first = deferred[0]
        var copy = [UInt8](repeating: 0, count: file.bufferByteCount(first))
        try copy.withUnsafeMutableBytes { try file.copyBuffer(first, into: $0.baseAddress!) }
        XCTAssertEqual(copy, try reference.bufferBytes(first), "copied from the file")
        XCTAssertTrue(file.isDeferred(first), "a copy does not keep the bytes")
        XCTAssertEqual(try file.bufferBytes(first), try reference.bufferBytes(first), "read into memory")
        XCTAssertFalse(file.isDeferred(first), "read once, kept")
        for index in 0..<file.bufferCount {
            XCTAssertEqual(try file.bufferBytes(index), try reference.bufferBytes(index), "buffer \(index)")
        }
    }

    func testInterpretersComputeWhatTheModelFromBytesComputes() throws {
        let (path, bytes) = try modelCopy()
        let fromFile = try Model(path: path), fromBytes = try Model(data: bytes)
        XCTAssertEqual(try output(of: fromFile), try output(of: fromBytes))
        let packed = (0..<fromFile.file.bufferCount).filter(fromFile.file.isDeferred).count
        if GeneratedKernels.current != nil {
            XCTAssertGreaterThan(packed, 10, "packing layers read their weights from the file, not into memory")
        }
        XCTAssertEqual(try output(of: fromFile), try output(of: fromBytes), "a second interpreter")
    }

    /// Weights the layers packed, read back through the interpreter: the file's bytes.
    func testPreservedWeightsReadTheFile() throws {
        let (path, bytes) = try modelCopy()
        let model = try Model(path: path), reference = try TFLiteModelFile(bytes: [UInt8](bytes))
        let tensors = model.file.subgraphs[0].tensors
        let weights = try XCTUnwrap(tensors.indices.first { model.file.isDeferred(tensors[$0].buffer) })
        var options = Interpreter.Options(threadCount: 1)
        options.preservedTensorIndices = [weights]
        let interpreter = try Interpreter(model: model, options: options)
        try interpreter.allocateTensors()
        XCTAssertEqual([UInt8](try interpreter.preservedTensor(at: weights).data),
                       try reference.bufferBytes(tensors[weights].buffer))
    }

    func testATruncatedFileFailsPrepareWithATypedError() throws {
        let (path, bytes) = try modelCopy()
        let model = try Model(path: path)
        XCTAssertEqual(truncate(path, off_t(bytes.count / 3)), 0)
        assertPrepareFails(model, saying: "truncated")
    }

    func testAFileModifiedInPlaceFailsPrepareWithATypedError() throws {
        let (path, bytes) = try modelCopy()
        let model = try Model(path: path)
        var changed = bytes
        changed[bytes.count / 2] ^= 0xFF
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.write(contentsOf: changed)
        try handle.close()
        // The same size: only the modification time tells. Move it clearly past the load's.
        var times = [timespec(tv_sec: time(nil) + 5, tv_nsec: 0), timespec(tv_sec: time(nil) + 5, tv_nsec: 0)]
        XCTAssertEqual(utimensat(AT_FDCWD, path, &times, 0), 0)
        assertPrepareFails(model, saying: "modified")
    }

    func testAFileReplacedByRenameLeavesTheLoadedModelAsItWas() throws {
        let (path, bytes) = try modelCopy()
        let model = try Model(path: path)
        let other = directory.appendingPathComponent("other.tflite")
        try Data(repeating: 7, count: 4096).write(to: other)
        XCTAssertEqual(rename(other.path, path), 0)
        XCTAssertEqual(try output(of: model), try output(of: try Model(data: bytes)))
    }

    // MARK: float16 weights

    /// Output 0 of a float model for seeded random values in [-1, 1].
    private func floatOutput(of model: Model) throws -> [Float] {
        let interpreter = try Interpreter(model: model, options: .init(threadCount: 1))
        try interpreter.allocateTensors()
        var rng = SeededGenerator(seed: 47)
        let values = (0..<(try interpreter.input(at: 0)).shape.dimensions.reduce(1, *)).map { _ in Float.random(in: -1...1, using: &rng) }
        _ = try interpreter.copy(values.withUnsafeBytes { Data($0) }, toInputAt: 0)
        try interpreter.invoke()
        let output = try interpreter.output(at: 0).data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        XCTAssertTrue(output.allSatisfy(\.isFinite) && Set(output).count > 100, "a real output")
        return output
    }

    /// face_detection_full_range's 178 DEQUANTIZE operators: those of its 49 CONV_2D layers'
    /// weights wait for prepare; those of its 40 DEPTHWISE_CONV_2D layers' weights (which the
    /// float kernels read as they are) and of the 89 biases fold at load.
    func testFloat16WeightsOfPackingLayersAreConvertedAtPrepareAndNotKept() throws {
        let model = try Model(path: try TestPaths.model("face_detection_full_range.tflite"))
        let subgraph = model.file.subgraphs[0], blueprint = model.subgraphs[0]
        let deferred = blueprint.constants.indices.filter { blueprint.constants[$0]?.dequantization != nil }
        let weights = Set(subgraph.operators.filter { model.file.operatorCodes[$0.opcodeIndex].builtin == .conv2D }
                              .map { $0.inputs[1] })
        XCTAssertEqual(weights.count, 49)
        XCTAssertEqual(Set(deferred), weights, "every CONV_2D's float16 weights, and nothing else")
        let dequantizes = subgraph.operators.indices.filter { model.file.operatorCodes[subgraph.operators[$0].opcodeIndex].builtin == .dequantize }
        XCTAssertEqual(dequantizes.count, 178)
        XCTAssertTrue(dequantizes.allSatisfy { !blueprint.liveOperators.contains($0) }, "none runs at invoke")
        XCTAssertEqual(dequantizes.filter { blueprint.constants[subgraph.operators[$0].outputs[0]]?.dequantization == nil }.count, 129,
                       "the others fold at load")

        let interpreter = try Interpreter(model: model, options: .init(threadCount: 1))
        try interpreter.allocateTensors()
        if GeneratedKernels.current != nil {
            XCTAssertTrue(deferred.allSatisfy { !blueprint.constants[$0]!.dequantization!.isMaterialized },
                          "the packing layers converted them into the weight scratch")
        }
    }

    /// A deferred tensor read through the interpreter holds the float16 values converted one by
    /// one (``Float16Conversion/float(fromBits:)``), and a model whose weights were so read
    /// before its first prepare (which then packs them from their home) computes the same.
    func testFloat16WeightsReadThroughTheInterpreterAreTheDequantizedValues() throws {
        let path = try TestPaths.model("face_detection_full_range.tflite")
        let materialized = try Model(path: path)
        let subgraph = materialized.file.subgraphs[0]
        let deferred = materialized.subgraphs[0].constants.indices.filter {
            materialized.subgraphs[0].constants[$0]?.dequantization != nil
        }
        var options = Interpreter.Options(threadCount: 1)
        options.preservedTensorIndices = Set(deferred)
        let reader = try Interpreter(model: materialized, options: options)
        for index in deferred {
            let dequantize = try XCTUnwrap(subgraph.operators.first { $0.outputs == [index] })
            let half = try materialized.file.bufferBytes(subgraph.tensors[dequantize.inputs[0]].buffer)
            let expected = stride(from: 0, to: half.count, by: 2).map {
                Float16Conversion.float(fromBits: UInt16(half[$0]) | UInt16(half[$0 + 1]) << 8).bitPattern
            }
            let values = try reader.preservedTensor(at: index).data.withUnsafeBytes { Array($0.bindMemory(to: UInt32.self)) }
            XCTAssertEqual(values, expected, "tensor \(index)")
            XCTAssertTrue(materialized.subgraphs[0].constants[index]!.dequantization!.isMaterialized)
        }
        XCTAssertEqual(try floatOutput(of: materialized), try floatOutput(of: try Model(path: path)))
    }
}
