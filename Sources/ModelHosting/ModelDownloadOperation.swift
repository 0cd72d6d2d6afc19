import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One download of one model, start to finish: manifest (conditional) → model file (resumable)
/// → size, SHA-256 and model validation → install. Failures before install leave the
/// installed version untouched.
struct ModelDownloadOperation: Sendable {
    let model: RemoteModel
    let conditions: ModelDownloadConditions
    let configuration: ModelManager.Configuration
    let cache: ModelCache
    /// Receives (completed bytes, total bytes).
    let reportProgress: @Sendable (Int64, Int64) -> Void
    /// When the operation started: the download deadline counts from here.
    let started = Date()

    /// The deadline and minimum rate every request of this download runs under.
    private var pace: HTTPTransfer.Pace {
        let limits = configuration.resourceLimits
        return HTTPTransfer.Pace(deadline: started.addingTimeInterval(limits.downloadDeadline),
                                 minimumRate: limits.minimumTransferRate, window: limits.transferRateWindow)
    }

    /// Runs the download; returns the installed (or already current) model file's path.
    func run() async throws -> String {
        guard RemoteModel.isValidName(model.name) else { throw ModelHostingError.invalidModelName(model.name) }
        guard let scheme = model.host.scheme?.lowercased(), scheme == "http" || scheme == "https",
              model.host.host != nil
        else { throw ModelHostingError.invalidURL(model.host.absoluteString) }
        try cache.prepareDirectory(model.name)
        let directoryLock = try await ModelDirectoryLock.acquire(directory: cache.modelDirectory(model.name),
                                                                 timeout: configuration.resourceTimeout)
        defer { directoryLock.release() }

        let installed = cache.record(model.name)
        let (manifest, manifestETag) = try await fetchManifest(installed: installed)
        guard let manifest else {
            // 304: the installed version is current.
            guard let installed else { throw ModelHostingError.httpStatus(code: 304, url: model.manifestURL.absoluteString) }
            reportProgress(Int64(installed.size), Int64(installed.size))
            return cache.filePath(of: installed)
        }
        if var installed, installed.sha256 == manifest.sha256, installed.version == manifest.version {
            // Same model, new manifest validator: remember it, nothing to download.
            if installed.manifestETag != manifestETag {
                installed.manifestETag = manifestETag
                try cache.writeRecord(installed)
            }
            reportProgress(Int64(installed.size), Int64(installed.size))
            return cache.filePath(of: installed)
        }

        let fileURL = try manifest.resolvedURL(host: model.host)
        cache.removePartials(of: model.name, except: manifest.sha256)
        let partial = cache.partialURL(model.name, sha256: manifest.sha256)
        try await fetchModelFile(from: fileURL, manifest: manifest, to: partial)
        try verify(partial.path, manifest: manifest)
        let path = try cache.install(verifiedPath: partial.path, manifest: manifest, host: model.host,
                                     manifestETag: manifestETag)
        try? FileManager.default.removeItem(at: cache.partialInfoURL(model.name, sha256: manifest.sha256))
        return path
    }

    // MARK: Manifest

    /// GETs the manifest, conditionally when a version is installed. Returns nil on 304.
    private func fetchManifest(installed: DownloadedModelRecord?) async throws -> (ModelManifest?, String?) {
        var request = URLRequest(url: model.manifestURL)
        request.httpMethod = "GET"
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        if let etag = installed?.manifestETag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        let url = model.manifestURL.absoluteString
        let body = LockedBuffer()
        let response = try await withRetries {
            body.reset()
            let transfer = HTTPTransfer(
                request: request, sessionConfiguration: makeSessionConfiguration(),
                idleTimeout: configuration.idleTimeout, pace: pace,
                onResponse: { response in
                    guard response.statusCode == 200 || (response.statusCode == 304 && installed != nil) else {
                        throw ModelHostingError.httpStatus(code: response.statusCode, url: url)
                    }
                },
                onData: { data in
                    guard body.append(data, limit: ModelManifest.maximumByteCount) else {
                        throw ModelHostingError.invalidManifest("larger than \(ModelManifest.maximumByteCount) bytes")
                    }
                })
            return try await transfer.run()
        }
        if response.statusCode == 304 { return (nil, installed?.manifestETag) }
        let manifest = try ModelManifest.decode(body.data, for: model)
        return (manifest, response.value(forHTTPHeaderField: "ETag"))
    }

