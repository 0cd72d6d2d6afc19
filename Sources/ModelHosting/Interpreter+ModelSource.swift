import TFLiteInterpreter

extension Interpreter {
    /// Loads the model a ``ModelSource`` (or a ``LocalModel`` / ``RemoteModel``) resolves to now,
    /// e.g. `Interpreter(modelSource: ModelSource.remote(hosted, fallback: bundled))`.
    ///
    /// - Throws: ``ModelHostingError/modelNotDownloaded(_:)`` for a remote model that is not
    ///   downloaded, and the interpreter's own load errors.
    public convenience init(modelSource: some ModelSourceConvertible, options: Options? = nil,
                            manager: ModelManager = .shared) throws {
        try self.init(modelPath: modelSource.modelSource.resolvedFilePath(using: manager), options: options)
    }
}
