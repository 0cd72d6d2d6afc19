import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An advisory lock (`flock`) on `{cache}/{name}/.lock`, held while a model is downloaded,
/// installed, cleaned or deleted, so two managers (in one process or in two, e.g. an app and
/// `litevision models`) never write the same model's files at once.
final class ModelDirectoryLock: @unchecked Sendable {
    private var descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { release() }

    /// Takes the lock without waiting; nil when another holder has it.
    static func tryAcquire(directory: URL) throws -> ModelDirectoryLock? {
        let path = directory.appendingPathComponent(".lock").path
        let descriptor = open(path, O_RDWR | O_CREAT, 0o644)
        guard descriptor >= 0 else {
            throw ModelHostingError.fileSystem("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
            return ModelDirectoryLock(descriptor: descriptor)
        }
        let reason = errno
        _ = close(descriptor)
        if reason == EWOULDBLOCK || reason == EINTR { return nil }
        throw ModelHostingError.fileSystem("cannot lock \(path): \(String(cString: strerror(reason)))")
    }

    /// Takes the lock, polling every 50 ms for at most `timeout` seconds.
    ///
    /// - Throws: ``ModelHostingError/timedOut(_:)`` when another holder keeps it longer,
    ///   ``ModelHostingError/cancelled`` when the task is cancelled.
    static func acquire(directory: URL, timeout: TimeInterval) async throws -> ModelDirectoryLock {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let lock = try tryAcquire(directory: directory) { return lock }
            if Date() >= deadline {
                throw ModelHostingError.timedOut("another download of \(directory.lastPathComponent) holds its cache lock")
            }
            do { try await Task.sleep(nanoseconds: 50_000_000) } catch { throw ModelHostingError.cancelled }
        }
    }

    /// Releases the lock (also done on deinit).
    func release() {
        guard descriptor >= 0 else { return }
        _ = flock(descriptor, LOCK_UN)
        _ = close(descriptor)
        descriptor = -1
    }
}
