import Foundation
import ImageCodecs
@testable import ObjectDetection
import TestSupport
import XCTest

/// The default detector on JPEG versions of the sample photos, made with the project's own
/// encoder (libjpeg-turbo, quality 95): the same boxes as on the PNGs (DetectorFlowTests'
/// goldens), and the same upright boxes whatever EXIF orientation the file is stored with.
final class JPEGDetectionTests: XCTestCase {
    private var modelDirectory: String {
        get throws { _ = try TestPaths.model(DefaultModels.localizerFileName); return TestPaths.modelsDirectory.path }
    }

    private func samplePNG(_ name: String) throws -> RGBImage {
        let path = TestPaths.imagesDirectory.appendingPathComponent(name + ".png").path
        guard FileManager.default.fileExists(atPath: path) else { throw TestEnvironment.missing("\(path) absent: run Scripts/fetch-models.sh") }
        return try RGBImage(pngFile: path)
    }

    /// A JPEG file of `upright` stored the way a camera with `orientation` writes it: the pixels
    /// in the stored layout and an EXIF APP1 segment (big- or little-endian) naming the orientation.
    static func exifJPEG(_ upright: RGBImage, orientation: ImageOrientation, bigEndian: Bool) throws -> [UInt8] {
        let swaps = orientation.swapsDimensions
        let transform = OrientationTransform(orientation: orientation, storedWidth: swaps ? upright.height : upright.width,
                                             storedHeight: swaps ? upright.width : upright.height)
        var stored = [UInt8](repeating: 0, count: upright.pixels.count)
        for y in 0..<upright.height {
            for x in 0..<upright.width {
                let s = transform.storedPixel(uprightX: x, uprightY: y)
                let src = (y * upright.width + x) * 3, dst = (s.y * transform.storedWidth + s.x) * 3
                stored[dst..<(dst + 3)] = upright.pixels[src..<(src + 3)]
            }
        }
        let jpeg = try JPEGEncoder.encode(pixels: stored, width: transform.storedWidth, height: transform.storedHeight,
                                          channels: 3, options: .init(quality: 95, fullChroma: true))
        func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? [0, 0] + u16(v) : u16(v) + [0, 0] }
        let tiff = (bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]) + u16(42) + u32(8)
            + u16(1) + u16(0x0112) + u16(3) + u32(1) + u16(orientation.exifValue) + [0, 0] + u32(0)
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let app1: [UInt8] = [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        return Array(jpeg[0..<2]) + app1 + Array(jpeg[2...])
    }

    func testDefaultDetectorFindsTheSameObjectsInJPEGsAsInPNGs() throws {
        var options = ObjectDetectorOptions()
        options.detectorMode = .singleImage
        let detector = try ObjectDetector.objectDetector(options: options, modelDirectory: modelDirectory)
        // The PNG goldens, to within 6 px (under 2 % of the box) after JPEG compression.
        for (name, box) in DetectorFlowTests.prominentObjectGoldens.sorted(by: { $0.key < $1.key }) {
            let jpeg = try JPEGEncoder.encode(try samplePNG(name), options: .init(quality: 95))
            let objects = try detector.results(in: VisionImage(imageData: jpeg))
            XCTAssertEqual(objects.count, 1, name)
            let frame = try XCTUnwrap(objects.first?.frame, name)
            for (value, golden) in zip([frame.minX, frame.minY, frame.width, frame.height], [box.0, box.1, box.2, box.3]) {
                XCTAssertEqual(Double(value), golden, accuracy: 6, "\(name): \(frame)")
            }
        }
        // The real JPEG photo: as on its PNG conversion, one box (the `missile` activation map's).
        let rocket = try VisionImage(contentsOf: TestPaths.imagesDirectory.appendingPathComponent("rocket.jpg").path)
        let png = try XCTUnwrap(try detector.results(in: VisionImage(samplePNG("rocket"))).first?.frame)
        let jpeg = try detector.results(in: rocket)
        XCTAssertEqual(jpeg.count, 1)
        let box = jpeg.first?.frame ?? .zero, i = png.intersection(box)
        let iou = i.isNull ? 0 : Double(i.width * i.height) / Double(png.width * png.height + box.width * box.height - i.width * i.height)
        XCTAssertGreaterThan(iou, 0.9, "\(jpeg) vs \(png)")
    }

    func testAllEightEXIFOrientationsGiveTheSameUprightBoxes() throws {
        var options = ObjectDetectorOptions()
        options.detectorMode = .singleImage
        options.shouldEnableMultipleObjects = true
        let detector = try ObjectDetector.objectDetector(options: options, modelDirectory: modelDirectory)
        let upright = try samplePNG("motorcycle")
        let reference = try detector.results(in: VisionImage(imageData: try Self.exifJPEG(upright, orientation: .up, bigEndian: true)))
        XCTAssertFalse(reference.isEmpty)
        for orientation in ImageOrientation.allCases {
            let bytes = try Self.exifJPEG(upright, orientation: orientation, bigEndian: orientation.rawValue % 2 == 0)
            let image = try VisionImage(imageData: bytes)
            XCTAssertEqual(image.orientation, orientation)
            XCTAssertEqual([image.uprightWidth, image.uprightHeight], [upright.width, upright.height], "\(orientation)")
            let pixels = image.uprightRGB().pixels
            let difference = Double(zip(pixels, upright.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(pixels.count)
            XCTAssertLessThan(difference, 2.5, "\(orientation): decoded pixels are upright")
            let objects = try detector.results(in: image)
            XCTAssertEqual(objects.count, reference.count, "\(orientation)")
            for (object, expected) in zip(objects, reference) {
                let a = ImageRect(x: Double(object.frame.minX), y: Double(object.frame.minY),
                                  width: Double(object.frame.width), height: Double(object.frame.height))
                let b = ImageRect(x: Double(expected.frame.minX), y: Double(expected.frame.minY),
                                  width: Double(expected.frame.width), height: Double(expected.frame.height))
                XCTAssertGreaterThan(a.intersectionOverUnion(b), 0.95, "\(orientation): \(object.frame) vs \(expected.frame)")
            }
        }
    }
}
