import Foundation
import ImageCodecs
@testable import ObjectDetection
import TestSupport
import XCTest

/// Detection on a JPEG decoded at a reduced scale (`preferredMinimumShortSide`): a photo much
/// larger than the model input gives the same boxes, in the full photo's pixel coordinates,
/// as the full-size decode, for less work.
final class ReducedScaleDetectionTests: XCTestCase {
    private var modelDirectory: String {
        get throws { _ = try TestPaths.model(DefaultModels.localizerFileName); return TestPaths.modelsDirectory.path }
    }

    /// `image` enlarged `factor` times by pixel replication, with seeded noise of ±8 per sample
    /// (sensor-like detail, so the JPEG costs what a camera photo of that size costs to decode).
    private func enlarged(_ image: RGBImage, by factor: Int) throws -> RGBImage {
        let width = image.width * factor, height = image.height * factor
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        var random = SeededGenerator(seed: 14)
        for y in 0..<height {
            let sourceRow = (y / factor) * image.width
            for x in 0..<width {
                let s = (sourceRow + x / factor) * 3, d = (y * width + x) * 3
                let noise = random.next()
                for c in 0..<3 {
                    let value = Int(image.pixels[s + c]) + Int((noise >> (8 * c)) & 15) - 8
                    pixels[d + c] = UInt8(max(0, min(255, value)))
                }
            }
        }
        return try RGBImage(width: width, height: height, pixels: pixels)
    }

    private func iou(_ a: CGRect, _ b: CGRect) -> Double {
        let i = a.intersection(b)
        guard !i.isNull else { return 0 }
        let inter = Double(i.width * i.height)
        return inter / (Double(a.width * a.height) + Double(b.width * b.height) - inter)
    }

