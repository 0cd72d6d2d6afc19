import Foundation
import ImageCodecs
import ObjectDetection
import XCTest

/// Sample photos and helpers shared by the image tests.
enum ImageTestFixtures {
    /// The package root, derived from this file's location.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Decodes `Models/images/<name>` as RGB, or skips when the samples have not been fetched.
    static func photo(_ name: String) throws -> RGBImage {
        let path = packageRoot.appendingPathComponent("Models/images/\(name)").path
        guard FileManager.default.fileExists(atPath: path) else {
            throw XCTSkip("\(path) missing: run Scripts/fetch-models.sh")
        }
        return try RGBImage(pngFile: path)
    }

    /// A small crop of a photo, to keep debug-build tests fast.
    static func photoCrop(_ name: String, x: Int, y: Int, width: Int, height: Int) throws -> RGBImage {
        let image = try photo(name)
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 3)
        for row in y..<(y + height) {
            let start = (row * image.width + x) * 3
            pixels += image.pixels[start..<(start + width * 3)]
        }
        return try RGBImage(width: width, height: height, pixels: pixels)
    }
}

/// Deterministic generator (SplitMix64) for randomized image tests.
struct ImageTestRandom: RandomNumberGenerator {
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
