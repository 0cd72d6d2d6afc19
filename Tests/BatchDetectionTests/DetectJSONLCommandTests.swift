import BatchDetection
import Foundation
import TestSupport
import XCTest

/// `litevision detect --jsonl` end to end through the built executable: the record contract,
/// exit codes, shards through `--output`, and resuming after a killed run.
final class DetectJSONLCommandTests: XCTestCase {
    private var items: BatchWorkItems!
    private var binary: LiteVisionBinary!

    override func setUpWithError() throws {
        binary = try LiteVisionBinary()
        _ = try TestPaths.model("deeplabv3.tflite")
        items = try BatchWorkItems()
    }

    override func tearDown() { items?.remove() }

    private var detectArguments: [String] {
        ["detect", "--jsonl", "--multiple", "--threads", "1", "--models", TestPaths.modelsDirectory.path]
    }

    private func list(_ lines: [String], name: String = "items.txt") throws -> String {
        let url = items.directory.appendingPathComponent(name)
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
        return url.path
    }

    /// `{"id": k, "path": ...}` lines with unique ids, photos and broken files mixed.
    private func numberedLines(_ count: Int) -> [String] {
        (0..<count).map { k in
            let path = k % 4 == 3 ? items.broken[k % items.broken.count].path : items.photos[k % items.photos.count]
            return "{\"id\": \(k), \"path\": \"\(path)\"}"
        }
    }

    func testMixedItemsGiveOneRecordEachWithTheKeysOfDetectJSON() throws {
        let lines = items.lines(count: 30)
        let run = try binary.run(detectArguments, stdinFile: try list(lines), in: items.directory)
        XCTAssertEqual(run.status, 0, run.stderr)
        let records = try run.records()
        XCTAssertEqual(records.count, lines.count, "one record per item")
        XCTAssertTrue(run.stderr.contains("\(lines.count) items"), "the summary goes to standard error: \(run.stderr)")
        for (line, record) in zip(lines, records) {
            if let error = record["error"] as? [String: Any] {
                XCTAssertEqual(Set(record.keys), ["id", "error"], line)
                XCTAssertEqual(Set(error.keys), ["kind", "message"], line)
                if let broken = items.broken.first(where: { line.contains($0.path + "\"") || line == $0.path }) {
                    XCTAssertEqual(error["kind"] as? String, broken.kind, line)
                } else {
                    XCTAssertEqual(error["kind"] as? String, "invalidItem", line)
                }
            } else {
                XCTAssertEqual(Set(record.keys), ["id", "image", "width", "height", "objects"], line)
                XCTAssertTrue(line.hasPrefix("{") ? line.contains("\"id\": \(record["id"] as? Int ?? -1),") : record["id"] as? String == line,
                              "the id is echoed: \(line) -> \(record["id"] ?? "nil")")
            }
        }
        XCTAssertEqual(records.filter { $0["error"] == nil }.count, lines.filter { l in items.photos.contains { l.contains($0) } }.count)

        // A record is `detect --json` of that image alone, plus the id.
        let photo = items.photos[1]
        let single = try binary.run(["detect", "--json", "--multiple", "--threads", "1", "--models", TestPaths.modelsDirectory.path, photo],
                                    in: items.directory)
        XCTAssertEqual(single.status, 0, single.stderr)
        var expected = try XCTUnwrap(try single.records().first)
        expected["id"] = photo
        let streamed = try XCTUnwrap(records.first { $0["id"] as? String == photo })
        XCTAssertEqual(NSDictionary(dictionary: streamed), NSDictionary(dictionary: expected))
    }

    func testPermanentAndTransientFailuresHaveDistinctExitCodes() throws {
        let input = try list([items.photos[0]])
        let permanent: [([String], [String: String])] = [
            (["detect", "--jsonl", "--models", "/nonexistent-models"], [:]),
            (["detect", "--jsonl", "--models", TestPaths.modelsDirectory.path, "--detector", input], [:]),
            (detectArguments + ["--shard", "4/4"], [:]),
            (detectArguments + ["--input", "/nonexistent/items.txt"], [:]),
            (detectArguments, ["JOB_COMPLETION_INDEX": "1"]),
            (["detect", "--shard", "0/2", items.photos[0]], [:]),
        ]
        for (arguments, environment) in permanent {
            let run = try binary.run(arguments, stdinFile: input, environment: environment, in: items.directory)
            XCTAssertEqual(run.status, BatchExitCode.permanentFailure, "\(arguments) \(environment): \(run.stderr)")
            XCTAssertEqual(run.stdout, "", "nothing on standard output")
            XCTAssertFalse(run.stderr.isEmpty)
        }
        let transient = try binary.run(detectArguments + ["--output", "/proc/litevision-results"], stdinFile: input, in: items.directory)
        XCTAssertEqual(transient.status, BatchExitCode.transientFailure, transient.stderr)
    }

