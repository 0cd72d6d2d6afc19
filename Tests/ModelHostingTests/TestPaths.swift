import Foundation
import TestSupport
import XCTest

/// Locations of the package's real models.
enum TestPaths {
    /// The package root (three levels above this file).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Models/<name>`; when it is absent, skips the test locally and fails it under CI
    /// (``TestEnvironment/missing(_:ci:)``; run Scripts/fetch-models.sh).
    static func model(_ name: String) throws -> URL {
        let url = packageRoot.appendingPathComponent("Models").appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw TestEnvironment.missing("Models/\(name) is missing: run Scripts/fetch-models.sh")
        }
        return url
    }

    /// The bytes of `Models/<name>`.
    static func modelBytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: model(name)))
    }

    /// The `litevision` executable built next to the test bundle; skips when absent.
    static func litevisionExecutable() throws -> URL {
        var directory = Bundle.main.bundleURL
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent("litevision")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        throw TestEnvironment.missing("litevision executable not built next to the tests (swift build --build-tests builds it)")
    }
}
