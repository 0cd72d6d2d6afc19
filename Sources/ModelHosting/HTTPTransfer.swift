import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP request whose body is streamed to a sink as it arrives, driven by a `URLSession`
/// data task and its delegate (the delegate path works the same on Apple platforms and on
/// Linux' FoundationNetworking).
///
/// Adds what `URLSession` alone does not guarantee on every platform: a watchdog that cancels
/// the request when no bytes arrive for `idleTimeout` seconds, when the body arrives slower
/// than the ``Pace``'s minimum rate (a server trickling a byte a second defeats an idle
/// timeout), or when the pace's deadline passes; a redirect policy (same scheme or `https`
/// only, see ``allowsRedirect(from:to:)``), and typed errors.
final class HTTPTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// Called once with the final response head; throwing aborts the transfer with that error.
    typealias ResponseHandler = @Sendable (HTTPURLResponse) throws -> Void
    /// Called with each body chunk in order; throwing aborts the transfer with that error.
    typealias DataHandler = @Sendable (Data) throws -> Void

    /// The slowest acceptable transfer and the latest acceptable end.
    struct Pace: Sendable {
        /// The transfer fails when it is not over by then.
        var deadline: Date
        /// Bytes per second the body must average over each `window`.
        var minimumRate: Double
        /// Seconds per rate measurement (the first one starts with the request).
        var window: TimeInterval

        /// No deadline and no minimum rate.
        static let unlimited = Pace(deadline: .distantFuture, minimumRate: 0, window: 30)
    }

    private let request: URLRequest
    private let sessionConfiguration: URLSessionConfiguration
    private let idleTimeout: TimeInterval
    private let pace: Pace
    private var windowStart = Date()
    private var windowBytes = 0
    private let onResponse: ResponseHandler
    private let onData: DataHandler

    private let lock = NSLock()
    private var failure: ModelHostingError?
    private var response: HTTPURLResponse?
    private var lastActivity = Date()
    private var finished = false
    private var continuation: CheckedContinuation<HTTPURLResponse, Error>?
    private var task: URLSessionDataTask?

    init(request: URLRequest, sessionConfiguration: URLSessionConfiguration, idleTimeout: TimeInterval,
         pace: Pace = .unlimited, onResponse: @escaping ResponseHandler, onData: @escaping DataHandler) {
        self.request = request
        self.sessionConfiguration = sessionConfiguration
        self.idleTimeout = idleTimeout
        self.pace = pace
        self.onResponse = onResponse
        self.onData = onData
    }

    /// Whether a redirect from `source` to `target` is followed: only to the same scheme, or to
    /// `https` (an upgrade); never from `https` to `http` or to any non-HTTP scheme.
    static func allowsRedirect(from source: URL?, to target: URL?) -> Bool {
        guard let targetScheme = target?.scheme?.lowercased(), target?.host != nil else { return false }
        if targetScheme == "https" { return true }
        guard targetScheme == "http", let sourceScheme = source?.scheme?.lowercased() else { return false }
        return sourceScheme == targetScheme
    }

    /// Performs the request; returns the final response after the whole body was delivered.
    ///
    /// - Throws: ``ModelHostingError``: `.timedOut`, `.network`, `.redirectRejected`,
    ///   `.cancelled` (also when the calling task is cancelled), or whatever a handler threw.
    func run() async throws -> HTTPURLResponse {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: sessionConfiguration, delegate: self, delegateQueue: queue)
        defer { session.finishTasksAndInvalidate() }
        let watchdog = Task { [weak self] in
            let shortest = min(self?.idleTimeout ?? 1, self?.pace.window ?? 1)
            let interval = max(0.02, min(0.25, shortest / 8))
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: UInt64(interval * 1e9))
                guard let self else { return }
                if self.checkIdle() { return }
            }
        }
        defer { watchdog.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPURLResponse, Error>) in
                let task = session.dataTask(with: request)
                lock.lock()
                self.continuation = continuation
                self.task = task
                self.lastActivity = Date()
                self.windowStart = self.lastActivity
                self.windowBytes = 0
                let cancelledAlready = failure != nil
                lock.unlock()
                task.resume()
                // Cancelled before the task existed: stop it now rather than after the transfer.
                if cancelledAlready { task.cancel() }
            }
        } onCancel: {
            self.abort(with: .cancelled)
        }
    }

    /// Returns true when the transfer is over; cancels it when idle for too long, slower than
    /// the pace's minimum rate over a whole window, or past the deadline.
    private func checkIdle() -> Bool {
        let now = Date()
        lock.lock()
        let done = finished
        let idle = now.timeIntervalSince(lastActivity)
        let windowElapsed = now.timeIntervalSince(windowStart), bytes = windowBytes
        if windowElapsed >= pace.window { windowStart = now; windowBytes = 0 }
        lock.unlock()
        if done { return true }
        let url = request.url?.absoluteString ?? "?"
        if idle > idleTimeout {
            abort(with: .timedOut("no data for \(idleTimeout) s from \(url)"))
            return true
        }
        if now >= pace.deadline {
            abort(with: .timedOut("the download did not finish by its deadline (ResourceLimits.downloadDeadline) while reading \(url)"))
            return true
        }
        if windowElapsed >= pace.window, Double(bytes) < pace.minimumRate * windowElapsed {
            let rate = (Double(bytes) / windowElapsed * 10).rounded() / 10
            abort(with: .timedOut("\(url) sent \(rate) bytes/s over \(Int(windowElapsed.rounded())) s, below the minimum of "
                                  + "\(Int(pace.minimumRate)) bytes/s (ResourceLimits.minimumTransferRate)"))
            return true
        }
        return false
    }

    /// Records `error` (the first one wins) and cancels the data task.
    private func abort(with error: ModelHostingError) {
        record(error)
        lock.lock()
        let task = self.task
        lock.unlock()
        task?.cancel()
    }

    /// Records `error` as the outcome unless one is recorded already.
    private func record(_ error: ModelHostingError) {
        lock.lock()
        if failure == nil { failure = error }
        lock.unlock()
    }

    private func recordedFailure() -> ModelHostingError? {
        lock.lock(); defer { lock.unlock() }
        return failure
    }

    private func touch() {
        lock.lock(); lastActivity = Date(); lock.unlock()
    }

    // MARK: URLSessionDataDelegate

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        touch()
        if HTTPTransfer.allowsRedirect(from: task.currentRequest?.url ?? self.request.url, to: request.url) {
            completionHandler(request)
        } else {
            let from = task.currentRequest?.url?.absoluteString ?? self.request.url?.absoluteString ?? "?"
            // Record only: cancelling inside this callback confuses FoundationNetworking. The
            // 3xx response then arrives as the final response and is cancelled there.
            record(.redirectRejected(from: from, to: request.url?.absoluteString ?? "?"))
            completionHandler(nil)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        touch()
        if recordedFailure() != nil {
            completionHandler(.cancel)
            return
        }
        guard let http = response as? HTTPURLResponse else {
            abort(with: .network("not an HTTP response"))
            completionHandler(.cancel)
            return
        }
        do {
            try onResponse(http)
            lock.lock(); self.response = http; lock.unlock()
            completionHandler(.allow)
        } catch {
            abort(with: HTTPTransfer.hostingError(error))
            completionHandler(.cancel)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock(); lastActivity = Date(); windowBytes += data.count; lock.unlock()
        if recordedFailure() != nil { return }
        do {
            try onData(data)
        } catch {
            abort(with: HTTPTransfer.hostingError(error))
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.lock()
        finished = true
        let continuation = self.continuation
        self.continuation = nil
        let failure = self.failure
        let response = self.response
        lock.unlock()
        guard let continuation else { return }
        if let failure {
            continuation.resume(throwing: failure)
        } else if let error {
            continuation.resume(throwing: HTTPTransfer.hostingError(error))
        } else if let response {
            continuation.resume(returning: response)
        } else {
            continuation.resume(throwing: ModelHostingError.network("no response from \(request.url?.absoluteString ?? "?")"))
        }
    }

    /// Maps any error to a ``ModelHostingError``.
    static func hostingError(_ error: Error) -> ModelHostingError {
        if let hosting = error as? ModelHostingError { return hosting }
        if error is CancellationError { return .cancelled }
        if let urlError = error as? URLError {
            switch urlError.code {
            case .timedOut: return .timedOut(urlError.localizedDescription)
            case .cancelled: return .cancelled
            default: return .network("\(urlError.code.rawValue): \(urlError.localizedDescription)")
            }
        }
        return .network(String(describing: error))
    }
}
