import Foundation

/// The JSON a model host serves at `{host}/models/{name}.json`:
/// `{"name": ..., "version": ..., "size": ..., "sha256": ..., "url": ...}`.
///
/// `url` may be absolute or relative to the host URL. `version` names the cache directory,
/// so it uses the same characters as a model name.
public struct ModelManifest: Sendable, Hashable, Codable {
    /// The model's name; must equal the requested ``RemoteModel/name``.
    public var name: String
    /// The version string, e.g. `"3"` or `"2024-11-02"`.
    public var version: String
    /// The model file's size in bytes.
    public var size: Int
    /// Lower-case hex SHA-256 of the model file (64 characters).
    public var sha256: String
    /// Where to fetch the file: absolute, or relative to the host URL.
    public var url: String

    /// A manifest with these fields.
    public init(name: String, version: String, size: Int, sha256: String, url: String) {
        self.name = name
        self.version = version
        self.size = size
        self.sha256 = sha256
        self.url = url
    }

    /// Largest manifest accepted, in bytes.
    static let maximumByteCount = 64 * 1024
    /// Largest model accepted, in bytes (2 GiB, the FlatBuffers limit).
    static let maximumModelSize = Int(Int32.max)

    /// Decodes and checks a manifest for `model`.
    ///
    /// - Throws: ``ModelHostingError/invalidManifest(_:)`` naming the wrong field.
    static func decode(_ data: Data, for model: RemoteModel) throws -> ModelManifest {
        let manifest: ModelManifest
        do {
            manifest = try JSONDecoder().decode(ModelManifest.self, from: data)
        } catch {
            throw ModelHostingError.invalidManifest("not a JSON object with name, version, size, sha256, url (\(error))")
        }
        var checked = manifest
        checked.sha256 = manifest.sha256.lowercased()
        guard manifest.name == model.name else {
            throw ModelHostingError.invalidManifest("name '\(manifest.name)' does not match requested '\(model.name)'")
        }
        guard RemoteModel.isValidName(manifest.version) else {
            throw ModelHostingError.invalidManifest("version '\(manifest.version)' must use letters, digits, '.', '_' and '-'")
        }
        guard manifest.size > 0, manifest.size <= maximumModelSize else {
            throw ModelHostingError.invalidManifest("size \(manifest.size) out of range 1...\(maximumModelSize)")
        }
        guard checked.sha256.count == 64, checked.sha256.allSatisfy({ $0.isHexDigit && $0.isASCII }) else {
            throw ModelHostingError.invalidManifest("sha256 '\(manifest.sha256)' is not 64 hex digits")
        }
        guard !manifest.url.isEmpty else { throw ModelHostingError.invalidManifest("url is empty") }
        return checked
    }

    /// The absolute model URL, resolving a relative ``url`` against `host`.
    ///
    /// - Throws: ``ModelHostingError/invalidURL(_:)`` for unparsable or non-HTTP(S) URLs, and for
    ///   an `http` file URL under an `https` host (a downgrade).
    func resolvedURL(host: URL) throws -> URL {
        var base = host.absoluteString
        if !base.hasSuffix("/") { base += "/" }
        guard let baseURL = URL(string: base),
              let resolved = URL(string: url, relativeTo: baseURL)?.absoluteURL,
              let scheme = resolved.scheme?.lowercased(), scheme == "http" || scheme == "https",
              resolved.host != nil
        else { throw ModelHostingError.invalidURL(url) }
        if host.scheme?.lowercased() == "https" && scheme == "http" {
            throw ModelHostingError.invalidURL("\(url) (http model URL under an https host)")
        }
        return resolved
    }
}
