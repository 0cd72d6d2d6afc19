import Foundation
import TFLiteSchema
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Downloads hosted models, keeps them in a cache directory and tells which file to load,
/// mirroring the SDK's `ModelManager`.
///
/// - ``download(_:conditions:)`` starts (or joins) a download and returns a ``ModelDownload``
///   to observe. Downloads belong to the manager and run to the end even if every caller is gone.
/// - A new version replaces the installed one only after it was fully downloaded, its size and
///   SHA-256 match the manifest and the ``Configuration/validator`` accepted it; it is then
///   fsynced and atomically renamed into place. Until then, and whenever anything fails, the
///   previous version keeps serving.
/// - Outcomes are posted as ``Foundation/Notification/Name/modelDownloadDidSucceed`` /
///   ``Foundation/Notification/Name/modelDownloadDidFail`` and yielded by ``events()``.
///
/// Several managers (in one process or several, e.g. an app and `litevision models`) may share
/// a cache directory: a per-model advisory lock (`flock` on `{cache}/{name}/.lock`) serializes
/// their downloads, installs and deletes of the same model, and the start-up cleanup of files an
/// interrupted install left behind skips models another manager is working on. A second manager
/// asking for a model the first one is downloading waits for it and then finds it current.
public final class ModelManager: @unchecked Sendable {
    /// How a manager stores and fetches models.
    public struct Configuration: Sendable {
        /// Root of the model cache (created on demand).
        public var cacheDirectory: URL
        /// A request fails with ``ModelHostingError/timedOut(_:)`` when no bytes arrive for this long (seconds).
        public var idleTimeout: TimeInterval
        /// Upper bound for one HTTP request, start to end (seconds).
        public var resourceTimeout: TimeInterval
        /// The whole download (manifest, model file, retries) must end within
        /// ``TFLiteSchema/ResourceLimits/downloadDeadline`` seconds and its bodies arrive at
        /// ``TFLiteSchema/ResourceLimits/minimumTransferRate`` or faster. The validator checks
        /// the model under the limits it was made with (``ModelValidator/standard(limits:)``;
        /// ``ModelValidator/standard`` uses the defaults).
        public var resourceLimits: ResourceLimits
        /// Attempts per request for transport failures (dropped connections, timeouts); each
        /// retry resumes the partial file. At least 1.
        public var maximumAttempts: Int
        /// Pause before a retry (seconds).
        public var retryDelay: TimeInterval
        /// Accepts or rejects a downloaded file before install.
        public var validator: ModelValidator
        /// Makes the base `URLSessionConfiguration` for each request (proxies, extra headers,
        /// TLS settings); the manager then sets timeouts, disables `URLCache` and applies the
        /// ``ModelDownloadConditions``.
        public var makeSessionConfiguration: @Sendable () -> URLSessionConfiguration

        /// A configuration; every parameter has a default.
        public init(cacheDirectory: URL = Configuration.defaultCacheDirectory,
                    idleTimeout: TimeInterval = 30,
                    resourceTimeout: TimeInterval = 3600,
                    maximumAttempts: Int = 3,
                    retryDelay: TimeInterval = 0.5,
                    validator: ModelValidator = .standard,
                    makeSessionConfiguration: @escaping @Sendable () -> URLSessionConfiguration = { .ephemeral },
                    resourceLimits: ResourceLimits = .default) {
            self.cacheDirectory = cacheDirectory
            self.idleTimeout = idleTimeout
            self.resourceTimeout = resourceTimeout
            self.resourceLimits = resourceLimits
            self.maximumAttempts = max(1, maximumAttempts)
            self.retryDelay = max(0, retryDelay)
            self.validator = validator
            self.makeSessionConfiguration = makeSessionConfiguration
        }

        /// `<user caches>/LiteVision/Models` (`~/Library/Caches/...` on Apple platforms,
        /// `$XDG_CACHE_HOME` or `~/.cache/...` on Linux).
        public static var defaultCacheDirectory: URL {
            let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
                ?? FileManager.default.temporaryDirectory
            return caches.appendingPathComponent("LiteVision", isDirectory: true)
                .appendingPathComponent("Models", isDirectory: true)
        }
    }

    /// The process-wide manager with the default configuration.
    public static let shared = ModelManager()

    /// This manager's configuration.
    public let configuration: Configuration
    /// Where notifications are posted.
    public let notificationCenter: NotificationCenter

    private let cache: ModelCache
    private let lock = NSLock()
    private var running: [String: ModelDownload] = [:]
    private var eventObservers: [UUID: AsyncStream<ModelDownloadEvent>.Continuation] = [:]

    /// A manager; removes stale temporary files in the cache directory right away.
    public init(configuration: Configuration = Configuration(), notificationCenter: NotificationCenter = .default) {
        self.configuration = configuration
        self.notificationCenter = notificationCenter
        self.cache = ModelCache(root: configuration.cacheDirectory)
        cache.removeStaleFiles()
    }

