import ArgumentParser
import Foundation
import ResourceLimitOptions
import TFLiteSchema
import XCTest

/// The shared `--max-*` options: each sets its own ``ResourceLimits`` field (in bytes for the MiB
/// sizes), bad values are usage errors naming the option, and a limit given this way is the one
/// the loaders enforce (a typed ``ResourceLimitError`` naming the limit).
final class ResourceLimitOptionGroupTests: XCTestCase {
    private func limits(_ arguments: [String]) throws -> ResourceLimits {
        try ResourceLimitOptionGroup.parse(arguments).resourceLimits()
    }

    func testEachOptionSetsItsField() throws {
        XCTAssertEqual(try limits([]), .default, "no option: the defaults")
        var expected = ResourceLimits.default
        expected.maximumTotalByteCount = 3 << 20
        expected.maximumTensorByteCount = 5 << 20
        expected.maximumLabelCount = 7
        expected.maximumLabelByteCount = 11 << 20
        expected.maximumArchiveEntryByteCount = 13 << 20
        expected.maximumArchiveByteCount = 17 << 20
        XCTAssertEqual(try limits(["--max-memory", "3", "--max-tensor-size", "5", "--max-label-count", "7",
                                   "--max-label-size", "11", "--max-archive-entry-size", "13", "--max-archive-size", "17"]),
                       expected)
        XCTAssertEqual(try limits(["--max-archive-size", String(ResourceLimitOptionGroup.maximumMebibytes)]).maximumArchiveByteCount,
                       ResourceLimitOptionGroup.maximumMebibytes << 20, "the largest size converts without overflow")
    }

    func testBadValuesAreUsageErrorsNamingTheOption() {
        for (option, value) in [("--max-label-size", "0"), ("--max-archive-entry-size", "-1"),
                                ("--max-archive-size", String(ResourceLimitOptionGroup.maximumMebibytes + 1)),
                                ("--max-memory", "0"), ("--max-label-count", "0")] {
            XCTAssertThrowsError(try ResourceLimitOptionGroup.parse([option, value]), option) { error in
                let message = ResourceLimitOptionGroup.message(for: error)
                XCTAssertTrue(message.contains(option) && message.contains(value), message)
                XCTAssertEqual(ResourceLimitOptionGroup.exitCode(for: error), .validationFailure, option)
            }
        }
    }

    /// A 2 MiB label file loads with the defaults and is refused under `--max-label-size 1`.
    func testLabelSizeFromTheCommandLineIsEnforced() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("limits-\(UUID().uuidString).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try String(repeating: "label " + String(repeating: "z", count: 2000) + "\n", count: 1100)
            .write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertEqual(try LabelList(contentsOf: path, limits: try limits([])).labels.count, 1100)
        XCTAssertThrowsError(try LabelList(contentsOf: path, limits: try limits(["--max-label-size", "1"]))) { error in
            XCTAssertEqual((error as? ResourceLimitError)?.limit, "maximumLabelByteCount", "\(error)")
            XCTAssertEqual((error as? ResourceLimitError)?.allowed, 1 << 20)
        }
    }

    /// An archive with a 1.5 MiB entry and 3 MiB in all: accepted with the defaults, refused by
    /// `--max-archive-entry-size 1` and by `--max-archive-size 2`, before anything is extracted.
    func testArchiveSizesFromTheCommandLineAreEnforced() throws {
        let archive = Self.storedArchive([("a.txt", 3 << 19), ("b.txt", 3 << 19)])
        XCTAssertEqual(try AssociatedFileArchive.files(in: archive, limits: try limits([])).count, 2)
        for (arguments, limit) in [(["--max-archive-entry-size", "1"], "maximumArchiveEntryByteCount"),
                                   (["--max-archive-size", "2"], "maximumArchiveByteCount")] {
            XCTAssertThrowsError(try AssociatedFileArchive.files(in: archive, limits: try limits(arguments))) { error in
                XCTAssertEqual((error as? ResourceLimitError)?.limit, limit, "\(error)")
            }
        }
    }

