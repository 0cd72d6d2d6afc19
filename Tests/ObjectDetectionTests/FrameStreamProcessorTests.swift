import Foundation
import ObjectDetection
import XCTest

/// The frame-dropping contract, with the arrival of frames ordered by the test itself (no
/// sleeps, no clock): frames are produced from inside the processing of earlier frames.
final class FrameStreamProcessorTests: XCTestCase {
    /// A frame source that signals `exhausted` when its consumer has taken every frame and
    /// asked for the next (the feeder has handed each one on).
    struct SignallingFrames: AsyncSequence, Sendable {
        typealias Element = Int
        let frames: AsyncStream<Int>
        let exhausted: DispatchSemaphore

        struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncStream<Int>.AsyncIterator
            let exhausted: DispatchSemaphore
            mutating func next() async -> Int? {
                let frame = await base.next()
                if frame == nil { exhausted.signal() }
                return frame
            }
        }

        func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: frames.makeAsyncIterator(), exhausted: exhausted)
        }
    }

    /// While frame 0 is being processed, frames 1 to 9 arrive and the stream ends: only the
    /// newest (9) is kept, 1 to 8 are dropped and counted.
    func testFramesArrivingWhileBusyAreDroppedAndCounted() async throws {
        let (source, continuation) = AsyncStream.makeStream(of: Int.self)
        let exhausted = DispatchSemaphore(value: 0)
        continuation.yield(0)
        let processor = FrameStreamProcessor<Int, Int> { frame in
            if frame == 0 {
                for i in 1..<10 { continuation.yield(i) }
                continuation.finish()
                // Hang guard only (the feeder runs on another thread): no timing is asserted.
                if exhausted.wait(timeout: .now() + 60) == .timedOut { XCTFail("the feeder never drained the source") }
            }
            return frame * 2
        }
        var seen: [Int] = []
        let statistics = try await processor.run(SignallingFrames(frames: source, exhausted: exhausted)) { frame, result in
            XCTAssertEqual(result, frame * 2)
            seen.append(frame)
        }
        XCTAssertEqual(seen, [0, 9], "the frame being processed, then the newest waiting frame")
        XCTAssertEqual(statistics, .init(processed: 2, dropped: 8))
    }

    /// A producer that never gets ahead of the processor (each frame is produced once the
    /// previous result was delivered) loses nothing.
    func testSlowProducerLosesNothing() async throws {
        let (source, continuation) = AsyncStream.makeStream(of: Int.self)
        continuation.yield(0)
        let processor = FrameStreamProcessor<Int, Int> { $0 }
        var seen: [Int] = []
        let statistics = try await processor.run(source) { frame, _ in
            seen.append(frame)
            if frame < 4 { continuation.yield(frame + 1) } else { continuation.finish() }
        }
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
