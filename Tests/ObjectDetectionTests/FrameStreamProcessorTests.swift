import Foundation
import ObjectDetection
import XCTest

final class FrameStreamProcessorTests: XCTestCase {
    func testFramesArrivingWhileBusyAreDroppedAndCounted() async throws {
        // Ten frames arrive at once; processing one takes 50 ms, so only the first frame taken and
        // the newest waiting frame are processed.
        let frames = AsyncStream<Int> { continuation in
            for i in 0..<10 { continuation.yield(i) }
            continuation.finish()
        }
        let processor = FrameStreamProcessor<Int, Int> { frame in
            usleep(50_000)
            return frame * 2
        }
        var seen: [Int] = []
        let statistics = try await processor.run(frames) { frame, result in
            XCTAssertEqual(result, frame * 2)
            seen.append(frame)
        }
        XCTAssertEqual(statistics.processed + statistics.dropped, 10)
        XCTAssertEqual(statistics.processed, seen.count)
        XCTAssertGreaterThanOrEqual(statistics.dropped, 8)
        XCTAssertEqual(seen.last, 9, "the newest frame is never dropped")
        XCTAssertEqual(seen, seen.sorted(), "frames stay in order")
    }

    func testSlowProducerLosesNothing() async throws {
        let frames = AsyncStream<Int> { continuation in
            Task {
                for i in 0..<5 { continuation.yield(i); try? await Task.sleep(nanoseconds: 20_000_000) }
                continuation.finish()
            }
        }
        let processor = FrameStreamProcessor<Int, Int> { $0 }
        var seen: [Int] = []
        let statistics = try await processor.run(frames) { frame, _ in seen.append(frame) }
        XCTAssertEqual(seen, [0, 1, 2, 3, 4])
        XCTAssertEqual(statistics, .init(processed: 5, dropped: 0))
    }

    func testProcessingErrorsEndTheRun() async {
        struct Failure: Error {}
        let frames = AsyncStream<Int> { continuation in
            for i in 0..<3 { continuation.yield(i) }
            continuation.finish()
        }
        let processor = FrameStreamProcessor<Int, Int> { _ in throw Failure() }
        do {
            _ = try await processor.run(frames) { _, _ in }
            XCTFail("expected the processing error")
        } catch {
            XCTAssertTrue(error is Failure)
        }
    }
}
