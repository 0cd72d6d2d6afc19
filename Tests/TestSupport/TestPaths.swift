import Foundation
import XCTest

/// Locations of the package, its models and fixtures, for tests. Models that are absent
/// make a test skip locally (with a message saying how to get them) and fail under CI
/// (see ``TestEnvironment``).
public enum TestPaths {
    /// The package root: the nearest directory above this file that holds `Package.swift`.
    public static let packageRoot: URL = {
        var directory = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory
            }
            directory.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    /// `<root>/Models` (filled by `Scripts/fetch-models.sh`).
    public static var modelsDirectory: URL { packageRoot.appendingPathComponent("Models") }
    /// `<root>/../shared/models` (third-party models, never committed).
    public static var sharedModelsDirectory: URL {
        packageRoot.deletingLastPathComponent().appendingPathComponent("shared/models")
    }
    /// `<root>/Tests/Fixtures`.
    public static var fixturesDirectory: URL { packageRoot.appendingPathComponent("Tests/Fixtures") }
    /// `<root>/Models/images`.
    public static var imagesDirectory: URL { modelsDirectory.appendingPathComponent("images") }

    /// Path of `Models/<name>`; when it is absent, ``TestEnvironment/missing(_:ci:)`` (a skip
    /// explaining how to fetch it, a failure under CI).
    public static func model(_ name: String) throws -> String {
        let path = modelsDirectory.appendingPathComponent(name).path
        guard FileManager.default.fileExists(atPath: path) else {
            let fetch = name.hasPrefix("mediapipe/") ? "Scripts/fetch-mediapipe-models.sh" : "Scripts/fetch-models.sh"
            throw TestEnvironment.missing("Models/\(name) is absent: run \(fetch)")
        }
        return path
    }

    /// Path of `Models/derived/<name>`: a test detector derived from a third-party model by
    /// `Scripts/derive-models.sh` (never committed). When it is absent,
    /// ``TestEnvironment/missing(_:ci:)`` (a skip explaining how to make it, a failure under CI;
    /// `ci` defaults to ``TestEnvironment/isCI``).
    public static func derivedModel(_ name: String, ci: Bool = TestEnvironment.isCI) throws -> String {
        let path = modelsDirectory.appendingPathComponent("derived").appendingPathComponent(name).path
        guard FileManager.default.fileExists(atPath: path) else {
            throw TestEnvironment.missing("Models/derived/\(name) is absent: run Scripts/derive-models.sh "
                                          + "(derives it from the models in ../shared/models)", ci: ci)
        }
        return path
    }

    /// Path of `../shared/models/<name>`. When the folder is absent,
    /// ``TestEnvironment/missing(_:ci:)`` (a skip locally, a failure under CI); when the folder
    /// exists but lacks the file, ``MissingPrerequisite`` (its models must all be there).
    public static func sharedModel(_ name: String) throws -> String {
        let path = sharedModelsDirectory.appendingPathComponent(name).path
        guard FileManager.default.fileExists(atPath: path) else {
            let message = "\(sharedModelsDirectory.path)/\(name) is absent (third-party test models not installed)"
            if FileManager.default.fileExists(atPath: sharedModelsDirectory.path) { throw MissingPrerequisite(message: message) }
            throw TestEnvironment.missing(message)
        }
        return path
    }

    /// Path of `Tests/Fixtures/<relativePath>`; when it is absent,
    /// ``TestEnvironment/missing(_:ci:)`` (a skip locally, a failure under CI).
    public static func fixture(_ relativePath: String) throws -> String {
        let path = fixturesDirectory.appendingPathComponent(relativePath).path
        guard FileManager.default.fileExists(atPath: path) else {
            throw TestEnvironment.missing("fixture Tests/Fixtures/\(relativePath) is absent: regenerate with Scripts/generate-goldens.sh")
        }
        return path
    }
}
