import Foundation
@testable import ImageCodecs
import ObjectDetection
import TestSupport
import XCTest

final class JPEGDecoderTests: XCTestCase {
    /// Mean absolute difference of two equally long sample arrays.
    private func meanAbsoluteDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        precondition(a.count == b.count)
        return Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.count)
    }

    private func rocketPNG() throws -> RGBImage {
        try RGBImage(pngFile: ImageTestPaths.sample("rocket.png"))
    }

    func testRealPhotoDecodesLikeItsPNGConversion() throws {
        // rocket.png is rocket.jpg converted by the pinned Pillow (libjpeg-turbo inside, ISLOW DCT).
        let decoded = try JPEGDecoder.decode(contentsOf: ImageTestPaths.sample("rocket.jpg"))
        let png = try rocketPNG()
        XCTAssertEqual([decoded.width, decoded.height, decoded.channels], [640, 427, 3])
        XCTAssertEqual(decoded.orientation, .up)
        XCTAssertEqual(decoded.scale, 1)
        XCTAssertLessThan(meanAbsoluteDifference(decoded.pixels, png.pixels), 0.5)
        let image = try VisionImage(contentsOf: ImageTestPaths.sample("rocket.jpg"))
        XCTAssertEqual(image.format, .rgb8)
        XCTAssertEqual([image.uprightWidth, image.uprightHeight], [640, 427])
    }

    func testBaselineProgressiveGrayscaleAndCMYKRoundTrips() throws {
        let png = try rocketPNG()
        for progressive in [false, true] {
            let bytes = try JPEGEncoder.encode(png, options: .init(quality: 95, progressive: progressive, fullChroma: true))
            XCTAssertEqual(bytes.prefix(3), [0xFF, 0xD8, 0xFF])
            let decoded = try JPEGDecoder.decode(bytes)
            XCTAssertEqual([decoded.width, decoded.height, decoded.channels], [640, 427, 3])
            XCTAssertLessThan(meanAbsoluteDifference(decoded.pixels, png.pixels), 2.5, "progressive \(progressive)")
        }
        let gray = try PNGDecoder.decode(contentsOf: ImageTestPaths.sample("camera.png"))
        let grayJPEG = try JPEGEncoder.encode(pixels: gray.pixels, width: gray.width, height: gray.height, channels: 1,
                                              options: .init(quality: 95))
        let grayDecoded = try JPEGDecoder.decode(grayJPEG)
        XCTAssertEqual(grayDecoded.channels, 1)
        XCTAssertLessThan(meanAbsoluteDifference(grayDecoded.pixels, gray.pixels), 2.5)
        XCTAssertEqual(try VisionImage(jpegData: grayJPEG).format, .gray8)

        // CMYK in the Adobe (inverted) convention: C = 255 − R + K', with K' = min over channels.
        var cmyk = [UInt8](repeating: 0, count: png.width * png.height * 4)
        for p in 0..<(png.width * png.height) {
            let rgb = png.pixels[(3 * p)..<(3 * p + 3)].map(Int.init)
            let k = rgb.max()!   // inverted K: 255 − black ink
            for c in 0..<3 { cmyk[4 * p + c] = k == 0 ? 255 : UInt8((rgb[c] * 255 + k / 2) / k) }
            cmyk[4 * p + 3] = UInt8(k)
        }
        let cmykJPEG = try JPEGEncoder.encode(pixels: cmyk, width: png.width, height: png.height, channels: 4,
                                              options: .init(quality: 98, fullChroma: true))
        XCTAssertTrue(JPEGMarkers(cmykJPEG).hasAdobeSegment, "libjpeg writes CMYK with an Adobe segment")
        let cmykDecoded = try JPEGDecoder.decode(cmykJPEG)
        XCTAssertEqual(cmykDecoded.channels, 3)
        XCTAssertLessThan(meanAbsoluteDifference(cmykDecoded.pixels, png.pixels), 3)
    }

    func testReducedScaleDecodingKeepsTheRequestedShortSide() throws {
        let bytes = try PNGDecoder.readFile(ImageTestPaths.sample("rocket.jpg"))
        let full = try JPEGDecoder.decode(bytes)
        for (minimum, size, scale) in [(400, [640, 427], 1.0), (200, [320, 214], 0.5), (100, [160, 107], 0.25),
                                       (50, [80, 54], 0.125), (1, [80, 54], 0.125)] {
            let decoded = try JPEGDecoder.decode(bytes, minimumShortSide: minimum)
            XCTAssertEqual([decoded.width, decoded.height], size, "minimum short side \(minimum)")
            XCTAssertEqual(decoded.scale, scale)
            XCTAssertEqual([decoded.fullWidth, decoded.fullHeight], [640, 427])
            XCTAssertGreaterThanOrEqual(min(decoded.width, decoded.height), min(minimum, 54))
        }
        // The 1/4 image is the full one averaged over 4×4 blocks, within JPEG's own error.
        let quarter = try JPEGDecoder.decode(bytes, minimumShortSide: 100)
        var averaged: [UInt8] = []
        for y in 0..<(427 / 4) {
            for x in 0..<160 {
                for c in 0..<3 {
                    var sum = 0
                    for dy in 0..<4 { for dx in 0..<4 { sum += Int(full.pixels[((4 * y + dy) * 640 + 4 * x + dx) * 3 + c]) } }
                    averaged.append(UInt8(sum / 16))
                }
            }
        }
        XCTAssertLessThan(meanAbsoluteDifference(Array(quarter.pixels.prefix(averaged.count)), averaged), 3)
    }

    func testCorruptAndTruncatedJPEGsGiveTypedErrors() throws {
        let bytes = try PNGDecoder.readFile(ImageTestPaths.sample("rocket.jpg"))
        // Cut short anywhere after the header: a truncation error, never a crash or a gray image.
        for length in [bytes.count / 3, bytes.count / 2, bytes.count - 2] {
            XCTAssertThrowsError(try JPEGDecoder.decode(Array(bytes.prefix(length)))) { error in
                XCTAssertEqual(error as? ImageCodecError, .truncatedJPEG(bytes: length))
            }
        }
        // Cut inside the header, or not a JPEG at all.
        for broken in [Array(bytes.prefix(200)), [0xFF, 0xD8, 0xFF], [0xFF, 0xD8, 0xFF, 0xD9], Array(bytes.prefix(2)), []] {
            XCTAssertThrowsError(try JPEGDecoder.decode(broken)) { error in
                guard case .invalidJPEG = error as? ImageCodecError else { return XCTFail("\(error)") }
            }
        }
        // The Huffman tables replaced by garbage: the library's fatal error comes back typed.
        var corrupt = bytes
        let sos = try XCTUnwrap((2..<corrupt.count - 1).first { corrupt[$0] == 0xFF && corrupt[$0 + 1] == 0xDA })
        for i in 2..<sos where corrupt[i] == 0xFF && corrupt[i + 1] == 0xC4 {
            for k in (i + 5)..<min(i + 40, sos) { corrupt[k] = 0xFF }
        }
        XCTAssertThrowsError(try JPEGDecoder.decode(corrupt)) { error in
            guard case .invalidJPEG = error as? ImageCodecError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try VisionImage(imageData: Array("GIF89a....".utf8))) { error in
            guard case .unknownFormat = error as? ImageCodecError else { return XCTFail("\(error)") }
        }
    }

    func testSizeCapIsCheckedBeforeAllocation() throws {
        let bytes = try PNGDecoder.readFile(ImageTestPaths.sample("rocket.jpg"))
        XCTAssertThrowsError(try JPEGDecoder.decode(bytes, limits: ImageLimits(maxPixelCount: 640 * 427 - 1))) { error in
            XCTAssertEqual(error as? ImageCodecError, .image(.tooManyPixels(width: 640, height: 427, limit: 640 * 427 - 1)))
        }
        // A frame header claiming 60000×60000 (3.6 gigapixels) is refused before decoding.
        var huge = bytes
        let sof = try XCTUnwrap((2..<huge.count - 8).first { huge[$0] == 0xFF && (huge[$0 + 1] == 0xC0 || huge[$0 + 1] == 0xC2) })
        for k in [5, 7] { huge[sof + k] = 0xEA; huge[sof + k + 1] = 0x60 }
        XCTAssertThrowsError(try JPEGDecoder.decode(huge)) { error in
            XCTAssertEqual(error as? ImageCodecError, .image(.tooManyPixels(width: 60000, height: 60000, limit: 1 << 28)))
        }
    }

    func testTruncatedFileClaimingAHugeSizeIsRefusedBeforeAllocation() throws {
        let small = try JPEGEncoder.encode(pixels: [UInt8](repeating: 128, count: 16 * 16 * 3), width: 16, height: 16,
                                           channels: 3, options: .init(quality: 90))
        // 16000×16000 is within the default cap (2^28 pixels) and would take 768 MB of RGB.
        var huge = small
        let sof = try XCTUnwrap((2..<huge.count - 8).first { huge[$0] == 0xFF && huge[$0 + 1] == 0xC0 })
        for k in [5, 7] { huge[sof + k] = 0x3E; huge[sof + k + 1] = 0x80 }
        let cut = Array(huge.dropLast(4))
        let before = PeakMemory.residentBytes
        XCTAssertThrowsError(try JPEGDecoder.decode(cut)) { error in
            XCTAssertEqual(error as? ImageCodecError, .truncatedJPEG(bytes: cut.count))
        }
        XCTAssertLessThan(PeakMemory.residentBytes - before, 256 << 20, "the pixels of a truncated file must not be allocated")
    }

    func testEXIFOrientationIsReadFromBothByteOrdersAndMalformedBlocksAreIgnored() throws {
        func app1(_ tiff: [UInt8]) -> [UInt8] {
            let payload = Array("Exif".utf8) + [0, 0] + tiff
            return [0xFF, 0xD8, 0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
                + [0xFF, 0xD9]
        }
        // Big-endian: one IFD0 entry (tag 0x0112, SHORT, count 1, value 6).
        let motorola: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0]
        XCTAssertEqual(JPEGMarkers(app1(motorola)).orientation, .right)
        // Little-endian, a second entry first, value 8.
        let intel: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 2, 0, 0x0F, 0x01, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0,
                              0x12, 0x01, 3, 0, 1, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0]
        XCTAssertEqual(JPEGMarkers(app1(intel)).orientation, .left)
        // Hostile blocks: IFD offset past the end, entry count past the end, value 9, wrong type, short header.
        let hostile: [[UInt8]] = [
            [0x4D, 0x4D, 0, 42, 0x7F, 0xFF, 0xFF, 0xFF],
            [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0xFF, 0xFF, 0x01, 0x12],
            [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 9, 0, 0, 0, 0, 0, 0],
            [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 4, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0],
            [0x4D, 0x4D, 0, 42], [],
        ]
        for tiff in hostile { XCTAssertNil(JPEGMarkers(app1(tiff)).orientation, "\(tiff)") }
        // A segment length running past the data ends the walk without reading past it.
        XCTAssertEqual(JPEGMarkers([0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF, 0x45]), JPEGMarkers([]))
    }

    func testFormatIsSniffedFromBytesNotNames() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("litevision-sniff-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = try rocketPNG()
        // A JPEG named .png, a PNG named .jpg, and a text file: the folder yields the two images.
        let misnamedJPEG = folder.appendingPathComponent("a.png").path
        try JPEGEncoder.write(png, to: misnamedJPEG, options: .init(quality: 95))
        try png.writePNG(to: folder.appendingPathComponent("b.jpg").path)
        try Data("notes".utf8).write(to: folder.appendingPathComponent("c.png"))
        XCTAssertEqual(try VisionImage(contentsOf: misnamedJPEG).uprightWidth, 640)
        let source = try FrameSource(path: folder.path)
        XCTAssertEqual(source.frameCount, 2)
        XCTAssertEqual(try source.nextFrame()?.name, "a.png")
        XCTAssertEqual(try source.nextFrame()?.image.uprightRGB(), png)
        XCTAssertNil(try source.nextFrame())
        // Output format follows the requested name.
        let out = folder.appendingPathComponent("out.JPG").path
        try png.write(to: out)
        XCTAssertEqual(ImageFileFormat(sniffing: try PNGDecoder.readFile(out)), .jpeg)
    }
}
