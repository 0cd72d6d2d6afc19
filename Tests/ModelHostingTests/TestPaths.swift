import Foundation
import XCTest

/// Locations of the package's real models.
enum TestPaths {
    /// The package root (three levels above this file).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Models/<name>`; skips the test when it is absent (run Scripts/fetch-models.sh).
    static func model(_ name: String) throws -> URL {
        let url = packageRoot.appendingPathComponent("Models").appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw XCTSkip("Models/\(name) is missing: run Scripts/fetch-models.sh")
        }
        return url
    }

    /// The bytes of `Models/<name>`.
    static func modelBytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: model(name)))
    }
}
