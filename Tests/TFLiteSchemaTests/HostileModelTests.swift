import FlatBufferReader
import Foundation
import TFLiteSchema
import XCTest

/// Broken and malicious variants of real models are rejected with typed errors naming the
/// offending element, never a crash.
final class HostileModelTests: XCTestCase {
    /// A small real model: MediaPipe's face detector (CONV_2D, DEPTHWISE_CONV_2D, ADD, PAD, ...).
    func realModel() throws -> [UInt8] { try SchemaTestFiles.referenceModelBytes("face_detection_short_range.tflite") }

    func load(_ bytes: [UInt8]) throws -> TFLiteModelFile { try TFLiteModelFile(bytes: bytes) }

    func assertRejected(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line,
                        _ check: (TFLiteSchemaError) -> Bool) {
        XCTAssertThrowsError(try load(bytes), file: file, line: line) { error in
            guard let schemaError = error as? TFLiteSchemaError else {
                return XCTFail("untyped error \(error)", file: file, line: line)
            }
            XCTAssertTrue(check(schemaError), "unexpected error: \(schemaError)", file: file, line: line)
        }
    }

    func testEmptyAndTinyFiles() {
        for length in 0...11 {
            assertRejected([UInt8](repeating: 0x41, count: length)) {
                if case .truncated = $0 { return true } else { return false }
            }
        }
    }

    func testWrongIdentifier() throws {
        var bytes = try realModel()
        bytes[4..<8] = ArraySlice("TFL2".utf8)
        assertRejected(bytes) { $0 == .wrongIdentifier(expected: "TFL3", found: "TFL2") }
    }

    func testBadRootOffset() throws {
        var patcher = try ModelPatcher(try realModel())
        patcher.write(UInt32(0xFFFF_FF00), at: 0)
        assertRejected(patcher.bytes) { if case .truncated = $0 { return true } else { return false } }
    }

    func testVtableOutOfBounds() throws {
        var patcher = try ModelPatcher(try realModel())
        // The vtable lies at position - soffset: point it past the end of the file.
        patcher.write(Int32(-patcher.bytes.count), at: patcher.rootPosition)
        assertRejected(patcher.bytes) { if case .truncated = $0 { return true } else { return false } }
        patcher.write(Int32.max, at: patcher.rootPosition)
        assertRejected(patcher.bytes) { if case .truncated = $0 { return true } else { return false } }
    }

    func testVectorCountAllOnes() throws {
        var patcher = try ModelPatcher(try realModel())
        patcher.write(UInt32.max, at: try patcher.vectorLengthPosition(try patcher.subgraph(), field: 3))
        assertRejected(patcher.bytes) {
            guard case let .truncated(message) = $0 else { return false }
            return message.contains("subgraph 0 operators")
        }
    }

    func testOperatorInputIndices() throws {
        let original = try ModelPatcher(try realModel())
        let tensorCount = try original.subgraph().vector(0, elementSize: 4)!.count
        let position = try original.int32ElementPosition(try original.op(0), field: 1, index: 0)
        for bad in [Int32(tensorCount), Int32.max, -2] {
            var patcher = original
            patcher.write(bad, at: position)
            assertRejected(patcher.bytes) {
                $0 == .indexOutOfRange(element: "subgraph 0 operator 0 (\(try! self.opName(original, 0))) input 0",
                                       index: Int(bad), count: tensorCount)
            }
        }
        // -1 marks an omitted optional input: structurally accepted.
        var optional = original
        optional.write(Int32(-1), at: position)
        XCTAssertEqual(try load(optional.bytes).subgraphs[0].operators[0].inputs[0], -1)
    }

    func opName(_ patcher: ModelPatcher, _ index: Int) throws -> String {
        try TFLiteModelFile(bytes: patcher.bytes).operatorCodes[
            try TFLiteModelFile(bytes: patcher.bytes).subgraphs[0].operators[index].opcodeIndex].displayName
    }

