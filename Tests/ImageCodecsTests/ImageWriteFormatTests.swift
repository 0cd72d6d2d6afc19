import Foundation
@testable import ImageCodecs
import ObjectDetection
import TestSupport
import XCTest

/// `RGBImage.write(to:)`, which `--annotate out.jpg` uses: the output format follows the
/// path's extension (`.jpg`, `.jpeg` in any case → JPEG, anything else → PNG), checked on the
/// bytes written and by decoding them again.
final class ImageWriteFormatTests: XCTestCase {
    func testTheExtensionChoosesJPEGOrPNG() throws {
        let photo = try RGBImage(pngFile: ImageTestPaths.sample("chelsea.png"))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("write-format-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, expected) in [("a.jpg", ImageFileFormat.jpeg), ("b.JPEG", .jpeg), ("c.Jpg", .jpeg), ("d.png", .png),
                                 ("e.out", .png)] {
            let path = directory.appendingPathComponent(name).path
            try photo.write(to: path)
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            XCTAssertEqual(ImageFileFormat(sniffing: bytes), expected, name)
            let back = try VisionImage(contentsOf: path).uprightRGB()
            XCTAssertEqual([back.width, back.height], [photo.width, photo.height], name)
            if expected == .png { XCTAssertEqual(back, photo, "\(name): PNG is lossless") }
        }
    }
}
