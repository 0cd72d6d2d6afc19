import Foundation

/// What the cache knows about the installed version of one model: the content of
/// `{cache}/{name}/current.json`, the pointer that makes a version current.
public struct DownloadedModelRecord: Sendable, Hashable, Codable {
    /// The model name.
    public var name: String
    /// The installed version (from the manifest).
    public var version: String
    /// The file's size in bytes.
    public var size: Int
    /// The file's SHA-256 (lower-case hex), verified before install.
    public var sha256: String
    /// The file's path relative to the model's directory: `{version}/{sha256 prefix}.tflite`.
    public var relativePath: String
    /// The host it came from.
    public var host: String
    /// The manifest response's `ETag`, sent as `If-None-Match` on the next check.
    public var manifestETag: String?
    /// When it was installed.
    public var installedAt: Date
}