    func testOperatorOutputMinusOneAndOpcodeIndex() throws {
        let original = try ModelPatcher(try realModel())
        var patcher = original
        patcher.write(Int32(-1), at: try original.int32ElementPosition(try original.op(0), field: 2, index: 0))
        assertRejected(patcher.bytes) {
            if case let .indexOutOfRange(element, index, _) = $0 { return index == -1 && element.hasSuffix("output 0") }
            return false
        }
        let codeCount = try load(original.bytes).operatorCodes.count
        patcher = original
        patcher.write(Int32(codeCount), at: try original.scalarPosition(try original.op(1), field: 0, size: 4))
        assertRejected(patcher.bytes) {
            $0 == .indexOutOfRange(element: "subgraph 0 operator 1 opcode index", index: codeCount, count: codeCount)
        }
    }

    /// Index of a tensor with a constant buffer and a 4-D shape (a convolution filter).
    func constantTensor(_ model: TFLiteModelFile) -> Int {
        model.subgraphs[0].tensors.firstIndex { model.bufferByteCount($0.buffer) > 0 && $0.shape.count == 4 }!
    }

    func testTensorBufferIndexOutOfRange() throws {
        let original = try ModelPatcher(try realModel())
        let model = try load(original.bytes)
        var patcher = original
        let tensor = constantTensor(model)
        patcher.write(Int32(model.bufferCount), at: try original.scalarPosition(try original.tensor(tensor), field: 2, size: 4))
        assertRejected(patcher.bytes) {
            if case let .indexOutOfRange(element, index, count) = $0 {
                return element.hasPrefix("subgraph 0 tensor \(tensor) ") && index == model.bufferCount && count == index
            }
            return false
        }
    }

    func testBadDimensions() throws {
        let original = try ModelPatcher(try realModel())
        let model = try load(original.bytes)
        let index = constantTensor(model)
        let tensor = try original.tensor(index)
        let name = model.subgraphs[0].tensors[index].name
        var patcher = original
        patcher.write(Int32(-1), at: try original.int32ElementPosition(tensor, field: 0, index: 1))
        assertRejected(patcher.bytes) {
            if case let .invalidShape(element, _, reason) = $0 { return element.contains(name) && reason.contains("negative") }
            return false
        }
        patcher = original
        patcher.write(Int32(0), at: try original.int32ElementPosition(tensor, field: 0, index: 1))
        assertRejected(patcher.bytes) {
            if case let .bufferSizeMismatch(element, expected, _) = $0 { return element.contains(name) && expected == 0 }
            return false
        }
        patcher = original
        for dimension in 0..<4 { patcher.write(Int32.max, at: try original.int32ElementPosition(tensor, field: 0, index: dimension)) }
        assertRejected(patcher.bytes) {
            if case let .invalidShape(_, _, reason) = $0 { return reason.contains("overflow") }
            return false
        }
    }

    func testBufferOneByteShort() throws {
        let original = try ModelPatcher(try realModel())
        let model = try load(original.bytes)
        let index = constantTensor(model)
        let tensor = model.subgraphs[0].tensors[index]
        var patcher = original
        let expected = model.bufferByteCount(tensor.buffer)
        patcher.write(Int32(expected - 1), at: try original.vectorLengthPosition(try original.buffer(tensor.buffer), field: 0))
        assertRejected(patcher.bytes) {
            if case let .bufferSizeMismatch(element, wanted, actual) = $0 {
                return element.contains(tensor.name) && wanted == expected && actual == expected - 1
            }
            return false
        }
    }

