import Foundation
import TestSupport
import XCTest

/// Locates the package's sample photos (fetched by `Scripts/fetch-models.sh`).
enum ImageTestPaths {
    /// `Models/images/<name>`, or an XCTSkip when the samples have not been fetched.
    static func sample(_ name: String) throws -> String {
        let path = TestPaths.imagesDirectory.appendingPathComponent(name).path
        guard FileManager.default.fileExists(atPath: path) else {
            throw TestEnvironment.missing("\(path) missing: run Scripts/fetch-models.sh")
        }
        return path
    }
}