    /// Starts downloading `model`, or returns the download already running for it (the
    /// `conditions` of the first call apply then).
    ///
    /// The manager fetches the manifest (conditionally, so an unchanged model costs one 304),
    /// skips the transfer when the installed version is current, resumes a partial file when it
    /// can, verifies and installs. Observe the returned object; the outcome is also posted.
    @discardableResult
    public func download(_ model: RemoteModel, conditions: ModelDownloadConditions = ModelDownloadConditions()) -> ModelDownload {
        lock.lock()
        if let existing = running[model.name] {
            lock.unlock()
            return existing
        }
        let download = ModelDownload(model: model)
        running[model.name] = download
        lock.unlock()

        let operation = ModelDownloadOperation(
            model: model, conditions: conditions, configuration: configuration, cache: cache,
            reportProgress: { [weak download] completed, total in
                download?.update(completedBytes: completed, totalBytes: total)
            })
        // The task holds the manager and the download: neither depends on the caller.
        let task = Task.detached { [self] in
            let result: Result<String, ModelHostingError>
            do {
                result = .success(try await operation.run())
            } catch {
                result = .failure(HTTPTransfer.hostingError(error))
            }
            self.complete(download, with: result)
        }
        download.setCancelHandler { task.cancel() }
        return download
    }

    /// Whether a verified version of `model` is installed.
    public func isModelDownloaded(_ model: RemoteModel) -> Bool {
        latestModelFilePath(model) != nil
    }

    /// The installed version's file path, or nil when none is installed.
    public func latestModelFilePath(_ model: RemoteModel) -> String? {
        guard let record = cache.record(model.name) else { return nil }
        return cache.filePath(of: record)
    }

    /// What is installed for `model`: version, size, checksum, host.
    public func downloadedModelInfo(_ model: RemoteModel) -> DownloadedModelRecord? {
        cache.record(model.name)
    }

    /// Every installed model in the cache directory, by name.
    public func downloadedModels() -> [DownloadedModelRecord] {
        cache.allRecords()
    }

    /// The selection helper: the hosted model's file if it has been downloaded, else the bundled one.
    public func modelFilePath(remote: RemoteModel, fallback: LocalModel) -> String {
        latestModelFilePath(remote) ?? fallback.path
    }

    /// The SDK's pattern as one call: `.remote(remote)` if it has been downloaded, else
    /// `.local(local)` — decided now. (``ModelSource/remote(_:fallback:)`` instead decides each
    /// time the model is loaded.)
    public func preferredModel(remote: RemoteModel, local: LocalModel) -> ModelSource {
        isModelDownloaded(remote) ? .remote(remote) : .local(local)
    }

    /// Deletes the installed version of `model` (and any partial download). A running
    /// download of it is cancelled first.
    ///
    /// - Throws: ``ModelHostingError/fileSystem(_:)``, ``ModelHostingError/invalidModelName(_:)``.
    public func deleteDownloadedModel(_ model: RemoteModel) async throws {
        try await deleteDownloadedModel(named: model.name)
    }

    /// Deletes the installed version of the model called `name`, whatever host it came from
    /// (the cache is keyed by name). A running download of it is cancelled first.
    ///
    /// - Throws: ``ModelHostingError/fileSystem(_:)``, ``ModelHostingError/invalidModelName(_:)``.
    public func deleteDownloadedModel(named name: String) async throws {
        guard RemoteModel.isValidName(name) else { throw ModelHostingError.invalidModelName(name) }
        let active = lock.withLock { running[name] }
        if let active {
            active.cancel()
            _ = try? await active.result()
        }
        guard FileManager.default.fileExists(atPath: cache.modelDirectory(name).path) else { return }
        let directoryLock = try await ModelDirectoryLock.acquire(directory: cache.modelDirectory(name),
                                                                 timeout: configuration.resourceTimeout)
        defer { directoryLock.release() }
        try cache.delete(name)
    }

    /// Download outcomes of this manager from now on. Each call returns an independent stream;
    /// it ends when the consuming task is cancelled.
    public func events() -> AsyncStream<ModelDownloadEvent> {
        AsyncStream(bufferingPolicy: .bufferingNewest(64)) { continuation in
            let id = UUID()
            lock.lock()
            eventObservers[id] = continuation
            lock.unlock()
            continuation.onTermination = { [weak self] _ in
                guard let self else { return }
                self.lock.lock()
                self.eventObservers[id] = nil
                self.lock.unlock()
            }
        }
    }

    private func complete(_ download: ModelDownload, with result: Result<String, ModelHostingError>) {
        lock.lock()
        if running[download.model.name] === download { running[download.model.name] = nil }
        let observers = Array(eventObservers.values)
        lock.unlock()

        let event: ModelDownloadEvent
        switch result {
        case let .success(path):
            event = .succeeded(model: download.model, path: path)
            notificationCenter.post(name: .modelDownloadDidSucceed, object: self, userInfo: [
                ModelDownloadUserInfoKey.remoteModel.rawValue: download.model,
                ModelDownloadUserInfoKey.modelFilePath.rawValue: path,
            ])
        case let .failure(error):
            event = .failed(model: download.model, error: error)
            notificationCenter.post(name: .modelDownloadDidFail, object: self, userInfo: [
                ModelDownloadUserInfoKey.remoteModel.rawValue: download.model,
                ModelDownloadUserInfoKey.error.rawValue: error,
            ])
        }
        for observer in observers { observer.yield(event) }
        download.finish(result)
    }
}