    func testOperatorWritingAConstantOrTwiceProducedTensor() throws {
        let original = try ModelPatcher(try realModel())
        let model = try load(original.bytes)
        var patcher = original
        patcher.write(Int32(constantTensor(model)), at: try original.int32ElementPosition(try original.op(0), field: 2, index: 0))
        assertRejected(patcher.bytes) {
            if case let .invalidGraph(_, reason) = $0 { return reason.contains("constant") }
            return false
        }
        patcher = original
        let firstOutput = Int32(model.subgraphs[0].operators[0].outputs[0])
        patcher.write(firstOutput, at: try original.int32ElementPosition(try original.op(1), field: 2, index: 0))
        assertRejected(patcher.bytes) {
            if case let .invalidGraph(element, reason) = $0 {
                return element.hasPrefix("subgraph 0 operator 1") && reason.contains("already produced by operator 0")
            }
            return false
        }
        patcher = original
        patcher.write(Int32(model.subgraphs[0].inputs[0]), at: try original.int32ElementPosition(try original.op(0), field: 2, index: 0))
        assertRejected(patcher.bytes) {
            if case let .invalidGraph(_, reason) = $0 { return reason.contains("graph input") }
            return false
        }
    }

    func testPerAxisQuantizationCountMismatch() throws {
        let bytes = try SchemaTestFiles.sharedModelBytes("classifier_mobilenet_v2_uint8.tflite")
        let original = try ModelPatcher(bytes)
        let model = try load(bytes)
        let index = model.subgraphs[0].tensors.firstIndex { ($0.quantization?.scales.count ?? 0) > 1 }!
        let quantization = try original.tensor(index).table(4)!
        var patcher = original
        // Drop one zero point: counts differ.
        let zeroPoints = try original.vectorLengthPosition(quantization, field: 3)
        let count = model.subgraphs[0].tensors[index].quantization!.scales.count
        patcher.write(Int32(count - 1), at: zeroPoints)
        assertRejected(patcher.bytes) {
            if case let .invalidQuantization(_, reason) = $0 { return reason.contains("zero points") }
            return false
        }
        // Drop one scale and one zero point: per-axis count no longer matches the dimension.
        patcher.write(Int32(count - 1), at: try original.vectorLengthPosition(quantization, field: 2))
        assertRejected(patcher.bytes) {
            if case let .invalidQuantization(_, reason) = $0 { return reason.contains("per-axis") }
            return false
        }
    }

    func testExternalBuffers() throws {
        let valid = [UInt8](try Data(contentsOf: SchemaTestFiles.fixturesDirectory.appendingPathComponent("external_buffer.tflite")))
        let model = try load(valid)
        let constant = model.subgraphs[0].tensors[1]
        XCTAssertEqual(model.bufferByteCount(constant.buffer), 16)
        let values = try model.withBufferBytes(constant.buffer) { raw in
            (0..<4).map { raw.loadUnaligned(fromByteOffset: $0 * 4, as: Float.self) }
        }
        XCTAssertEqual(values, [1, 2, 3, 4])
        let pastEnd = [UInt8](try Data(contentsOf: SchemaTestFiles.fixturesDirectory.appendingPathComponent("external_buffer_past_eof.tflite")))
        assertRejected(pastEnd) {
            if case let .bufferOutOfFile(buffer, _, size, fileSize) = $0 {
                return buffer == 1 && size == 16 && fileSize == pastEnd.count
            }
            return false
        }
        assertRejected(Array(valid.dropLast())) { if case .bufferOutOfFile = $0 { return true } else { return false } }
    }

    func testWrongMetadataIdentifier() throws {
        var bytes = try SchemaTestFiles.referenceModelBytes("deeplabv3.tflite")
        let model = try load(bytes)
        let entry = model.metadataEntries.first { $0.name == "TFLITE_METADATA" }!
        let metadataBytes = try model.bufferBytes(entry.buffer)
        // Find the metadata buffer in the file and corrupt its identifier.
        let start = try XCTUnwrap(findSubsequence(metadataBytes.prefix(64), in: bytes))
        bytes[(start + 4)..<(start + 8)] = ArraySlice("M999".utf8)
        assertRejected(bytes) { if case let .invalidMetadata(message) = $0 { return message.contains("M999") } else { return false } }
    }

    func findSubsequence(_ needle: ArraySlice<UInt8>, in haystack: [UInt8]) -> Int? {
        guard let first = needle.first else { return nil }
        var index = 0
        while index + needle.count <= haystack.count {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
