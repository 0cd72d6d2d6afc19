import Foundation
@testable import TFLiteInterpreter
import XCTest

final class ThreadPoolTests: XCTestCase {
    /// Every index is visited exactly once, for many counts and chunk sizes.
    func testParallelForCoversRangeExactlyOnce() {
        let pool = ThreadPool(threadCount: 4)
        for count in [0, 1, 2, 3, 5, 7, 64, 1000] {
            for minChunk in [1, 3, 100] {
                let visits = UnsafeMutableBufferPointer<Int>.allocate(capacity: max(1, count))
                visits.initialize(repeating: 0)
                defer { visits.deallocate() }
                pool.parallelFor(count, minChunk: minChunk) { range in
                    for i in range { visits[i] += 1 }
                }
                XCTAssertTrue(visits.prefix(count).allSatisfy { $0 == 1 }, "count \(count) minChunk \(minChunk)")
            }
        }
    }

    /// Chunks are contiguous, at most `chunksPerThread · threadCount` of them, each at least
    /// `minChunk` long; a one-thread pool runs the whole range as one chunk.
    func testChunking() {
        let pool = ThreadPool(threadCount: 3)
        let lock = NSLock()
        var ranges: [Range<Int>] = []
        pool.parallelFor(10, minChunk: 2) { range in lock.lock(); ranges.append(range); lock.unlock() }
        ranges.sort { $0.lowerBound < $1.lowerBound }
        XCTAssertEqual(ranges.count, 5)
        XCTAssertEqual(ranges.first?.lowerBound, 0)
        XCTAssertEqual(ranges.last?.upperBound, 10)
        for (a, b) in zip(ranges, ranges.dropFirst()) { XCTAssertEqual(a.upperBound, b.lowerBound) }
        XCTAssertTrue(ranges.allSatisfy { $0.count >= 2 })
        ranges.removeAll()
        pool.parallelFor(5, minChunk: 4) { range in lock.lock(); ranges.append(range); lock.unlock() }
        XCTAssertEqual(ranges, [0..<5])
        ranges.removeAll()
        pool.parallelFor(1000) { range in lock.lock(); ranges.append(range); lock.unlock() }
        XCTAssertEqual(ranges.count, 3 * ThreadPool.chunksPerThread)
        XCTAssertEqual(ranges.map(\.count).reduce(0, +), 1000)
        ranges.removeAll()
        ThreadPool(threadCount: 1).parallelFor(1000) { range in lock.lock(); ranges.append(range); lock.unlock() }
        XCTAssertEqual(ranges, [0..<1000])
    }

    /// Work really runs on more than one thread, and the pool is reused across calls.
    func testUsesWorkerThreadsRepeatedly() {
        let pool = ThreadPool(threadCount: 2)
        let lock = NSLock()
        var threads = Set<String>()
        for _ in 0..<200 {
            pool.parallelFor(2) { _ in
                let id = "\(pthread_self())"
                // Keep both chunks busy long enough that one worker picks one up.
                var x = 0.0
                for i in 0..<20_000 { x += Double(i).squareRoot() }
                lock.lock(); threads.insert(id); lock.unlock()
                XCTAssertGreaterThan(x, 0)
            }
        }
        XCTAssertEqual(threads.count, 2)
    }

    /// A nested parallelFor runs serially instead of deadlocking.
    func testNestedCallsDoNotDeadlock() {
        let pool = ThreadPool(threadCount: 2)
        let lock = NSLock()
        var total = 0
        pool.parallelFor(4) { outer in
            pool.parallelFor(10) { inner in lock.lock(); total += outer.count * inner.count; lock.unlock() }
        }
        XCTAssertEqual(total, 40)
    }

    /// Pools go away cleanly (workers exit) when released.
    func testManyPoolsCreatedAndReleased() {
        for _ in 0..<20 {
            let pool = ThreadPool(threadCount: 3)
            var sum = 0
            let lock = NSLock()
            pool.parallelFor(30) { r in lock.lock(); sum += r.count; lock.unlock() }
            XCTAssertEqual(sum, 30)
        }
    }
}
