import Foundation
import TFLiteSchema
import TestSupport
import XCTest

/// Label lists, archive entries and model files are bounded by ``ResourceLimits`` before they
/// are inflated, read or split (issue #17: a 250 MiB label file took 6.7 GB; a model cut
/// inside its archive silently lost its labels; a directory as a model gave a size message).
final class ResourceLimitTests: XCTestCase {
    private var temporary: URL!

    override func setUpWithError() throws {
        temporary = FileManager.default.temporaryDirectory.appendingPathComponent("limits-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: temporary) }

    func testLabelFilesAreBoundedByBytesAndCountBeforeSplitting() throws {
        var limits = ResourceLimits()
        limits.maximumLabelCount = 100
        limits.maximumLabelByteCount = 1 << 20
        let path = temporary.appendingPathComponent("labels.txt").path
        try Data(String(repeating: "cat\r\n", count: 100).utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(try LabelList(contentsOf: path, limits: limits).labels.count, 100)
        try Data(String(repeating: "cat\n", count: 101).utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try LabelList(contentsOf: path, limits: limits)) { error in
            XCTAssertEqual((error as? ResourceLimitError)?.limit, "maximumLabelCount", "\(error)")
        }
        try Data(count: 2 << 20).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try LabelList(contentsOf: path, limits: limits)) { error in
            XCTAssertEqual((error as? ResourceLimitError)?.limit, "maximumLabelByteCount", "\(error)")
            XCTAssertTrue("\(error)".contains(path), "\(error)")
        }
        // Old-Mac line ends count as lines too.
        XCTAssertThrowsError(try LabelList.checkBounds(Array(repeating: UInt8(ascii: "\r"), count: 200), limits: limits, "x"))
    }

    func testDirectoriesAndDevicesAreNotReadAsFiles() {
        XCTAssertThrowsError(try TFLiteModelFile(contentsOf: temporary.path)) { error in
            XCTAssertTrue("\(error)".contains("is a directory"), "\(error)")
        }
        XCTAssertThrowsError(try LabelList(contentsOf: "/dev/zero")) { error in
            XCTAssertTrue("\(error)".contains("not a regular file"), "\(error)")
        }
    }

    func testArchiveEntriesAreBoundedBeforeInflating() throws {
        var limits = ResourceLimits()
        limits.maximumArchiveEntryByteCount = 1000
        let archive = ZipArchiveBuilder(entries: [.init("labels.txt", String(repeating: "x\n", count: 1000))]).build()
        XCTAssertThrowsError(try AssociatedFileArchive.files(in: archive, limits: limits)) { error in
            XCTAssertEqual((error as? ResourceLimitError)?.limit, "maximumArchiveEntryByteCount", "\(error)")
        }
        limits = ResourceLimits()
        limits.maximumArchiveByteCount = 3000
        let two = ZipArchiveBuilder(entries: [.init("a.txt", String(repeating: "x", count: 2000)),
                                              .init("b.txt", String(repeating: "y", count: 2000))]).build()
        XCTAssertThrowsError(try AssociatedFileArchive.files(in: two, limits: limits)) { error in
            XCTAssertEqual((error as? ResourceLimitError)?.limit, "maximumArchiveByteCount", "\(error)")
        }
        XCTAssertEqual(try AssociatedFileArchive.files(in: two).count, 2)
    }

    /// efficientnet_lite0 packs its 1,000 ImageNet labels: a label limit applies to them, and a
    /// copy cut inside the archive is rejected instead of losing its labels.
    func testPackedLabelsAreCheckedAndTruncatedArchivesRejected() throws {
        let path = try TestPaths.model("efficientnet_lite0.tflite")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertEqual(try TFLiteModelFile(bytes: bytes).labels(forOutput: 0)?.labels.count, 1000)
        var limits = ResourceLimits()
        limits.maximumLabelCount = 999
        XCTAssertThrowsError(try TFLiteModelFile(bytes: bytes, limits: limits)) { error in
            XCTAssertEqual((error as? ResourceLimitError)?.limit, "maximumLabelCount", "\(error)")
        }
        for cut in [30, 2000] {
            XCTAssertThrowsError(try TFLiteModelFile(bytes: Array(bytes.dropLast(cut))), "cut \(cut)") { error in
                XCTAssertTrue("\(error)".contains("ends early"), "\(error)")
            }
        }
    }
}