    private func milliseconds(_ body: () throws -> Void) rethrows -> Double {
        var times: [Double] = []
        for _ in 0..<3 {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        return times.sorted()[1]
    }

    func testLargeJPEGDecodedReducedGivesTheFullSizeBoxesInFullPhotoCoordinates() throws {
        var options = ObjectDetectorOptions()
        options.detectorMode = .singleImage
        let detector = try ObjectDetector.objectDetector(options: options, modelDirectory: modelDirectory)
        XCTAssertEqual(detector.preferredMinimumShortSide, 2 * 257, "twice DeepLabV3's 257-pixel input")

        // chelsea.png (451×300) enlarged 8× (plus noise) into a 3608×2400 JPEG (8.7 megapixels).
        let photo = try ImageTestFixtures.photo("chelsea.png")
        let large = try enlarged(photo, by: 8)
        for orientation in [ImageOrientation.up, .right] {
            let bytes = try JPEGDetectionTests.exifJPEG(large, orientation: orientation, bigEndian: true)
            let full = try VisionImage(imageData: bytes)
            let reduced = try VisionImage(imageData: bytes, minimumShortSide: detector.preferredMinimumShortSide)
            XCTAssertNil(full.reducedScaleSource)
            // 2400 / 4 = 600 ≥ 514 > 2400 / 8: decoded at 1/4.
            XCTAssertEqual(reduced.reducedScaleSource?.scale, 4, "\(orientation)")
            XCTAssertEqual([reduced.uprightWidth, reduced.uprightHeight], [902, 600], "\(orientation)")
            XCTAssertEqual([reduced.sourceUprightWidth, reduced.sourceUprightHeight], [3608, 2400], "\(orientation)")

            let fullObjects = try detector.results(in: full)
            let reducedObjects = try detector.results(in: reduced)
            XCTAssertEqual(fullObjects.count, 1, "\(orientation)")
            XCTAssertEqual(reducedObjects.count, 1, "\(orientation)")
            let a = try XCTUnwrap(fullObjects.first?.frame), b = try XCTUnwrap(reducedObjects.first?.frame)
            XCTAssertGreaterThan(iou(a, b), 0.97, "\(orientation): full \(a) vs reduced \(b)")
            // Both in the full photo's pixels: 8× the golden box of the small PNG (within 2 %).
            let golden = DetectorFlowTests.prominentObjectGoldens["chelsea"]!
            for (value, expected) in zip([b.minX, b.minY, b.width, b.height], [golden.0, golden.1, golden.2, golden.3]) {
                XCTAssertEqual(Double(value), 8 * expected, accuracy: 0.02 * 3608, "\(orientation): \(b)")
            }
            XCTAssertLessThanOrEqual(b.maxX, 3608); XCTAssertLessThanOrEqual(b.maxY, 2400)

            if orientation == .up {
                let side = detector.preferredMinimumShortSide
                let decodeBefore = try milliseconds { _ = try VisionImage(imageData: bytes) }
                let decodeAfter = try milliseconds { _ = try VisionImage(imageData: bytes, minimumShortSide: side) }
                let before = try milliseconds { _ = try detector.results(in: VisionImage(imageData: bytes)) }
                let after = try milliseconds { _ = try detector.results(in: VisionImage(imageData: bytes, minimumShortSide: side)) }
                print(String(format: "reduced-scale decode, 3608×2400 JPEG (%d bytes), median of 3: decode %.1f -> %.1f ms, "
                             + "decode + detect %.1f -> %.1f ms", bytes.count, decodeBefore, decodeAfter, before, after))
            }
        }
    }

    /// `litevision track` on a folder of large JPEG frames: `FrameSource` with the detector's
    /// `preferredMinimumShortSide` decodes each frame at a reduced scale, and the stream-mode
    /// detector reports boxes in full-frame pixels, the same as on full-size frames.
    func testTrackedJPEGFramesDecodeReducedAndGiveFullFrameBoxes() throws {
        var options = ObjectDetectorOptions()
        options.detectorMode = .stream
        let reducedDetector = try ObjectDetector.objectDetector(options: options, modelDirectory: modelDirectory)
        let fullDetector = try ObjectDetector.objectDetector(options: options, modelDirectory: modelDirectory)
        let side = reducedDetector.preferredMinimumShortSide
        XCTAssertGreaterThan(side, 0)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("litevision-track-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Three 3608×2400 frames (chelsea.png enlarged 8×, plus noise), named out of order.
        let bytes = try JPEGDetectionTests.exifJPEG(try enlarged(try ImageTestFixtures.photo("chelsea.png"), by: 8),
                                                    orientation: .up, bigEndian: false)
        for name in ["frame-2.jpg", "frame-0.jpg", "frame-1.jpg"] {
            try Data(bytes).write(to: folder.appendingPathComponent(name))
        }

        let reduced = try FrameSource(path: folder.path, minimumShortSide: side)
        let full = try FrameSource(path: folder.path)
        var last: (reduced: [DetectedObject], full: [DetectedObject]) = ([], [])
        while let frame = try reduced.nextFrame() {
            let fullFrame = try XCTUnwrap(try full.nextFrame())
            XCTAssertNil(fullFrame.image.reducedScaleSource)
            // 2400 / 4 = 600 ≥ 514 > 2400 / 8: decoded at 1/4, the full size recorded.
            XCTAssertEqual(frame.image.reducedScaleSource?.scale, 4, "frame \(frame.index)")
            XCTAssertEqual([frame.image.uprightWidth, frame.image.uprightHeight], [902, 600])
            XCTAssertEqual([frame.image.sourceUprightWidth, frame.image.sourceUprightHeight], [3608, 2400])
            let timestamp = Double(frame.index) / 30
            last = (try reducedDetector.results(in: frame.image, timestamp: timestamp),
                    try fullDetector.results(in: fullFrame.image, timestamp: timestamp))
        }
        XCTAssertEqual(reduced.frameCount, 3)
        XCTAssertEqual(last.reduced.count, 1, "\(last.reduced)")
        XCTAssertEqual(last.full.count, 1, "\(last.full)")
        let a = try XCTUnwrap(last.full.first?.frame), b = try XCTUnwrap(last.reduced.first?.frame)
        XCTAssertGreaterThan(iou(a, b), 0.97, "full \(a) vs reduced \(b)")
        XCTAssertNotNil(last.reduced.first?.trackingID, "stream mode: a tracked object")
        // In full-frame pixels: 8× the golden box of the small PNG (within 2 %).
        let golden = DetectorFlowTests.prominentObjectGoldens["chelsea"]!
        for (value, expected) in zip([b.minX, b.minY, b.width, b.height], [golden.0, golden.1, golden.2, golden.3]) {
            XCTAssertEqual(Double(value), 8 * expected, accuracy: 0.02 * 3608, "\(b)")
        }
    }

    func testSourceRectScalesAndClipsToTheUprightSource() {
        let source = ReducedScaleSource(width: 1001, height: 603, scale: 8)   // decoded 126×76
        let up = source.sourceRect(ImageRect(x: 120, y: 70, width: 6, height: 6), orientation: .up)
        XCTAssertEqual(up, ImageRect(x: 960, y: 560, width: 41, height: 43))
        // With a quarter turn the upright source is 603 wide and 1001 high.
        let turned = source.sourceRect(ImageRect(x: 70, y: 120, width: 6, height: 6), orientation: .right)
        XCTAssertEqual(turned, ImageRect(x: 560, y: 960, width: 43, height: 41))
    }
}
