import Foundation
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

    /// Reference models from `Models/`; skips the test when none were fetched.
    static func referenceModels() throws -> [URL] {
        let models = models(in: modelsDirectory)
        if models.isEmpty { throw XCTSkip("Models/ is empty: run Scripts/fetch-models.sh") }
        return models
    }

    /// Third-party models from `../shared/models`, or an empty list (with a printed notice) when absent.
    static func sharedModels() -> [URL] {
        let models = models(in: sharedModelsDirectory)
        if models.isEmpty { print("note: \(sharedModelsDirectory.path) absent, shared models not tested") }
        return models
    }

    /// All models that exist: reference and shared.
    static func allModels() throws -> [URL] { try referenceModels() + sharedModels() }

    /// The bytes of model `name` from `Models/`, skipping when it is absent.
    static func referenceModelBytes(_ name: String) throws -> [UInt8] {
        let url = modelsDirectory.appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw XCTSkip("\(url.path) absent: run Scripts/fetch-models.sh")
        }
        return [UInt8](data)
    }

    /// The bytes of model `name` from `../shared/models`, skipping when it is absent.
    static func sharedModelBytes(_ name: String) throws -> [UInt8] {
        let url = sharedModelsDirectory.appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw XCTSkip("\(url.path) absent: shared models are not available here")
        }
        return [UInt8](data)
    }
}
