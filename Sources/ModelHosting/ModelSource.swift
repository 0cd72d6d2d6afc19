/// Where a model comes from: the one type detector options, classifier options and the
/// interpreter accept for "a model".
///
/// Resolve it to a file path with ``resolvedFilePath(using:)`` at the moment the model is loaded.
public enum ModelSource: Sendable, Hashable, CustomStringConvertible {
    /// A bundled file.
    case local(LocalModel)
    /// A hosted model; resolving it fails until it has been downloaded.
    case remote(RemoteModel)
    /// The SDK's recommended pattern as one value: the hosted model if it has been downloaded
    /// (its latest verified version), else the bundled file.
    case remoteIfDownloaded(RemoteModel, fallback: LocalModel)

    /// The hosted model when downloaded, else `fallback`.
    public static func remote(_ remote: RemoteModel, fallback: LocalModel) -> ModelSource {
        .remoteIfDownloaded(remote, fallback: fallback)
    }

    /// The path of the model file to load now.
    ///
    /// - Throws: ``ModelHostingError/modelNotDownloaded(_:)`` for a ``remote(_:)`` model that
    ///   has not been downloaded yet.
    public func resolvedFilePath(using manager: ModelManager = .shared) throws -> String {
        switch self {
        case let .local(local):
            return local.path
        case let .remote(remote):
            guard let path = manager.latestModelFilePath(remote) else {
                throw ModelHostingError.modelNotDownloaded(remote.name)
            }
            return path
        case let .remoteIfDownloaded(remote, fallback):
            return manager.latestModelFilePath(remote) ?? fallback.path
        }
    }

    /// A readable form, e.g. `remote(ssd @ http://127.0.0.1:8080/) else local(Models/ssd.tflite)`.
    public var description: String {
        switch self {
        case let .local(local): return local.description
        case let .remote(remote): return remote.description
        case let .remoteIfDownloaded(remote, fallback): return "\(remote) else \(fallback)"
        }
    }
}

/// Anything that names a model: ``LocalModel``, ``RemoteModel`` and ``ModelSource`` itself, so
/// APIs can take `some ModelSourceConvertible` and accept each of them directly.
public protocol ModelSourceConvertible: Sendable {
    /// This model as a ``ModelSource``.
    var modelSource: ModelSource { get }
}

extension LocalModel: ModelSourceConvertible {
    /// `.local(self)`.
    public var modelSource: ModelSource { .local(self) }
}

extension RemoteModel: ModelSourceConvertible {
    /// `.remote(self)`.
    public var modelSource: ModelSource { .remote(self) }
}

extension ModelSource: ModelSourceConvertible {
    /// `self`.
    public var modelSource: ModelSource { self }
}
