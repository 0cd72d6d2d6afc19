@testable import BatchDetection
import Foundation
import ImageCodecs
import ObjectDetection
import TestSupport
import XCTest

/// The streaming runner on the real default detector: mixed good and bad items, records in
/// input order, each equal to a fresh detection of that image alone, with and without decode-ahead.
final class BatchRunnerTests: XCTestCase {
    private func detector() throws -> ObjectDetector {
        _ = try TestPaths.model(DefaultModels.localizerFileName)
        var options = ObjectDetectorOptions()
        options.shouldEnableMultipleObjects = true
        return try ObjectDetector.objectDetector(options: options, modelDirectory: TestPaths.modelsDirectory.path, threadCount: 1)
    }

    private func listFile(_ lines: [String], in directory: URL) throws -> String {
        let url = directory.appendingPathComponent("items.txt")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
        return url.path
    }

    func testMixedGoodAndBadItemsGiveOneRecordEachInOrder() throws {
        let items = try BatchWorkItems()
        defer { items.remove() }
        let lines = items.lines(count: 24)
        let list = try listFile(lines, in: items.directory)
        let detector = try detector()

        var byPrefetch: [[BatchOutcome]] = []
        for prefetch in [0, 3] {
            var outcomes: [BatchOutcome] = []
            let statistics = try BatchRunner(detector: detector, prefetch: prefetch)
                .run(try WorkItemReader(path: list), emit: { outcomes.append($0) })
            XCTAssertEqual(outcomes.map(\.ordinal), Array(0..<lines.count))
            XCTAssertEqual(statistics.items, lines.count)
            if prefetch == 0 {
                XCTAssertGreaterThanOrEqual(statistics.waitSeconds, statistics.decodeSeconds, "inline decoding is all waiting")
            }
            XCTAssertEqual(statistics.errors, outcomes.filter { if case .failure = $0.result { true } else { false } }.count)
            byPrefetch.append(outcomes)
        }

        let reference = try self.detector()
        XCTAssertGreaterThanOrEqual(byPrefetch[1].filter { (try? $0.result.get().objects.count) ?? 0 > 1 }.count, 3,
                             "photos with several objects are part of the check")
        for (line, outcome) in zip(lines, byPrefetch[1]) {
            let item = try? WorkItem.parse(line: line).get()
            XCTAssertEqual(outcome.id, item?.id ?? .string("bad-line"), line)
            if let broken = items.broken.first(where: { $0.path == item?.path }) {
                guard case .failure(let error) = outcome.result else { XCTFail("\(line) succeeded"); continue }
                XCTAssertEqual(error.kind.rawValue, broken.kind, "\(line): \(error)")
                XCTAssertTrue(error.message.contains(broken.path), error.message)
            } else if let item {
                let detections = try outcome.result.get()
                reference.resetTracking()
                let image = try VisionImage(pngFile: item.path)
                let alone = try reference.results(in: image)
                XCTAssertEqual(detections.objects.map(\.frame), alone.map(\.frame), "\(line): same as detecting it alone")
                XCTAssertEqual(detections.objects.map(\.labels), alone.map(\.labels), line)
                XCTAssertEqual(detections.width, image.uprightWidth)
                XCTAssertEqual(detections.objects.map(\.trackingID), detections.objects.indices.map { $0 + 1 },
                               "IDs as in a fresh stream, whatever came before")
            } else {
                guard case .failure(let error) = outcome.result else { XCTFail("\(line) accepted"); continue }
                XCTAssertEqual(error.kind, .invalidItem)
            }
        }
        for (a, b) in zip(byPrefetch[0], byPrefetch[1]) {
            XCTAssertEqual(a.id, b.id)
            XCTAssertEqual(try? a.result.get().objects, try? b.result.get().objects, "decode-ahead changes nothing")
        }
    }

    func testAShardSeesOnlyItsItems() throws {
        let items = try BatchWorkItems()
        defer { items.remove() }
        let lines = items.lines(count: 10)
        let list = try listFile(lines, in: items.directory)
        let detector = try detector()
        var seen: [Int] = []
        for index in 0..<3 {
            try BatchRunner(detector: detector, shard: try Shard(index: index, count: 3), prefetch: 1)
                .run(try WorkItemReader(path: list), emit: { outcome in
                    XCTAssertEqual(outcome.ordinal % 3, index)
                    seen.append(outcome.ordinal)
                })
        }
        XCTAssertEqual(seen.sorted(), Array(0..<lines.count))
    }
}
