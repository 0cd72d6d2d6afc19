import Foundation
import TFLiteSchema
import TestSupport
import XCTest

/// The ZIP archive appended to models: valid stored and deflated entries, and hostile archives.
final class AssociatedFileArchiveTests: XCTestCase {
    func smallModel() throws -> [UInt8] { try SchemaTestFiles.referenceModelBytes("face_detection_short_range.tflite") }

    func assertArchiveRejected(_ bytes: [UInt8], containing text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try TFLiteModelFile(bytes: bytes), file: file, line: line) { error in
            guard case let .invalidArchive(message)? = error as? TFLiteSchemaError else {
                return XCTFail("unexpected error \(error)", file: file, line: line)
            }
            XCTAssertTrue(message.contains(text), "message: \(message)", file: file, line: line)
        }
    }

    func testStoredEntriesAppendedToARealModel() throws {
        let archive = ZipArchiveBuilder(entries: [.init("labels.txt", "cat\ndog\n"), .init("dir/readme.txt", "hello")]).build()
        let model = try TFLiteModelFile(bytes: try smallModel() + archive)
        XCTAssertEqual(model.associatedFiles["labels.txt"], Array("cat\ndog\n".utf8))
        XCTAssertEqual(model.associatedFiles["dir/readme.txt"], Array("hello".utf8))
    }

    func testDeflatedEntryFromPythonZipfile() throws {
        let archive = [UInt8](try Data(contentsOf: SchemaTestFiles.fixturesDirectory.appendingPathComponent("deflated_archive.zip")))
        let model = try TFLiteModelFile(bytes: try smallModel() + archive)
        let labels = LabelList(text: String(decoding: try XCTUnwrap(model.associatedFiles["labels.txt"]), as: UTF8.self))
        XCTAssertEqual(labels.labels.count, 300)
        XCTAssertEqual(labels.labels.last, "class_299")
        XCTAssertEqual(model.associatedFiles["notes/readme.txt"], Array("stored entry\n".utf8))
        XCTAssertEqual(try AssociatedFileArchive.files(in: archive).count, 2)
    }

    func testEntryPastEndOfFile() throws {
        var entry = ZipArchiveBuilder.Entry("labels.txt", "cat\ndog\n")
        entry.claimedSize = 1 << 30
        assertArchiveRejected(try smallModel() + ZipArchiveBuilder(entries: [entry]).build(), containing: "past the end")
        var inconsistent = ZipArchiveBuilder.Entry("labels.txt", "cat\ndog\n")
        inconsistent.recordedSize = 1 << 30
        assertArchiveRejected(try smallModel() + ZipArchiveBuilder(entries: [inconsistent]).build(), containing: "differ")
        var farEntry = ZipArchiveBuilder.Entry("labels.txt", "cat\n")
        farEntry.recordedOffset = 0x7FFF_FFF0
        assertArchiveRejected(try smallModel() + ZipArchiveBuilder(entries: [farEntry]).build(), containing: "past the end")
    }

    func testOverlappingEntries() throws {
        var second = ZipArchiveBuilder.Entry("b.txt", "aaaa")
        second.recordedOffset = 0 // points at the first entry's local header
        let archive = ZipArchiveBuilder(entries: [.init("b.txt", "aaaa"), second]).build()
        // Same local header twice: duplicate name; with different names the headers disagree.
        assertArchiveRejected(try smallModel() + archive, containing: "duplicate")
        var third = ZipArchiveBuilder.Entry("c.txt", "cccc")
        third.recordedOffset = 3 // inside the first entry
        assertArchiveRejected(try smallModel() + ZipArchiveBuilder(entries: [.init("a.txt", "aaaa"), third]).build(),
                              containing: "signature")
    }

    func testOverlapDetectedWhenHeadersAreValid() throws {
        // Two entries whose data ranges interleave: entry 2's local header lies inside entry 1's data.
        let inner = ZipArchiveBuilder(entries: [.init("inner.txt", "x")]).build()
        let innerLocal = Array(inner[0..<(30 + 9 + 1)])
        var outer = ZipArchiveBuilder.Entry("outer.txt", "")
        outer.data = innerLocal
        var hidden = ZipArchiveBuilder.Entry("inner.txt", "x")
        hidden.recordedOffset = 30 + 9 // the copy of inner's local header inside outer's data
        let archive = ZipArchiveBuilder(entries: [outer, hidden]).build()
        assertArchiveRejected(try smallModel() + archive, containing: "overlap")
    }

    func testBadNames() throws {
        for name in ["../evil.txt", "a/../../evil.txt", "/etc/passwd", "\\windows", "C:evil"] {
            assertArchiveRejected(try smallModel() + ZipArchiveBuilder(entries: [.init(name, "x")]).build(), containing: "name")
        }
        let nul = ZipArchiveBuilder(entries: [.init(nameBytes: Array("a".utf8) + [0] + Array("b".utf8), "x")]).build()
        assertArchiveRejected(try smallModel() + nul, containing: "NUL")
        assertArchiveRejected(try smallModel() + ZipArchiveBuilder(entries: [.init("", "x")]).build(), containing: "empty")
    }

    func testCorruptedCrcAndDeflateData() throws {
        var archive = [UInt8](try Data(contentsOf: SchemaTestFiles.fixturesDirectory.appendingPathComponent("deflated_archive.zip")))
        archive[40] ^= 0xFF // inside the deflated data of labels.txt
        XCTAssertThrowsError(try TFLiteModelFile(bytes: try smallModel() + archive)) { error in
            guard case .invalidArchive? = error as? TFLiteSchemaError else { return XCTFail("\(error)") }
        }
        var stored = ZipArchiveBuilder(entries: [.init("a.txt", "hello")]).build()
        stored[30 + 5] ^= 1 // first data byte
        assertArchiveRejected(try smallModel() + stored, containing: "CRC")
    }

    func testArchiveMutations() throws {
        // Corrupt bytes of the archive (headers, directory, end record): typed errors or success, never a crash.
        let archive = [UInt8](try Data(contentsOf: SchemaTestFiles.fixturesDirectory.appendingPathComponent("deflated_archive.zip")))
        let original = try smallModel() + archive
        let tail = archive.count
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<300 {
            var bytes = original
            let position = original.count - 1 - Int(generator.next() % UInt64(tail))
            bytes[position] = UInt8(truncatingIfNeeded: generator.next())
            do { _ = try TFLiteModelFile(bytes: bytes) } catch { XCTAssertTrue(error is TFLiteSchemaError) }
        }
    }
}
