@testable import BatchDetection
import Foundation
import XCTest

/// Work-item lines: bare paths, `{"id", "path"}` objects, and every malformed form.
final class WorkItemTests: XCTestCase {
    func testABarePathIsItsOwnID() throws {
        XCTAssertEqual(try WorkItem.parse(line: "/photos/a b.png").get(), WorkItem(id: .string("/photos/a b.png"), path: "/photos/a b.png"))
        XCTAssertEqual(try WorkItem.parse(line: "a.png\r").get().path, "a.png")
    }

    func testJSONItemsEchoTheirIDAsGiven() throws {
        XCTAssertEqual(try WorkItem.parse(line: #"{"id": "x-1", "path": "a.png"}"#).get(), WorkItem(id: .string("x-1"), path: "a.png"))
        XCTAssertEqual(try WorkItem.parse(line: #"{"id": 42, "path": "a.png", "extra": [1]}"#).get().id, .integer(42))
        XCTAssertEqual(try WorkItem.parse(line: #"{"id": 2.5, "path": "a.png"}"#).get().id, .number(2.5))
        XCTAssertEqual(try WorkItem.parse(line: #"{"path": "a.png"}"#).get().id, .string("a.png"))
        XCTAssertEqual(try WorkItem.parse(line: #"{"id": null, "path": "a.png"}"#).get().id, .string("a.png"))
    }

    func testMalformedObjectsAreInvalidItemsWithTheBestIDAvailable() {
        func failure(_ line: String) -> BatchFailure? {
            if case .failure(let f) = WorkItem.parse(line: line) { return f }
            return nil
        }
        XCTAssertEqual(failure(#"{"id": 7}"#), BatchFailure(id: .integer(7), error: BatchItemError(.invalidItem, "the object needs a non-empty string \"path\"")))
        XCTAssertEqual(failure(#"{"id": 7, "path": ""}"#)?.id, .integer(7))
        XCTAssertEqual(failure(#"{"id": true, "path": "a.png"}"#)?.error.message, "\"id\" must be a string or a number")
        XCTAssertEqual(failure(#"{"id": [1], "path": "a.png"}"#)?.error.kind, .invalidItem)
        XCTAssertEqual(failure(#"{"path": 3}"#)?.error.kind, .invalidItem)
        XCTAssertEqual(failure(#"{"id": "k", "path": 3}"#)?.id, .string("k"), "a wrong path keeps the id")
        XCTAssertEqual(failure(#"{not json"#)?.id, .string("{not json"))
    }

    func testIDsEncodeAsTheJSONTypeTheyCameAs() throws {
        let encoded = try JSONEncoder().encode([WorkItemID.string("a"), .integer(-3), .number(0.5)])
        XCTAssertEqual(String(decoding: encoded, as: UTF8.self), #"["a",-3,0.5]"#)
    }
}

/// The line reader: blank lines, missing final newline, over-long lines, counting ahead.
final class WorkItemReaderTests: XCTestCase {
    private func reader(_ text: String) throws -> (WorkItemReader, URL) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("items-\(UUID().uuidString).txt")
        try Data(text.utf8).write(to: url)
        return (try WorkItemReader(path: url.path), url)
    }

    private func drain(_ reader: WorkItemReader) throws -> [WorkItemReader.Entry] {
        var entries: [WorkItemReader.Entry] = []
        while let entry = try reader.next() { entries.append(entry) }
        return entries
    }

    func testBlankLinesAreNotItemsAndTheLastLineNeedsNoNewline() throws {
        let (reader, url) = try reader("a.png\n\n  \r\nb.png\r\n\nc.png")
        defer { try? FileManager.default.removeItem(at: url) }
        XCTAssertEqual(try reader.countRemainingItems(), 3)
        let entries = try drain(reader)
        XCTAssertEqual(entries.map(\.ordinal), [0, 1, 2])
        XCTAssertEqual(entries.map { try? $0.item.get().path }, ["a.png", "b.png", "c.png"])
    }

    func testAnOverlongLineIsOneInvalidItemAndReadingGoesOn() throws {
        let long = String(repeating: "x", count: WorkItemReader.maximumLineLength * 3 + 17)
        let (reader, url) = try reader("a.png\n\(long)\nb.png\n\(long)")
        defer { try? FileManager.default.removeItem(at: url) }
        XCTAssertEqual(try reader.countRemainingItems(), 4)
        let entries = try drain(reader)
        XCTAssertEqual(entries.count, 4)
        XCTAssertEqual(try entries[0].item.get().path, "a.png")
        XCTAssertEqual(try entries[2].item.get().path, "b.png")
        for k in [1, 3] {
            guard case .failure(let failure) = entries[k].item else { return XCTFail("line \(k) accepted") }
            XCTAssertEqual(failure.error.kind, .invalidItem)
            XCTAssertLessThan(failure.id.description.utf8.count, 300, "the id of an over-long line is a short prefix")
        }
    }

    func testInvalidUTF8IsAnInvalidItem() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("items-\(UUID().uuidString).txt")
        try Data([0x61, 0xFF, 0xFE, 0x0A, 0x62]).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let entries = try drain(try WorkItemReader(path: url.path))
        XCTAssertEqual(entries.count, 2)
        guard case .failure(let failure) = entries[0].item else { return XCTFail("invalid UTF-8 accepted") }
        XCTAssertEqual(failure.error.kind, .invalidItem)
    }

    func testAMissingListIsAnInputError() {
        XCTAssertThrowsError(try WorkItemReader(path: "/nonexistent/items.txt")) { error in
            guard case BatchRunError.inputUnavailable = error else { return XCTFail("\(error)") }
            XCTAssertEqual((error as? BatchRunError)?.exitCode, BatchExitCode.permanentFailure)
        }
    }
}
