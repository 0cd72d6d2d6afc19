import Foundation
import ImageCodecs
import ObjectDetection
import TestSupport
import XCTest

/// Sample photos and helpers shared by the image tests.
enum ImageTestFixtures {
    /// Decodes `Models/images/<name>` as RGB, or skips when the samples have not been fetched.
    static func photo(_ name: String) throws -> RGBImage {
        let path = TestPaths.imagesDirectory.appendingPathComponent(name).path
        guard FileManager.default.fileExists(atPath: path) else {
            throw TestEnvironment.missing("\(path) missing: run Scripts/fetch-models.sh")
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
