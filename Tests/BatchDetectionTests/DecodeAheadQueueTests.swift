@testable import BatchDetection
import Foundation
import XCTest

/// The decode-ahead queue: order, bounded look-ahead, errors after the values before them.
final class DecodeAheadQueueTests: XCTestCase {
    /// Counts produced values from the producer thread.
    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func increment() -> Int { lock.withLock { value += 1; return value } }
        var current: Int { lock.withLock { value } }
    }

    func testValuesComeOutInOrderAndTheProducerStaysBounded() throws {
        for capacity in [0, 1, 3] {
            let produced = Counter()
            let queue = DecodeAheadQueue<Int>(capacity: capacity) {
                let n = produced.increment()
                return n <= 50 ? n : nil
            }
            var received: [Int] = []
            while let value = try queue.next() {
                Thread.sleep(forTimeInterval: 0.002)   // a slow consumer: the producer must wait, not run ahead
                XCTAssertLessThanOrEqual(produced.current, value + capacity + 1, "capacity \(capacity)")
                received.append(value)
            }
            XCTAssertEqual(received, Array(1...50))
            XCTAssertNil(try queue.next(), "stays finished")
        }
    }

    func testAProducerErrorArrivesAfterTheValuesBeforeIt() {
        struct Broken: Error {}
        for capacity in [0, 2] {
            let produced = Counter()
            let queue = DecodeAheadQueue<Int>(capacity: capacity) {
                let n = produced.increment()
                if n == 4 { throw Broken() }
                return n
            }
            var received: [Int] = []
            XCTAssertThrowsError(try { while let v = try queue.next() { received.append(v) } }()) {
                XCTAssertTrue($0 is Broken)
            }
            XCTAssertEqual(received, [1, 2, 3])
        }
    }

    func testCancelStopsTheProducer() throws {
        let produced = Counter()
        let queue = DecodeAheadQueue<Int>(capacity: 2) { produced.increment() }
        XCTAssertEqual(try queue.next(), 1)
        queue.cancel()
        Thread.sleep(forTimeInterval: 0.05)
        let after = produced.current
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertEqual(produced.current, after, "no values produced after cancel")
        XCTAssertLessThanOrEqual(after, 5)
    }
}
