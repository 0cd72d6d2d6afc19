import Foundation
@testable import TFLiteInterpreter
import XCTest

final class SpinningConditionTests: XCTestCase {
    /// Mutual exclusion: threads that increment a shared counter under the lock, with a
    /// non-atomic read-modify-write, lose no increment, while the lock is contended often
    /// enough that some `lock()` calls spin and some may block.
    func testLockExcludes() {
        let condition = SpinningCondition()
        let threads = 4, increments = 20_000
        let counter = LockedValue(0)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<increments {
                condition.lock()
                let seen = counter.value
                if seen % 64 == 0 { SpinningCondition.pause() }  // hold the lock a while, sometimes
                counter.value = seen + 1
                condition.unlock()
            }
        }
        XCTAssertEqual(counter.value, threads * increments)
    }

    /// `wait` releases the lock and returns after a `broadcast` with the lock held again: a
    /// thread waiting for a flag sees it set by another thread, and both finish.
    func testWaitReturnsAfterBroadcast() {
        let condition = SpinningCondition()
        let flag = LockedValue(false)
        let woke = expectation(description: "waiter saw the flag")
        let waiter = Thread {
            condition.lock()
            while !flag.value { condition.wait() }
            condition.unlock()
            woke.fulfill()
        }
        waiter.start()
        Thread.sleep(forTimeInterval: 0.01)
        condition.lock()
        flag.value = true
        condition.broadcast()
        condition.unlock()
        wait(for: [woke], timeout: 10)
    }
}

/// A value the tests read and write only with a ``SpinningCondition`` held.
private final class LockedValue<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
