import Foundation
import TestSupport
import TFLiteInterpreter
import XCTest

final class NumPyArrayTests: XCTestCase {
    func testRoundTripEveryTypeAndRank() throws {
        var rng = SeededGenerator(seed: 1)
        for type in NumPyArray.DataType.allCases {
            for shape in [[], [0], [3], [2, 3], [1, 2, 3, 4]] as [[Int]] {
                let count = shape.reduce(1, *)
                let bytes = Data((0..<(count * type.byteSize)).map { _ in UInt8.random(in: 0...255, using: &rng) })
                let array = try NumPyArray(dataType: type, shape: shape, data: bytes)
                let encoded = array.npyData()
                XCTAssertEqual(encoded.count % 64, (count * type.byteSize) % 64, "data starts 64-aligned")
                XCTAssertEqual(try NumPyArray(npyData: encoded), array)
            }
        }
    }

    func testReadsFixtureWrittenByNumPy() throws {
        let path = try TestPaths.fixture("interpreter/two_inputs/input_0.npy")
        let array = try NumPyArray(contentsOf: path)
        XCTAssertEqual(array.dataType, .float32)
        XCTAssertEqual(array.shape, [1, 4])
        XCTAssertEqual(array.doubleValues().count, 4)
        XCTAssertTrue(array.doubleValues().allSatisfy { abs($0) <= 1 })
    }

    func testParsesVersion2AndLegacyHeaders() throws {
        let dictionary = "{'descr': '<i2', 'fortran_order': False, 'shape': (2L, 1L), }\n"
        var file = Data([0x93] + Array("NUMPY".utf8) + [2, 0])
        let length = UInt32(dictionary.utf8.count)
        file.append(contentsOf: withUnsafeBytes(of: length.littleEndian, Array.init))
        file.append(contentsOf: Array(dictionary.utf8))
        file.append(contentsOf: [1, 0, 0xFF, 0xFF])
        let array = try NumPyArray(npyData: file)
        XCTAssertEqual(array.dataType, .int16)
        XCTAssertEqual(array.shape, [2, 1])
        XCTAssertEqual(array.doubleValues(), [1, -1])
    }

    func testHalfPrecisionValues() throws {
        // 1.0, -2.0, 0.5, 65504, smallest subnormal
        let bits: [UInt16] = [0x3C00, 0xC000, 0x3800, 0x7BFF, 0x0001]
        let array = try NumPyArray(dataType: .float16, shape: [5], data: bits.withUnsafeBytes { Data($0) })
        XCTAssertEqual(array.doubleValues(), [1, -2, 0.5, 65504, 0x1p-24])
    }

    private func header(_ dictionary: String, version: UInt8 = 1) -> Data {
        var file = Data([0x93] + Array("NUMPY".utf8) + [version, 0])
        let length = UInt16(dictionary.utf8.count)
        file.append(contentsOf: [UInt8(length & 0xFF), UInt8(length >> 8)])
        file.append(contentsOf: Array(dictionary.utf8))
        return file
    }

    func testMalformedFilesGiveTypedErrors() {
        func expect(_ data: Data, _ check: (NumPyError) -> Bool, _ message: String, line: UInt = #line) {
            do {
                _ = try NumPyArray(npyData: data)
                XCTFail("accepted \(message)", line: line)
            } catch let error as NumPyError {
                XCTAssertTrue(check(error), "\(message): got \(error)", line: line)
            } catch { XCTFail("\(message): untyped error \(error)", line: line) }
        }
        expect(Data(), { $0 == .notNumPyFile }, "empty file")
        expect(Data("PK\u{3}\u{4}not numpy".utf8), { $0 == .notNumPyFile }, "wrong magic")
        expect(Data([0x93] + Array("NUMPY".utf8) + [9, 0, 0, 0]), { $0 == .unsupportedVersion(major: 9, minor: 0) }, "version 9")
        expect(Data([0x93] + Array("NUMPY".utf8) + [1, 0, 0xFF, 0x7F, 0x7B]), {
            if case .malformedHeader = $0 { return true }; return false
        }, "header length past the end")
        expect(header("{'descr': '<f4', 'fortran_order': False, 'shape': (2,"), {
            if case .malformedHeader = $0 { return true }; return false
        }, "truncated dictionary")
        expect(header("{'descr': '<f4', 'shape': (2,), }"), {
            if case .malformedHeader = $0 { return true }; return false
        }, "missing fortran_order")
        expect(header("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }") + Data(count: 4),
               { $0 == .unsupportedDataType(">f4") }, "big endian")
        expect(header("{'descr': '<U8', 'fortran_order': False, 'shape': (1,), }") + Data(count: 32),
               { $0 == .unsupportedDataType("<U8") }, "unicode strings")
        expect(header("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }"),
               { $0 == .unsupportedDataType("|O") }, "objects")
        expect(header("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }") + Data(count: 16),
               { $0 == .fortranOrder }, "fortran order")
        expect(header("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }") + Data(count: 20),
               { $0 == .dataSizeMismatch(expected: 24, actual: 20) }, "short data")
        expect(header("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999, 99999999999, 99999999), }"),
               { $0 == .invalidShape([99_999_999_999, 99_999_999_999, 99_999_999]) }, "overflowing shape")
        expect(header("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }"), {
            if case .malformedHeader = $0 { return true }; return false
        }, "negative dimension")
    }

    func testWritesAndReadsFiles() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("npy-\(UUID().uuidString).npy").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let array = try NumPyArray(shape: [2, 2], float32: [1, 2, 3, 4])
        try array.write(to: path)
        XCTAssertEqual(try NumPyArray(contentsOf: path), array)
        XCTAssertThrowsError(try NumPyArray(contentsOf: path + ".missing")) { error in
            guard case NumPyError.unreadable = error else { return XCTFail("\(error)") }
        }
    }
}