    /// A ZIP archive of stored entries of `size` zero bytes each (CRC-32 computed).
    static func storedArchive(_ entries: [(name: String, size: Int)]) -> [UInt8] {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16 & 0xFFFF) }
        func crc32(zeros count: Int) -> Int {
            var crc: UInt32 = 0xFFFF_FFFF
            for _ in 0..<count {
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return Int(crc ^ 0xFFFF_FFFF)
        }
        var local: [UInt8] = [], central: [UInt8] = []
        for (name, size) in entries {
            let nameBytes = Array(name.utf8), crc = crc32(zeros: size), offset = local.count
            let common = le16(20) + le16(0) + le16(0) + le16(0) + le16(0) + le32(crc) + le32(size) + le32(size) + le16(nameBytes.count) + le16(0)
            local += le32(0x0403_4B50) + common + nameBytes + [UInt8](repeating: 0, count: size)
            central += le32(0x0201_4B50) + le16(20) + common + le16(0) + le16(0) + le16(0) + le32(0) + le32(offset) + nameBytes
        }
        let end = le32(0x0605_4B50) + le16(0) + le16(0) + le16(entries.count) + le16(entries.count)
            + le32(central.count) + le32(local.count) + le16(0)
        return local + central + end
    }
}

/// `models download`'s `--deadline`, `--min-rate` and `--min-rate-window`: each sets its own
/// ``ResourceLimits`` field, bad values are usage errors naming the option and the value.
final class DownloadLimitOptionGroupTests: XCTestCase {
    func testEachOptionSetsItsField() throws {
        XCTAssertEqual(try DownloadLimitOptionGroup.parse([]).resourceLimits(), .default)
        var expected = ResourceLimits.default
        expected.downloadDeadline = 90
        expected.minimumTransferRate = 4096
        expected.transferRateWindow = 12.5
        XCTAssertEqual(try DownloadLimitOptionGroup.parse(["--deadline", "90", "--min-rate", "4096",
                                                           "--min-rate-window", "12.5"]).resourceLimits(), expected)
        var base = ResourceLimits.default
        base.maximumLabelCount = 3
        let windowOnly = try DownloadLimitOptionGroup.parse(["--min-rate-window", "5"]).resourceLimits(base: base)
        XCTAssertEqual(windowOnly.transferRateWindow, 5)
        XCTAssertEqual(windowOnly.maximumLabelCount, 3, "other fields keep the base's values")
        XCTAssertEqual(windowOnly.downloadDeadline, ResourceLimits.default.downloadDeadline)
    }

    func testBadValuesAreUsageErrorsNamingTheOption() {
        let cases: [([String], String)] = [
            (["--min-rate-window", "0"], "--min-rate-window must be a positive number of seconds, got 0.0"),
            (["--min-rate-window", "-5"], "--min-rate-window must be a positive number of seconds, got -5.0"),
            (["--min-rate-window", "inf"], "--min-rate-window must be a positive number of seconds, got inf"),
            (["--min-rate-window", "nan"], "--min-rate-window must be a positive number of seconds, got nan"),
            (["--deadline", "10", "--min-rate-window", "20"], "--min-rate-window 20.0 is longer than the download deadline of 10.0 s"),
            (["--min-rate-window", "601"], "longer than the download deadline of 600.0 s"),
            (["--deadline", "0"], "--deadline must be a positive number of seconds, got 0.0"),
            (["--min-rate", "-1"], "--min-rate must be a number of bytes per second (0 or more), got -1.0"),
        ]
        for (arguments, needle) in cases {
            XCTAssertThrowsError(try DownloadLimitOptionGroup.parse(arguments), "\(arguments)") { error in
                let message = DownloadLimitOptionGroup.message(for: error)
                XCTAssertTrue(message.contains(needle), "\(arguments): \(message)")
                XCTAssertEqual(DownloadLimitOptionGroup.exitCode(for: error), .validationFailure, "\(arguments)")
            }
        }
        XCTAssertNoThrow(try DownloadLimitOptionGroup.parse(["--deadline", "20", "--min-rate-window", "20"]))
    }
}
