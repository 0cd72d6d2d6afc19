import Foundation
import TestSupport
import XCTest

/// The replay corpus of the mutation fuzzers: saved crash inputs run after the seeds and
/// before any mutation, and `FUZZ_SECONDS=0` (what `Scripts/fuzz.sh replay-asan` sets) runs
/// exactly the seeds and the saved inputs.
final class MutationFuzzerReplayTests: XCTestCase {
    func testSavedInputsReplayAfterTheSeedsAndBeforeMutations() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("litevision-replay-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data([9, 9, 9]).write(to: directory.appendingPathComponent("crash-b"))
        try Data([7]).write(to: directory.appendingPathComponent("crash-a"))
        try Data("not an input".utf8).write(to: directory.appendingPathComponent("README.md"))
        try Data([1]).write(to: directory.appendingPathComponent(".hidden"))

        var fuzzer = MutationFuzzer(name: "replay-test", seeds: [[1, 2], [3]], replayDirectory: directory)
        var seen: [[UInt8]] = []
        let summary = fuzzer.run(seconds: 0) { bytes in
            seen.append(bytes)
            if bytes == [7] { throw CocoaError(.fileReadCorruptFile) }
        }
        XCTAssertEqual(seen, [[1, 2], [3], [7], [9, 9, 9]], "seeds, then the saved inputs in name order, no mutation")
        XCTAssertEqual(summary.executions, 4)
        XCTAssertEqual(summary.replayed, 2)
        XCTAssertEqual(summary.rejected, 1)
    }

    func testTheDefaultCorpusIsTheTargetsFixtureFolder() {
        XCTAssertEqual(MutationFuzzer.replayDirectory(name: "jpeg").path,
                       TestPaths.fixturesDirectory.appendingPathComponent("fuzz/jpeg").path)
        XCTAssertEqual(MutationFuzzer.savedInputs(in: TestPaths.fixturesDirectory.appendingPathComponent("fuzz/none")), [])
    }
}
