import Foundation

/// Detects use of a single-threaded object from two threads at once: `run` takes a lock
/// without waiting and throws ``InterpreterError/concurrentUse`` when it is already held.
final class ExclusiveAccess: @unchecked Sendable {
    private let lock = NSLock()

    /// Runs `body` while holding the lock, or throws when another thread holds it.
    func run<R>(_ body: () throws -> R) throws -> R {
        guard lock.try() else { throw InterpreterError.concurrentUse }
        defer { lock.unlock() }
        return try body()
    }
}
