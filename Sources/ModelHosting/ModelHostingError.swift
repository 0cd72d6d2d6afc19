import Foundation

/// Why a hosted-model operation failed. Every case names what was wrong.
public enum ModelHostingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The model name is not usable as a file name (see ``RemoteModel``).
    case invalidModelName(String)
    /// The host URL or a URL in the manifest is not `http`/`https` or cannot be parsed.
    case invalidURL(String)
    /// The server answered with an unexpected HTTP status.
    case httpStatus(code: Int, url: String)
    /// The manifest is missing a field, has a wrong value, or is not JSON.
    case invalidManifest(String)
    /// A redirect to another scheme that is not `https` was refused.
    case redirectRejected(from: String, to: String)
    /// No data arrived for longer than the idle timeout, or the whole transfer took too long.
    case timedOut(String)
    /// A transport error (connection refused, dropped, DNS, TLS, ...).
    case network(String)
    /// The downloaded byte count differs from the manifest's size (or the server's
    /// `Content-Length` / `Content-Range` contradicts it).
    case sizeMismatch(expected: Int, actual: Int)
    /// The downloaded file's SHA-256 differs from the manifest's.
    case checksumMismatch(expected: String, actual: String)
    /// The file is not a model this engine can load and allocate.
    case invalidModel(String)
    /// Writing, syncing or renaming in the cache directory failed (disk full, permissions).
    case fileSystem(String)
    /// ``ModelSource/remote(_:)`` was resolved before the model was downloaded.
    case modelNotDownloaded(String)
    /// The download was cancelled.
    case cancelled

    /// A readable message.
    public var description: String {
        switch self {
        case let .invalidModelName(name):
            return "invalid model name '\(name)': use letters, digits, '.', '_' and '-' (not starting with '.')"
        case let .invalidURL(url): return "invalid or unsupported URL '\(url)' (only http and https)"
        case let .httpStatus(code, url): return "HTTP \(code) from \(url)"
        case let .invalidManifest(reason): return "invalid model manifest: \(reason)"
        case let .redirectRejected(from, to): return "refused redirect from \(from) to \(to) (only same scheme or https)"
        case let .timedOut(what): return "timed out: \(what)"
        case let .network(reason): return "network error: \(reason)"
        case let .sizeMismatch(expected, actual): return "size mismatch: expected \(expected) bytes, got \(actual)"
        case let .checksumMismatch(expected, actual): return "SHA-256 mismatch: expected \(expected), got \(actual)"
        case let .invalidModel(reason): return "downloaded file is not a usable model: \(reason)"
        case let .fileSystem(reason): return "cache write failed: \(reason)"
        case let .modelNotDownloaded(name): return "model '\(name)' has not been downloaded"
        case .cancelled: return "download cancelled"
        }
    }
}

extension ModelHostingError {
    /// The system's reason for a file error ("No space left on device", "Not a directory"):
    /// the POSIX error under Foundation's `NSCocoaErrorDomain` wrapper when there is one.
    static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError { return reason(underlying) }
        return error.localizedDescription
    }
}
