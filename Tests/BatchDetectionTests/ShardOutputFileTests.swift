@testable import BatchDetection
import Foundation
import XCTest

/// Resumable shard output: nothing visible before commit, atomic commit, clean-up of leftovers.
final class ShardOutputFileTests: XCTestCase {
    private var directory: URL!

    override func setUp() {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("shard-out-\(UUID().uuidString)/nested")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory.deletingLastPathComponent())
    }

    func testTheFinalFileAppearsOnlyWhenTheShardIsDone() throws {
        let shard = try Shard(index: 2, count: 3)
        // A leftover of a killed run of the same shard, and one of another shard.
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let stale = directory.appendingPathComponent(".part-2.jsonl.otherhost-1.tmp").path
        let otherShard = directory.appendingPathComponent(".part-1.jsonl.otherhost-1.tmp").path
        XCTAssertTrue(FileManager.default.createFile(atPath: stale, contents: Data("{\"id\":1}\n".utf8)))
        XCTAssertTrue(FileManager.default.createFile(atPath: otherShard, contents: Data()))

        XCTAssertFalse(ShardOutputFile.isComplete(in: directory.path, shard: shard))
        let output = try ShardOutputFile(directory: directory.path, shard: shard)
        for k in 0..<5000 { try output.write(line: "{\"id\":\(k)}") }
        XCTAssertFalse(ShardOutputFile.isComplete(in: directory.path, shard: shard), "not visible before finish")
        try output.finish()
        XCTAssertTrue(ShardOutputFile.isComplete(in: directory.path, shard: shard))
        let lines = try String(contentsOfFile: output.finalPath, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 5000)
        XCTAssertEqual(lines.last, "{\"id\":4999}")
        XCTAssertEqual(output.finalPath, directory.appendingPathComponent("part-2.jsonl").path)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.temporaryPath))
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale), "leftovers of killed runs of this shard are removed")
        XCTAssertTrue(FileManager.default.fileExists(atPath: otherShard), "other shards' files are left alone")
    }

    func testAnAbandonedOutputLeavesNothingBehind() throws {
        let shard = try Shard(index: 0, count: 1)
        var output: ShardOutputFile? = try ShardOutputFile(directory: directory.path, shard: shard)
        try output?.write(line: "{}")
        let temporary = output!.temporaryPath
        output = nil
        XCTAssertFalse(FileManager.default.fileExists(atPath: temporary))
        XCTAssertFalse(ShardOutputFile.isComplete(in: directory.path, shard: shard))
    }

    func testAnUnwritableDirectoryIsATransientOutputFailure() {
        XCTAssertThrowsError(try ShardOutputFile(directory: "/proc/litevision-cannot-write", shard: .all)) { error in
            XCTAssertEqual((error as? BatchRunError)?.exitCode, BatchExitCode.transientFailure, "\(error)")
        }
    }
}
