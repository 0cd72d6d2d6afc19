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

    /// Records which worker indices bodies hold: a body entering with an index out of range,
    /// or one another running body holds, is a violation.
    private final class IndexLedger: @unchecked Sendable {
        let lock = NSLock()
        let workerCount: Int
        private var holders: [Int]
        private(set) var violations: [String] = []
        private(set) var seen = Set<Int>()
        /// Calls made per outside caller.
        private(set) var callers: [Int: Int] = [:]
        func recordCalls(_ n: Int, by caller: Int) { lock.lock(); callers[caller] = n; lock.unlock() }
        /// Distinct indices seen so far.
        var seenCount: Int { lock.lock(); defer { lock.unlock() }; return seen.count }

        init(workerCount: Int) { self.workerCount = workerCount; holders = Array(repeating: 0, count: workerCount) }

        /// Runs `work` as `worker`, recording the index as held meanwhile.
        func hold(_ worker: Int, _ work: () -> Void) {
            lock.lock()
            guard (0..<workerCount).contains(worker) else {
                violations.append("index \(worker) out of 0..<\(workerCount)"); lock.unlock(); return
            }
            holders[worker] += 1
            if holders[worker] > 1 { violations.append("index \(worker) held by \(holders[worker]) running bodies") }
            seen.insert(worker)
            lock.unlock()
            work()
            lock.lock(); holders[worker] -= 1; lock.unlock()
        }
    }

    /// Busy work long enough that the chunks of a job overlap in time.
    private static func spin(_ n: Int = 2_000) -> Double {
        var x = 0.0
        for i in 0..<n { x += Double(i).squareRoot() }
        return x
    }

    /// Worker indices are in `0..<threadCount`, no two bodies running at once share one, and
    /// the workers really run with indices of their own (more than one index is seen; on a busy
    /// machine the caller may take every chunk of a call, so calls repeat until a worker ran one).
    func testWorkerIndicesAreInRangeAndNeverShared() {
        for threadCount in [1, 2, 4] {
            let pool = ThreadPool(threadCount: threadCount)
            let ledger = IndexLedger(workerCount: threadCount)
            for count in [1, 2, 7, 64, 1000] {
                for _ in 0..<50 {
                    pool.parallelFor(count) { range, worker in
                        ledger.hold(worker) { XCTAssertGreaterThan(Self.spin(1_000 + range.count * 20), -1) }
                    }
                }
            }
            let deadline = Date().addingTimeInterval(10)
            while threadCount > 1, ledger.seenCount < 2, Date() < deadline {
                pool.parallelFor(threadCount) { _, worker in ledger.hold(worker) { _ = Self.spin(20_000) } }
            }
            XCTAssertEqual(ledger.violations, [], "\(threadCount) threads")
            if threadCount > 1 { XCTAssertGreaterThan(ledger.seen.count, 1, "\(threadCount) threads: only index \(ledger.seen)") }
            else { XCTAssertEqual(ledger.seen, [0]) }
        }
    }

    /// A call nested in a body runs serially with that body's index, whichever thread runs it.
    func testNestedCallsRunAsTheEnclosingWorker() {
        let pool = ThreadPool(threadCount: 3)
        let lock = NSLock()
        var mismatches: [String] = [], outerIndices = Set<Int>()
        let deadline = Date().addingTimeInterval(10)
        var rounds = 0
        while rounds < 100 || (outerIndices.count < 2 && Date() < deadline) {
            rounds += 1
            pool.parallelFor(12) { _, outer in
                lock.lock(); outerIndices.insert(outer); lock.unlock()
                pool.parallelFor(40) { _, inner in
                    if inner != outer { lock.lock(); mismatches.append("inner \(inner) in outer \(outer)"); lock.unlock() }
                }
                XCTAssertGreaterThan(Self.spin(), 0)
            }
        }
        XCTAssertEqual(mismatches, [])
        XCTAssertGreaterThan(outerIndices.count, 1, "the workers took no chunks")
    }

    /// Two outside threads issuing indexed calls on one pool at once (for 0.3 s each, started
    /// together): the one that finds the pool busy waits, rather than running serially as
    /// worker 0 beside the other's worker 0.
    func testConcurrentOutsideCallersNeverShareAnIndex() {
        let pool = ThreadPool(threadCount: 2)
        let ledger = IndexLedger(workerCount: 2)
        let group = DispatchGroup(), start = DispatchSemaphore(value: 0)
        for caller in 0..<2 {
            group.enter()
            let thread = Thread {
                start.wait()
                let deadline = Date().addingTimeInterval(0.3)
                var n = 0
                while Date() < deadline {
                    pool.parallelFor(n % 3 + 1) { _, worker in ledger.hold(worker) { _ = Self.spin(5_000) } }
                    n += 1
                }
                ledger.recordCalls(n, by: caller)
                group.leave()
            }
            thread.start()
        }
        start.signal(); start.signal()
        group.wait()
        XCTAssertEqual(ledger.violations, [])
        XCTAssertEqual(ledger.callers.count, 2)
        XCTAssertTrue(ledger.callers.values.allSatisfy { $0 > 0 }, "\(ledger.callers)")
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
