import Foundation
import XCTest

/// Locations of the package, its models and fixtures, for tests. Models that are absent
/// make a test skip (with a message saying how to get them) rather than fail.
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

    /// Path of `Models/<name>`, or an `XCTSkip` explaining how to fetch it.
    public static func model(_ name: String) throws -> String {
        let path = modelsDirectory.appendingPathComponent(name).path
        guard FileManager.default.fileExists(atPath: path) else {
            throw XCTSkip("Models/\(name) is absent: run Scripts/fetch-models.sh")
        }
        return path
    }

    /// Path of `../shared/models/<name>`, or an `XCTSkip` when the folder or file is absent.
    public static func sharedModel(_ name: String) throws -> String {
        let path = sharedModelsDirectory.appendingPathComponent(name).path
        guard FileManager.default.fileExists(atPath: path) else {
            throw XCTSkip("\(sharedModelsDirectory.path)/\(name) is absent (third-party test models not installed)")
        }
        return path
    }

    /// Path of `Tests/Fixtures/<relativePath>`, or an `XCTSkip` when it is absent.
    public static func fixture(_ relativePath: String) throws -> String {
        let path = fixturesDirectory.appendingPathComponent(relativePath).path
        guard FileManager.default.fileExists(atPath: path) else {
            throw XCTSkip("fixture Tests/Fixtures/\(relativePath) is absent: regenerate with Scripts/generate-goldens.sh")
        }
        return path
    }
}
