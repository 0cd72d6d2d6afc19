import Foundation

/// A named model published on a model host and fetched on demand by a ``ModelManager``, so a
/// model can be updated without shipping a new app build.
///
/// The host speaks plain HTTP(S): `GET {host}/models/{name}.json` returns a ``ModelManifest``
/// naming the model file. The name is also the cache directory name, so it is restricted to
/// ASCII letters, digits, `.`, `_` and `-` (not starting with `.`, at most 128 characters);
/// ``ModelManager`` rejects other names with ``ModelHostingError/invalidModelName(_:)``.
public struct RemoteModel: Sendable, Hashable, CustomStringConvertible {
    /// The model's name on the host, e.g. `"face_detection_short_range"`.
    public var name: String
    /// The host's base URL, e.g. `https://models.example.com/` (`http` or `https`).
    public var host: URL

    /// A remote model `name` published on `host`.
    public init(name: String, host: URL) {
        self.name = name
        self.host = host
    }

    /// `remote(<name> @ <host>)`.
    public var description: String { "remote(\(name) @ \(host.absoluteString))" }

    /// Whether `name` is usable as a model name (see the type's documentation).
    public static func isValidName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 128, name.first != "." else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                || scalar == "." || scalar == "_" || scalar == "-")
        }
    }

    /// The manifest URL: `{host}/models/{name}.json`.
    public var manifestURL: URL {
        var base = host.absoluteString
        if !base.hasSuffix("/") { base += "/" }
        return URL(string: base + "models/" + name + ".json") ?? host
    }
}