    // MARK: Model file

    /// Downloads the model file into `partial`, resuming what is there when the server's
    /// validator allows (Range + If-Range). Retries transport failures up to the configured
    /// number of attempts, resuming each time.
    private func fetchModelFile(from url: URL, manifest: ModelManifest, to partial: URL) async throws {
        let infoURL = cache.partialInfoURL(model.name, sha256: manifest.sha256)
        let expected = Int64(manifest.size)
        var attempt = 0
        while true {
            attempt += 1
            var existing = PartialDownloadInfo.fileSize(partial.path)
            let info = PartialDownloadInfo.load(infoURL.path)
            if existing > expected || (existing > 0 && (info == nil || info?.url != url.absoluteString)) {
                try? FileManager.default.removeItem(at: partial)
                existing = 0
            }
            if existing == expected { return }
            reportProgress(existing, expected)
            do {
                try await fetchOnce(from: url, expected: expected, existing: existing,
                                    validator: existing > 0 ? info?.validator : nil,
                                    partial: partial, infoURL: infoURL)
                let size = PartialDownloadInfo.fileSize(partial.path)
                guard size == expected else {
                    // The server ended the body early yet "successfully": its length was a lie.
                    try? FileManager.default.removeItem(at: partial)
                    throw ModelHostingError.sizeMismatch(expected: manifest.size, actual: Int(size))
                }
                return
            } catch let error as ModelHostingError {
                guard error.isTransient, attempt < configuration.maximumAttempts, Date() < pace.deadline else { throw error }
                try await Task.sleep(nanoseconds: UInt64(configuration.retryDelay * 1e9))
            }
        }
    }

    /// One GET of the model file, appending to `partial` (or restarting it on a 200).
    private func fetchOnce(from url: URL, expected: Int64, existing: Int64, validator: String?,
                           partial: URL, infoURL: URL) async throws {
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        // Byte ranges and sizes refer to the file itself, never to a compressed encoding.
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        if let validator {
            request.setValue("bytes=\(existing)-", forHTTPHeaderField: "Range")
            request.setValue(validator, forHTTPHeaderField: "If-Range")
        }
        let writer = PartialFileWriter(path: partial.path)
        defer { writer.close() }
        let urlText = url.absoluteString
        let report = reportProgress
        let transfer = HTTPTransfer(
            request: request, sessionConfiguration: makeSessionConfiguration(),
            idleTimeout: configuration.idleTimeout, pace: pace,
            onResponse: { response in
                switch response.statusCode {
                case 206 where validator != nil:
                    guard let range = ContentRange(response.value(forHTTPHeaderField: "Content-Range")),
                          range.start == existing, range.total == nil || range.total == expected
                    else {
                        try? FileManager.default.removeItem(at: partial)
                        throw ModelHostingError.network("unexpected Content-Range '\(response.value(forHTTPHeaderField: "Content-Range") ?? "")' for bytes=\(existing)-")
                    }
                    try writer.open(appendingAt: existing)
                case 200:
                    // Full body: a 200 to a range request means the file changed; start over.
                    if response.expectedContentLength >= 0, response.expectedContentLength != expected {
                        throw ModelHostingError.sizeMismatch(expected: Int(expected), actual: Int(response.expectedContentLength))
                    }
                    try writer.open(appendingAt: 0)
                    let validator = response.value(forHTTPHeaderField: "ETag").flatMap { $0.hasPrefix("W/") ? nil : $0 }
                        ?? response.value(forHTTPHeaderField: "Last-Modified")
                    let info = PartialDownloadInfo(url: urlText, validator: validator)
                    try info.save(infoURL.path)
                case 416:
                    try? FileManager.default.removeItem(at: partial)
                    throw ModelHostingError.network("HTTP 416 for bytes=\(existing)-; restarting")
                default:
                    throw ModelHostingError.httpStatus(code: response.statusCode, url: urlText)
                }
                report(writer.size, expected)
            },
            onData: { data in
                guard writer.size + Int64(data.count) <= expected else {
                    throw ModelHostingError.sizeMismatch(expected: Int(expected), actual: Int(writer.size) + data.count)
                }
                try writer.write(data)
                report(writer.size, expected)
            })
        _ = try await transfer.run()
        try writer.finish()
    }

