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
}
