import Foundation
import TestSupport
import XCTest
@testable import ModelHosting

final class SHA256Tests: XCTestCase {
    private func hex(_ text: String) -> String { SHA256.hexString(SHA256.hash(Array(text.utf8))) }

    /// FIPS 180-4 / NIST example vectors.
    func testKnownVectors() {
        XCTAssertEqual(hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"),
                       "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
        XCTAssertEqual(hex("The quick brown fox jumps over the lazy dog"),
                       "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592")
    }

    /// One million 'a' (NIST long message), fed in uneven chunks.
    func testMillionAInChunks() {
        var hasher = SHA256()
        let block = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        var remaining = 1_000_000
        var step = 1
        while remaining > 0 {
            let count = min(step, remaining, block.count)
            hasher.update(block[0..<count])
            remaining -= count
            step = step % 997 + 13
        }
        XCTAssertEqual(SHA256.hexString(hasher.finalize()),
                       "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Lengths around the padding boundaries (55, 56, 63, 64, 65 bytes) agree between one-shot
    /// and byte-by-byte hashing, and differ from each other.
    func testPaddingBoundariesAndChunkingAgree() {
        var seen = Set<String>()
        for length in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 129] {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            var incremental = SHA256()
            for byte in bytes { incremental.update([byte]) }
            let oneShot = SHA256.hexString(SHA256.hash(bytes))
            XCTAssertEqual(SHA256.hexString(incremental.finalize()), oneShot, "length \(length)")
            seen.insert(oneShot)
        }
        XCTAssertEqual(seen.count, 12)
        // 55 bytes of 'a' is a common boundary vector.
        XCTAssertEqual(hex(String(repeating: "a", count: 55)),
                       "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        XCTAssertEqual(hex(String(repeating: "a", count: 64)),
                       "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
    }

    /// A real model file hashes to the checksum pinned in Scripts/models.sha256.
    func testRealModelFileMatchesPinnedChecksum() throws {
        let root = TestPaths.packageRoot
        let pinned = try String(contentsOf: root.appendingPathComponent("Scripts/models.sha256"), encoding: .utf8)
        guard let line = pinned.split(separator: "\n").first(where: { $0.hasSuffix("face_detection_short_range.tflite") }) else {
            throw TestEnvironment.missing("no pinned checksum for face_detection_short_range.tflite")
        }
        let model = try TestPaths.model("face_detection_short_range.tflite")
        XCTAssertEqual(try FileDigest.sha256Hex(ofFileAt: model.path), String(line.split(separator: " ")[0]))
    }
}