    // MARK: Verification

    /// Size, SHA-256, then the model validator; deletes the partial file on any failure.
    private func verify(_ path: String, manifest: ModelManifest) throws {
        do {
            let size = PartialDownloadInfo.fileSize(path)
            guard size == Int64(manifest.size) else {
                throw ModelHostingError.sizeMismatch(expected: manifest.size, actual: Int(size))
            }
            let digest = try FileDigest.sha256Hex(ofFileAt: path)
            guard digest == manifest.sha256 else {
                throw ModelHostingError.checksumMismatch(expected: manifest.sha256, actual: digest)
            }
            // From here the file is whole: forget how to resume it, so that if validation
            // fails, or the process dies in it, the next attempt downloads the file again
            // instead of re-validating a file that was already rejected.
            try? FileManager.default.removeItem(at: cache.partialInfoURL(manifest.name, sha256: manifest.sha256))
            do {
                try configuration.validator.validate(path)
            } catch let error as ModelHostingError {
                throw error
            } catch {
                throw ModelHostingError.invalidModel(String(describing: error))
            }
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(at: cache.partialInfoURL(manifest.name, sha256: manifest.sha256))
            throw error
        }
    }

    // MARK: Helpers

    private func makeSessionConfiguration() -> URLSessionConfiguration {
        let session = configuration.makeSessionConfiguration()
        // The idle timeout is enforced by HTTPTransfer's watchdog: FoundationNetworking on Linux
        // truncates these to whole seconds and treats the request timeout as a bound on the
        // whole transfer, so both carry the resource timeout (at least one second).
        let bound = max(1, min(configuration.resourceTimeout, configuration.resourceLimits.downloadDeadline).rounded(.up))
        session.timeoutIntervalForRequest = bound
        session.timeoutIntervalForResource = bound
        session.requestCachePolicy = .reloadIgnoringLocalCacheData
        session.urlCache = nil
        session.allowsCellularAccess = conditions.allowsCellularAccess
        #if canImport(Darwin)
        session.allowsExpensiveNetworkAccess = conditions.allowsExpensiveNetworkAccess
        session.allowsConstrainedNetworkAccess = conditions.allowsConstrainedNetworkAccess
        #endif
        return session
    }

    private func withRetries<T>(_ body: () async throws -> T) async throws -> T {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await body()
            } catch let error as ModelHostingError {
                guard error.isTransient, attempt < configuration.maximumAttempts, Date() < pace.deadline else { throw error }
                try await Task.sleep(nanoseconds: UInt64(configuration.retryDelay * 1e9))
            }
        }
    }
}

extension ModelHostingError {
    /// Transport failures worth another attempt (the partial file is kept and resumed).
    var isTransient: Bool {
        switch self {
        case .network, .timedOut: return true
        default: return false
        }
    }
}

/// A byte buffer shared with a delegate callback, with a size limit.
private final class LockedBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var storage = Data()

    func append(_ data: Data, limit: Int) -> Bool {
        lock.lock(); defer { lock.unlock() }
        guard storage.count + data.count <= limit else { return false }
        storage.append(data)
        return true
    }

    func reset() {
        lock.lock(); storage.removeAll(); lock.unlock()
    }

    var data: Data {
        lock.lock(); defer { lock.unlock() }
        return storage
    }
}
