import FlatBufferReader
import Foundation
import TestSupport
import XCTest

/// FlexBuffers decoding against buffers written by the reference python builder
/// (`Tests/Fixtures/schema/make_flexbuffer_fixtures.py`), plus hostile variants.
final class FlexBufferTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/schema")

    static func sample() throws -> [UInt8] {
        [UInt8](try Data(contentsOf: fixtures.appendingPathComponent("flexbuffer_sample.bin")))
    }

    func testScalarsOfEveryWidth() throws {
        let map = try FlexBufferMap(bytes: try Self.sample())
        XCTAssertEqual(map.count, 14)
        XCTAssertEqual(map.int("small"), -5)
        XCTAssertEqual(map.int("medium"), -30000)
        XCTAssertEqual(map.int("large"), 2_000_000_000)
        XCTAssertEqual(map.int("huge"), -(1 << 40))
        XCTAssertEqual(map.int("unsigned"), 60000)
        XCTAssertEqual(map.float("half"), 0.5)
        XCTAssertEqual(map.double("precise"), 3.141592653589793)
        XCTAssertEqual(map.bool("yes"), true)
        XCTAssertEqual(map.bool("no"), false)
        XCTAssertNil(map.int("absent"))
        XCTAssertNil(map.int("name"), "a string is not an int")
    }

    func testStringsBlobsVectorsAndNestedMaps() throws {
        let map = try FlexBufferMap(bytes: try Self.sample())
        XCTAssertEqual(map.string("name"), "TFLite_Detection_PostProcess")
        XCTAssertEqual(map["blob"]?.blob, [0, 1, 2, 255])
        XCTAssertEqual(map.vector("typed")?.ints, [1, 2, 300])
        let mixed = try XCTUnwrap(map.vector("mixed"))
        XCTAssertEqual(mixed.count, 3)
        XCTAssertEqual(mixed[0]?.int, 7)
        XCTAssertEqual(mixed[1]?.string, "seven")
        XCTAssertEqual(mixed[2]?.double, 7.5)
        XCTAssertNil(mixed[3])
        XCTAssertEqual(map["nested"]?.map?.int("inner"), 42)
        XCTAssertEqual(map.keys, map.keys.sorted(), "keys are stored sorted")
    }

    /// A map of `count` keys that all point at one `length`-byte key: scanning each key in
    /// full would take count x length steps; the reader bounds the total scan instead.
    static func sharedKeyMap(count: Int, length: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length) + [0]
        func u32(_ value: Int) { for shift in [0, 8, 16, 24] { bytes.append(UInt8((value >> shift) & 0xFF)) } }
        while bytes.count % 4 != 0 { bytes.append(0) }
        u32(count)
        let keysStart = bytes.count
        for index in 0..<count { u32(keysStart + 4 * index) } // offset back to byte 0
        let map = bytes.count
        u32(map - keysStart); u32(4); u32(count)
        let values = bytes.count
        for _ in 0..<count { u32(0) }
        bytes += [UInt8](repeating: (1 << 2) | 2, count: count)
        while bytes.count % 4 != 0 { bytes.append(0) }
        let root = bytes.count
        u32(root - values)
        bytes += [(9 << 2) | 2, 4]
        return bytes
    }

    /// The index of the first key a map of `length`-byte keys cannot read within the key scan
    /// budget of a `byteCount`-byte buffer: max(4 × byteCount, 64 Ki) key bytes in total, the
    /// budget reaching zero on the last byte scanned.
    static func firstKeyOverBudget(byteCount: Int, length: Int) -> Int {
        let budget = max(4 * byteCount, 1 << 16)
        return (budget + length - 1) / length - 1
    }

    /// The total key scan is bounded by a budget linear in the buffer's size, checked by where
    /// it stops (no clock): valid keys within the budget are read, the first key past it is
    /// rejected, and a hostile map (20,000 keys sharing one 20,000-byte key, 400 MB of scanning
    /// if unbounded) stops at the key where the budget runs out.
    func testManySharedLongKeysAreBounded() throws {
        let small = try FlexBufferMap(bytes: Self.sharedKeyMap(count: 3, length: 5))
        XCTAssertEqual(small.keys, ["aaaaa", "aaaaa", "aaaaa"])
        XCTAssertEqual(small.int("aaaaa"), 0)

        // 1,000-byte keys in a buffer under 16 KiB: the budget is 64 Ki bytes, so 65 keys fit and
        // the 66th (index 65) does not, although it is as valid as the others.
        let fits = Self.sharedKeyMap(count: 65, length: 1000), over = Self.sharedKeyMap(count: 66, length: 1000)
        XCTAssertLessThan(4 * over.count, 1 << 16)
        XCTAssertEqual(Self.firstKeyOverBudget(byteCount: over.count, length: 1000), 65)
        XCTAssertEqual(try FlexBufferMap(bytes: fits).count, 65)
        for (bytes, length) in [(over, 1000), (Self.sharedKeyMap(count: 20_000, length: 20_000), 20_000)] {
            let stop = Self.firstKeyOverBudget(byteCount: bytes.count, length: length)
            XCTAssertThrowsError(try FlexBufferMap(bytes: bytes)) { error in
                guard case let .malformed(reason)? = error as? FlatBufferError else { return XCTFail("\(error)") }
                XCTAssertEqual(reason, "FlexBuffer map key \(stop) is unreadable", "stops where the budget runs out")
            }
        }
    }

    func testRootMustBeAMap() {
        // Root: int 7, packed type INT (1 << 2) width 1, root width 1.
        XCTAssertThrowsError(try FlexBufferMap(bytes: [7, 4, 1]))
        XCTAssertEqual(try FlexBufferReference(root: [7, 4, 1]).int, 7)
    }

    func testTruncatedAndShortInputsNeverCrash() throws {
        let bytes = try Self.sample()
        for length in 0..<bytes.count {
            let prefix = Array(bytes[0..<length])
            if let map = try? FlexBufferMap(bytes: prefix) { touchEverything(map) }
            let suffix = Array(bytes[(bytes.count - length)...])
            if let map = try? FlexBufferMap(bytes: suffix) { touchEverything(map) }
        }
        XCTAssertThrowsError(try FlexBufferMap(bytes: []))
        XCTAssertThrowsError(try FlexBufferMap(bytes: [0, 0]))
    }

    func testRandomCorruptionNeverCrashes() throws {
        let original = try Self.sample()
        var generator = SeededGenerator(seed: 0x5EED)
        for _ in 0..<3000 {
            var bytes = original
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
            }
            if let map = try? FlexBufferMap(bytes: bytes) { touchEverything(map) }
        }
    }

    /// Reads every key and value in every way, recursing a bounded number of levels.
    private func touchEverything(_ map: FlexBufferMap, depth: Int = 0) {
        guard depth < 8 else { return }
        for key in map.keys {
            guard let value = map[key] else { continue }
            touch(value, depth: depth)
        }
    }

    private func touch(_ value: FlexBufferReference, depth: Int) {
        _ = value.int; _ = value.double; _ = value.bool; _ = value.string; _ = value.blob
        if let vector = value.vector, depth < 8 {
            for element in vector.elements.prefix(64) { touch(element, depth: depth + 1) }
        }
        if let map = value.map { touchEverything(map, depth: depth + 1) }
    }
}
