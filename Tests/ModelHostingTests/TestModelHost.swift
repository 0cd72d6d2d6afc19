import Foundation
@testable import ModelHosting

/// A model host on a ``LoopbackHTTPServer`` speaking the manifest protocol, with switches for
/// the faults the tests inject.
///
/// Routes: `GET /models/{name}.json` (manifest, ETag + If-None-Match → 304) and
/// `GET /files/{name}-{version}.tflite` (model bytes, strong ETag, Range + If-Range → 206).
final class TestModelHost: @unchecked Sendable {
    struct Published {
        var version: String
        var bytes: [UInt8]
        var sha256: String { SHA256.hexString(SHA256.hash(bytes)) }
    }

    /// Fault switches; all off by default.
    struct Faults {
        /// Status for manifest requests instead of serving them.
        var manifestStatus: Int?
        /// Status for file requests instead of serving them.
        var fileStatus: Int?
        /// Close the connection after this many body bytes, for the next `dropCount` file responses.
        var dropAfterBytes: Int?
        var dropCount = 0
        /// Stall the file body after this many bytes for `stallSeconds`.
        var stallAfterBytes: Int?
        var stallSeconds: Double = 0
        /// Advertise this Content-Length for the file (body unchanged).
        var fileContentLength: Int?
        /// Answer range requests with a full 200.
        var ignoreRange = false
        /// Override manifest fields.
        var manifestSHA256: String?
        var manifestSize: Int?
        /// Use an absolute file URL in the manifest instead of a relative one.
        var absoluteFileURL = false
        /// Redirect manifest requests to this URL (302).
        var manifestRedirect: String?
        /// Delay before answering file requests (seconds), to keep downloads in flight.
        var fileDelay: Double = 0
        /// Trickle the manifest / file body at this many bytes per second.
        var manifestTrickle: Double?
        var fileTrickle: Double?
    }

    private let lock = NSLock()
    private var published: [String: Published] = [:]
    private var faultState = Faults()
    private(set) var server: LoopbackHTTPServer!

    init() throws {
        server = try LoopbackHTTPServer { [unowned self] request in self.respond(to: request) }
    }

    var baseURL: URL { server.baseURL }

    func stop() { server.stop() }

    /// Publishes `bytes` as `name` at `version`.
    func publish(_ name: String, version: String, bytes: [UInt8]) {
        lock.lock(); published[name] = Published(version: version, bytes: bytes); lock.unlock()
    }

    /// Changes fault switches.
    func withFaults(_ change: (inout Faults) -> Void) {
        lock.lock(); change(&faultState); lock.unlock()
    }

    /// Requests for model files so far.
    var fileRequests: [LoopbackHTTPServer.Request] { server.requests.filter { $0.path.hasPrefix("/files/") } }
    /// Requests for manifests so far.
    var manifestRequests: [LoopbackHTTPServer.Request] { server.requests.filter { $0.path.hasPrefix("/models/") } }

    private func respond(to request: LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response {
        lock.lock()
        var faults = faultState
        if faultState.dropCount > 0 && request.path.hasPrefix("/files/") { faultState.dropCount -= 1 }
        let models = published
        lock.unlock()

        if request.path.hasPrefix("/models/"), request.path.hasSuffix(".json") {
            if let status = faults.manifestStatus { return .init(status: status, body: Array("boom".utf8)) }
            if let target = faults.manifestRedirect {
                faults.manifestRedirect = nil
                withFaults { $0.manifestRedirect = nil }
                return .init(status: 302, headers: [("Location", target)])
            }
            let name = String(request.path.dropFirst("/models/".count).dropLast(".json".count))
            guard let model = models[name] else { return .init(status: 404) }
            let etag = "\"m-\(model.version)-\(model.sha256.prefix(8))\""
            if request.headers["if-none-match"] == etag { return .init(status: 304, headers: [("ETag", etag)]) }
            let relative = "files/\(name)-\(model.version).tflite"
            let json: [String: Any] = [
                "name": name, "version": model.version,
                "size": faults.manifestSize ?? model.bytes.count,
                "sha256": faults.manifestSHA256 ?? model.sha256,
                "url": faults.absoluteFileURL ? baseURL.absoluteString + relative : relative,
            ]
            let body = try! JSONSerialization.data(withJSONObject: json)
            var response = LoopbackHTTPServer.Response(status: 200, headers: [("ETag", etag), ("Content-Type", "application/json")],
                                                       body: Array(body))
            response.trickleBytesPerSecond = faults.manifestTrickle
            return response
        }
        if request.path.hasPrefix("/files/") {
            if faults.fileDelay > 0 { Thread.sleep(forTimeInterval: faults.fileDelay) }
            if let status = faults.fileStatus { return .init(status: status, body: Array("boom".utf8)) }
            let file = String(request.path.dropFirst("/files/".count))
            guard let (_, model) = models.first(where: { "\($0.key)-\($0.value.version).tflite" == file }) else {
                return .init(status: 404)
            }
            let etag = "\"f-\(model.sha256.prefix(16))\""
            var response: LoopbackHTTPServer.Response
            if let range = request.headers["range"], !faults.ignoreRange,
               request.headers["if-range"] == etag,
               range.hasPrefix("bytes="), range.hasSuffix("-"),
               let start = Int(range.dropFirst(6).dropLast()) {
                guard start < model.bytes.count else {
                    return .init(status: 416, headers: [("Content-Range", "bytes */\(model.bytes.count)")])
                }
                response = .init(status: 206, headers: [
                    ("ETag", etag), ("Content-Range", "bytes \(start)-\(model.bytes.count - 1)/\(model.bytes.count)"),
                ], body: Array(model.bytes[start...]))
            } else {
                response = .init(status: 200, headers: [("ETag", etag)], body: model.bytes)
            }
            if faults.dropCount > 0 { response.dropAfterBytes = faults.dropAfterBytes }
            response.stallAfterBytes = faults.stallAfterBytes
            response.stallSeconds = faults.stallSeconds
            response.contentLengthOverride = faults.fileContentLength
            response.trickleBytesPerSecond = faults.fileTrickle
            return response
        }
        return .init(status: 404)
    }
}
