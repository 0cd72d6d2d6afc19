import Foundation

/// A running (or finished) download of one ``RemoteModel``, returned by
/// ``ModelManager/download(_:conditions:)``. Observe it through ``progress`` (Foundation
/// `Progress`, KVO-observable on Apple platforms), ``fractionCompleted``, or the
/// ``progressUpdates()`` async sequence; wait for the outcome with ``result()``.
///
/// The download is owned by its ``ModelManager``, not by this object or its caller: dropping
/// every reference to it does not stop it.
public final class ModelDownload: @unchecked Sendable {
    /// The model being downloaded.
    public let model: RemoteModel
    /// Foundation progress in bytes (`totalUnitCount` is the manifest's size once known).
    public let progress: Progress

    private let lock = NSLock()
    private var snapshot = ModelDownloadProgress(completedBytes: 0, totalBytes: 0)
    private var outcome: Result<String, ModelHostingError>?
    private var progressObservers: [UUID: AsyncStream<ModelDownloadProgress>.Continuation] = [:]
    private var resultWaiters: [CheckedContinuation<String, Error>] = []
    private var cancelHandler: (@Sendable () -> Void)?

    init(model: RemoteModel) {
        self.model = model
        self.progress = Progress(totalUnitCount: -1)
    }

    /// Fraction of the model file downloaded, 0...1.
    public var fractionCompleted: Double {
        lock.lock(); defer { lock.unlock() }
        return snapshot.fractionCompleted
    }

    /// The latest progress snapshot.
    public var currentProgress: ModelDownloadProgress {
        lock.lock(); defer { lock.unlock() }
        return snapshot
    }

    /// Whether the download has finished (successfully or not).
    public var isFinished: Bool {
        lock.lock(); defer { lock.unlock() }
        return outcome != nil
    }

    /// Progress snapshots: the current one immediately, then each change; the sequence ends
    /// when the download finishes.
    public func progressUpdates() -> AsyncStream<ModelDownloadProgress> {
        AsyncStream { continuation in
            let id = UUID()
            lock.lock()
            continuation.yield(snapshot)
            if outcome != nil {
                lock.unlock()
                continuation.finish()
                return
            }
            progressObservers[id] = continuation
            lock.unlock()
            continuation.onTermination = { [weak self] _ in
                guard let self else { return }
                self.lock.lock()
                self.progressObservers[id] = nil
                self.lock.unlock()
            }
        }
    }

    /// Waits for the download to finish; returns the installed model file's path.
    ///
    /// Cancelling the waiting task stops the wait, not the download.
    /// - Throws: the ``ModelHostingError`` the download failed with.
    public func result() async throws -> String {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, Error>) in
            lock.lock()
            if let outcome {
                lock.unlock()
                continuation.resume(with: outcome.mapError { $0 as Error })
                return
            }
            resultWaiters.append(continuation)
            lock.unlock()
        }
    }

    /// Stops the download; it then fails with ``ModelHostingError/cancelled``. A partial file is
    /// kept for a later resume; the installed version is untouched.
    public func cancel() {
        lock.lock()
        let handler = cancelHandler
        lock.unlock()
        handler?()
    }

    // MARK: Driven by the manager

    func setCancelHandler(_ handler: @escaping @Sendable () -> Void) {
        lock.lock(); cancelHandler = handler; lock.unlock()
    }

    func update(completedBytes: Int64, totalBytes: Int64) {
        lock.lock()
        guard outcome == nil else { lock.unlock(); return }
        snapshot = ModelDownloadProgress(completedBytes: completedBytes, totalBytes: totalBytes)
        let current = snapshot
        let observers = Array(progressObservers.values)
        lock.unlock()
        if progress.totalUnitCount != totalBytes { progress.totalUnitCount = totalBytes }
        progress.completedUnitCount = completedBytes
        for observer in observers { observer.yield(current) }
    }

    func finish(_ result: Result<String, ModelHostingError>) {
        lock.lock()
        guard outcome == nil else { lock.unlock(); return }
        outcome = result
        if case .success = result, snapshot.totalBytes > 0 {
            snapshot.completedBytes = snapshot.totalBytes
        }
        let current = snapshot
        let observers = Array(progressObservers.values)
        progressObservers.removeAll()
        let waiters = resultWaiters
        resultWaiters.removeAll()
        cancelHandler = nil
        lock.unlock()
        if case .success = result, current.totalBytes > 0 {
            progress.totalUnitCount = current.totalBytes
            progress.completedUnitCount = current.totalBytes
        }
        for observer in observers {
            observer.yield(current)
            observer.finish()
        }
        for waiter in waiters { waiter.resume(with: result.mapError { $0 as Error }) }
    }
}
