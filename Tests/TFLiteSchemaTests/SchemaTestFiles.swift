import Foundation
import TestSupport
import XCTest

/// Locations of reference models and schema fixtures, relative to this package.
enum SchemaTestFiles {
    /// The package root (three levels above this file).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// `Models/` (fetched by `Scripts/fetch-models.sh`).
    static let modelsDirectory = packageRoot.appendingPathComponent("Models")
    /// `../shared/models` (third-party models; absent outside the project machine).
    static let sharedModelsDirectory = packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared").appendingPathComponent("models")
    /// `Tests/Fixtures/schema`.
    static let fixturesDirectory = packageRoot.appendingPathComponent("Tests/Fixtures/schema")

    /// `.tflite` files in `directory`, sorted; empty when it does not exist.
    static func models(in directory: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".tflite") }.sorted().map { directory.appendingPathComponent($0) }
    }

    /// Reference models from `Models/`; when none were fetched, ``TestEnvironment/missing(_:ci:)``
    /// (a skip locally, a failure under CI).
    static func referenceModels() throws -> [URL] {
        let models = models(in: modelsDirectory)
        if models.isEmpty { throw TestEnvironment.missing("Models/ is empty: run Scripts/fetch-models.sh") }
        return models
    }

    /// Third-party models from `../shared/models`. When there are none, the caller tests less:
    /// locally that is a printed notice and an empty list; under CI (where `../shared` is
    /// beside the checkout) it throws ``MissingPrerequisite``, failing the test.
    static func sharedModels(ci: Bool = TestEnvironment.isCI) throws -> [URL] {
        let models = models(in: sharedModelsDirectory)
        if models.isEmpty {
            let message = "\(sharedModelsDirectory.path) has no models: shared models not tested"
            if ci { throw MissingPrerequisite(message: message) }
            print("note: \(message)")
        }
        return models
    }

    /// All models that exist: reference and shared (see ``sharedModels(ci:)``).
    static func allModels() throws -> [URL] { try referenceModels() + sharedModels() }

    /// The bytes of model `name` from `Models/`; skips when it is absent (fails under CI).
    static func referenceModelBytes(_ name: String) throws -> [UInt8] {
        let url = modelsDirectory.appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw TestEnvironment.missing("\(url.path) absent: run Scripts/fetch-models.sh")
        }
        return [UInt8](data)
    }

    /// The bytes of model `name` from `../shared/models`; skips when it is absent (fails under
    /// CI, and wherever `../shared/models` exists: its models must all be there).
    static func sharedModelBytes(_ name: String) throws -> [UInt8] {
        let url = sharedModelsDirectory.appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            let message = "\(url.path) absent: shared models are not available here"
            if FileManager.default.fileExists(atPath: sharedModelsDirectory.path) { throw MissingPrerequisite(message: message) }
            throw TestEnvironment.missing(message)
        }
        return [UInt8](data)
    }
}
