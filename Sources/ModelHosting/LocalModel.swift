/// A model bundled with the app: a `.tflite` file on disk. Always available, works offline.
///
/// Pair it with a ``RemoteModel`` through ``ModelSource/remote(_:fallback:)`` to use a hosted
/// model when it has been downloaded and this file until then.
public struct LocalModel: Sendable, Hashable, CustomStringConvertible {
    /// Path of the `.tflite` file.
    public var path: String

    /// A local model at `path`. The file is not read until the model is used.
    public init(path: String) {
        self.path = path
    }

    /// `local(<path>)`.
    public var description: String { "local(\(path))" }
}
