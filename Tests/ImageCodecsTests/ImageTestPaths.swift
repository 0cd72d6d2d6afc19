import Foundation
import XCTest

/// Locates the package's sample photos (fetched by `Scripts/fetch-models.sh`).
enum ImageTestPaths {
    /// The package root, derived from this file's location.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Models/images/<name>`, or an XCTSkip when the samples have not been fetched.
    static func sample(_ name: String) throws -> String {
        let path = packageRoot.appendingPathComponent("Models/images/\(name)").path
        guard FileManager.default.fileExists(atPath: path) else {
            throw XCTSkip("\(path) missing: run Scripts/fetch-models.sh")
        }
        return path
    }
}

/// Deterministic generator (SplitMix64) for randomized tests.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
