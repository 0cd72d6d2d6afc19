#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// A mutex with a condition variable, for ``ThreadPool``, whose `lock()` spins on a try-lock
/// before it blocks.
///
/// The pool's critical sections are a few loads and stores, but its threads take the lock
/// every few hundred nanoseconds while they poll for work or for the end of a job. With a
/// mutex that blocks at once (as `NSCondition`'s does), a thread that finds the lock taken
/// sleeps in the kernel, and its wake-up costs tens of microseconds on a virtual machine:
/// the caller then waited for the worker 0.9 ms per invoke of yolov8n_int8_640 at 2 threads
/// (135 jobs, a tail of 30–130 µs waits; Intel Xeon VM, 2 vCPUs). A holder here keeps the lock
/// for well under a microsecond, so spinning for it is cheaper than sleeping; past
/// ``spinLimit`` attempts (the holder was preempted) `lock()` blocks.
///
/// Contract: as a pthread mutex and condition (`wait` with the lock held; no recursion).
final class SpinningCondition: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    /// Try-lock attempts, each after a short pause (``pause()``, a few tenths of a microsecond),
    /// before `lock()` blocks: some tens of microseconds, far beyond any critical section of the
    /// pool, short enough not to burn a core for long when the holder was preempted.
    static let spinLimit = 128

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Takes the lock: tries up to ``spinLimit`` times without sleeping, then blocks.
    @inline(__always)
    func lock() {
        if pthread_mutex_trylock(mutex) == 0 { return }
        for _ in 0..<Self.spinLimit {
            Self.pause()
            if pthread_mutex_trylock(mutex) == 0 { return }
        }
        pthread_mutex_lock(mutex)
    }

    /// Releases the lock.
    @inline(__always)
    func unlock() { pthread_mutex_unlock(mutex) }

    /// Releases the lock, sleeps until a `broadcast`, and takes the lock again (spurious
    /// wake-ups possible: callers re-check their condition in a loop).
    /// - Precondition: the caller holds the lock.
    func wait() { pthread_cond_wait(condition, mutex) }

    /// Wakes every thread blocked in `wait`.
    func broadcast() { pthread_cond_broadcast(condition) }

    /// A short pause between polls of shared state (a few clock reads, which the optimizer
    /// cannot remove; Swift has no portable spin-wait hint).
    @inline(__always)
    static func pause() {
        for _ in 0..<8 { _ = DispatchTime.now() }
    }
}