    func testShardsCoverEveryItemExactlyOnce() throws {
        let lines = numberedLines(23)
        let input = try list(lines)
        let whole = try binary.run(detectArguments, stdinFile: input, in: items.directory)
        XCTAssertEqual(whole.status, 0, whole.stderr)
        let expected = whole.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(expected.count, lines.count)

        for count in [2, 5] {
            let output = items.directory.appendingPathComponent("out-\(count)")
            for index in 0..<count {
                // Half the shards take their index from the Kubernetes variables, half from --shard.
                let run = index % 2 == 0
                    ? try binary.run(detectArguments + ["--input", input, "--output", output.path],
                                     environment: ["JOB_COMPLETION_INDEX": "\(index)", "LITEVISION_SHARD_COUNT": "\(count)"],
                                     in: items.directory)
                    : try binary.run(detectArguments + ["--shard", "\(index)/\(count)", "--output", output.path],
                                     stdinFile: input, in: items.directory)
                XCTAssertEqual(run.status, 0, run.stderr)
                XCTAssertEqual(run.stdout, "", "records go to the output directory")
            }
            var byID: [Int: String] = [:]
            for index in 0..<count {
                let part = try String(contentsOf: output.appendingPathComponent("part-\(index).jsonl"), encoding: .utf8)
                for record in part.split(separator: "\n") {
                    let id = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(record.utf8)) as? [String: Any])?["id"] as? Int)
                    XCTAssertNil(byID[id], "item \(id) in two shards")
                    XCTAssertEqual(id % count, index, "item \(id) in shard \(index) of \(count)")
                    byID[id] = String(record)
                }
            }
            XCTAssertEqual(byID.count, lines.count, "every item in some shard (\(count) shards)")
            XCTAssertEqual((0..<lines.count).map { byID[$0] ?? "" }, expected, "sharded records equal the whole run's")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: output.path).filter { $0.hasSuffix(".tmp") }
            XCTAssertEqual(leftovers, [])
        }
    }

    func testAKilledRunResumesWithNoDuplicateAndNoMissingRecord() throws {
        let lines = numberedLines(40)
        let input = try list(lines)
        let output = items.directory.appendingPathComponent("resumed")
        let arguments = detectArguments + ["--input", input, "--output", output.path, "--shard", "0/1"]

        let (process, out, err) = try binary.start(arguments, in: items.directory)
        // Kill it once some records are in its temporary file, well before the end.
        let deadline = Date().addingTimeInterval(120)
        var partial = 0
        while Date() < deadline, process.isRunning {
            let temporary = (try? FileManager.default.contentsOfDirectory(atPath: output.path))?.first { $0.hasSuffix(".tmp") }
            partial = temporary.flatMap { FileManager.default.contents(atPath: output.appendingPathComponent($0).path)?.count } ?? 0
            if partial > 0 { break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .uncaughtSignal, "killed before finishing: \((try? String(contentsOf: err, encoding: .utf8)) ?? "")")
        XCTAssertGreaterThan(partial, 0, "the run had written records when it was killed")
        try? FileManager.default.removeItem(at: out); try? FileManager.default.removeItem(at: err)
        XCTAssertFalse(ShardOutputFile.isComplete(in: output.path, shard: .all), "a killed run leaves no part file")

        let rerun = try binary.run(arguments, in: items.directory)
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        let part = output.appendingPathComponent("part-0.jsonl")
        let resumed = try String(contentsOf: part, encoding: .utf8)
        let single = try binary.run(detectArguments, stdinFile: input, in: items.directory)
        XCTAssertEqual(resumed, single.stdout, "the resumed output equals a clean single-process run, record for record")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: output.path), ["part-0.jsonl"],
                       "the killed run's temporary file is cleaned up")

        // A retry of a complete shard does nothing.
        let modified = try FileManager.default.attributesOfItem(atPath: part.path)[.modificationDate] as? Date
        let retry = try binary.run(arguments, in: items.directory)
        XCTAssertEqual(retry.status, 0)
        XCTAssertTrue(retry.stderr.contains("complete"), retry.stderr)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: part.path)[.modificationDate] as? Date, modified)
    }
}
