import Foundation
import TFLiteSchema
import TestSupport
import XCTest

/// Bounded mutation fuzzing of the associated-file ZIP reader and label parsing
/// (FUZZ_SECONDS; see `Scripts/fuzz.sh formats`).
final class ArchiveFuzzTests: XCTestCase {
    func testMutatedArchivesReadOrThrow() throws {
        let seeds = [
            ZipArchiveBuilder(entries: [.init("labels.txt", "background\ncat\ndog\n")]).build(),
            ZipArchiveBuilder(entries: [.init("a.txt", "0 person\n1 bicycle\n"), .init("dir/b.txt", "x")]).build(),
        ]
        var limits = ResourceLimits()
        limits.maximumArchiveEntryByteCount = 1 << 20
        var fuzzer = MutationFuzzer(name: "zip", seeds: seeds)
        let summary = fuzzer.run { bytes in
            for (_, content) in try AssociatedFileArchive.files(in: bytes, limits: limits) {
                try LabelList.checkBounds(content, limits: limits, "entry")
                _ = LabelList(text: String(decoding: content, as: UTF8.self)).labels.count
            }
        }
        XCTAssertGreaterThanOrEqual(summary.accepted, seeds.count)
    }
}
