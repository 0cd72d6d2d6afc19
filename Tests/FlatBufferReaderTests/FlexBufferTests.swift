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

    func testManySharedLongKeysAreBounded() throws {
        let small = try FlexBufferMap(bytes: Self.sharedKeyMap(count: 3, length: 5))
        XCTAssertEqual(small.keys, ["aaaaa", "aaaaa", "aaaaa"])
        XCTAssertEqual(small.int("aaaaa"), 0)
        let hostile = Self.sharedKeyMap(count: 20_000, length: 20_000)
        let started = Date()
        XCTAssertThrowsError(try FlexBufferMap(bytes: hostile)) { error in
            guard case .malformed? = error as? FlatBufferError else { return XCTFail("\(error)") }
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "bounded, not quadratic")
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
