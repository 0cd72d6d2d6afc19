import FlatBufferReader
import XCTest

/// Tables, vtables, vectors and strings on hand-assembled buffers, including broken ones.
final class FlatTableTests: XCTestCase {
    /// A buffer with root table { 0: int32 = 7, 1: string "hi", 2: [int16] = [1, -2] } and identifier TEST.
    static func sampleBuffer() -> [UInt8] {
        var bytes: [UInt8] = []
        func u32(_ value: UInt32) { bytes += withUnsafeBytes(of: value.littleEndian, Array.init) }
        func u16(_ value: UInt16) { bytes += withUnsafeBytes(of: value.littleEndian, Array.init) }
        u32(20)                      // 0: root offset -> table at 20
        bytes += Array("TEST".utf8)  // 4: identifier
        u16(10); u16(16); u16(4); u16(8); u16(12) // 8: vtable (size 10, table size 16, fields at 4, 8, 12)
        u16(0)                       // 18: padding
        u32(UInt32(bitPattern: 20 - 8)) // 20: table: soffset to vtable (20 - 8 = 12)
        u32(7)                       // 24: field 0
        u32(36 - 28)                 // 28: field 1 -> string at 36
        u32(44 - 32)                 // 32: field 2 -> vector at 44
        u32(2); bytes += Array("hi".utf8); bytes += [0, 0] // 36: string
        u32(2); u16(1); u16(UInt16(bitPattern: -2))         // 44: vector
        return bytes
    }

    func testReadsFields() throws {
        let buffer = try FlatBuffer(storage: ByteStorage(copying: Self.sampleBuffer()))
        XCTAssertTrue(buffer.hasIdentifier("TEST"))
        let root = try buffer.rootTable()
        XCTAssertEqual(try root.scalar(0, default: Int32(0)), 7)
        XCTAssertEqual(try root.string(1), "hi")
        XCTAssertEqual(try root.vector(2, elementSize: 2)?.integers(Int16.self), [1, -2])
        XCTAssertEqual(try root.scalar(5, default: Int32(42)), 42, "absent field gives the default")
        XCTAssertNil(try root.string(7))
    }

    func testStructsInFieldsAndVectors() throws {
        let root = try FlatBuffer(storage: ByteStorage(copying: Self.sampleBuffer())).rootTable()
        // Field 0 read as a 4-byte struct { int32 }.
        let field = try XCTUnwrap(try root.structField(0, size: 4))
        XCTAssertEqual(try field.scalar(at: 0, as: Int32.self), 7)
        XCTAssertThrowsError(try field.scalar(at: 2, as: Int32.self), "read past the struct's end")
        XCTAssertThrowsError(try root.structField(0, size: 64), "struct larger than its table")
        // Field 2 read as a vector of 2-byte structs { int16 }.
        let vector = try XCTUnwrap(try root.vector(2, elementSize: 2))
        XCTAssertEqual(try vector.structElement(at: 1).scalar(at: 0, as: Int16.self), -2)
        XCTAssertThrowsError(try vector.structElement(at: 2))
    }

    func testEveryTruncationIsRejectedOrReadsConsistently() throws {
        let bytes = Self.sampleBuffer()
        for length in 0..<bytes.count {
            let buffer = try FlatBuffer(storage: ByteStorage(copying: bytes[0..<length]))
            XCTAssertThrowsError(try {
                let root = try buffer.rootTable()
                _ = try root.string(1)
                _ = try root.vector(2, elementSize: 2)?.integers(Int16.self)
            }(), "length \(length)")
        }
    }

    func testBadRootOffsetIsRejected() throws {
        var bytes = Self.sampleBuffer()
        bytes[0] = 0xF0; bytes[1] = 0xFF
        let buffer = try FlatBuffer(storage: ByteStorage(copying: bytes))
        XCTAssertThrowsError(try buffer.rootTable()) { error in
            guard case .outOfBounds = error as? FlatBufferError else { return XCTFail("\(error)") }
        }
    }

    func testVtableOutOfBoundsIsRejected() throws {
        var bytes = Self.sampleBuffer()
        bytes[20] = 0x00; bytes[21] = 0x10 // soffset 0x1000 points before the buffer start
        let buffer = try FlatBuffer(storage: ByteStorage(copying: bytes))
        XCTAssertThrowsError(try buffer.rootTable())
    }

    func testHugeVectorCountIsRejected() throws {
        var bytes = Self.sampleBuffer()
        bytes.replaceSubrange(44..<48, with: [0xFF, 0xFF, 0xFF, 0xFF])
        let root = try FlatBuffer(storage: ByteStorage(copying: bytes)).rootTable()
        XCTAssertThrowsError(try root.vector(2, elementSize: 2)) { error in
            guard case .outOfBounds = error as? FlatBufferError else { return XCTFail("\(error)") }
        }
    }

    func testFieldOutsideTableIsRejected() throws {
        var bytes = Self.sampleBuffer()
        bytes[14] = 40 // field 1 offset 40 > table size 16
        let root = try FlatBuffer(storage: ByteStorage(copying: bytes)).rootTable()
        XCTAssertThrowsError(try root.string(1))
    }

    func testTableLimitIsEnforced() throws {
        let limits = FlatBufferLimits(maxDepth: 64, maxTables: 2, maxApparentSizeFactor: 4)
        let buffer = try FlatBuffer(storage: ByteStorage(copying: Self.sampleBuffer()), limits: limits)
        _ = try buffer.rootTable()
        _ = try buffer.rootTable()
        XCTAssertThrowsError(try buffer.rootTable()) { error in
            XCTAssertEqual(error as? FlatBufferError, .tableLimitExceeded(limit: 2))
        }
    }
}
