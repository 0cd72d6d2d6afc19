import ObjectDetection
import XCTest

final class ImageBufferTests: XCTestCase {
    func testPackedFormatsWithStridesAgree() throws {
        let rgb = try ImageTestFixtures.photoCrop("motorcycle.png", x: 300, y: 200, width: 33, height: 21)
        let stride = 33 * 4 + 7
        var rgba = [UInt8](repeating: 0, count: stride * 21)
        var bgra = rgba
        var rgbPadded = [UInt8](repeating: 0, count: (33 * 3 + 5) * 21)
        for y in 0..<21 {
            for x in 0..<33 {
                let c = rgb[x, y], o = y * stride + x * 4
                rgba[o] = c.red; rgba[o + 1] = c.green; rgba[o + 2] = c.blue; rgba[o + 3] = 77
                bgra[o] = c.blue; bgra[o + 1] = c.green; bgra[o + 2] = c.red; bgra[o + 3] = 77
                let p = y * (33 * 3 + 5) + x * 3
                rgbPadded[p] = c.red; rgbPadded[p + 1] = c.green; rgbPadded[p + 2] = c.blue
            }
        }
        XCTAssertEqual(try VisionImage(pixels: rgba, width: 33, height: 21, format: .rgba8, bytesPerRow: stride).uprightRGB(), rgb)
        XCTAssertEqual(try VisionImage(pixels: bgra, width: 33, height: 21, format: .bgra8, bytesPerRow: stride).uprightRGB(), rgb)
        XCTAssertEqual(try VisionImage(pixels: rgbPadded, width: 33, height: 21, format: .rgb8, bytesPerRow: 33 * 3 + 5).uprightRGB(), rgb)
        // The last row needs no padding after it.
        let trimmed = Array(rgba.prefix(stride * 20 + 33 * 4))
        XCTAssertEqual(try VisionImage(pixels: trimmed, width: 33, height: 21, format: .rgba8, bytesPerRow: stride).uprightRGB(), rgb)

        let grayPixels: [UInt8] = [10, 20, 30, 0, 40, 50, 60, 0]
        let gray = try VisionImage(pixels: grayPixels, width: 3, height: 2, format: .gray8, bytesPerRow: 4).uprightRGB()
        XCTAssertEqual(gray.pixels, [10, 10, 10, 20, 20, 20, 30, 30, 30, 40, 40, 40, 50, 50, 50, 60, 60, 60])
    }

    func testBadSizesStridesAndShortBuffersThrow() {
        XCTAssertThrowsError(try VisionImage(pixels: [UInt8](repeating: 0, count: 12), width: 2, height: 2, format: .rgba8, bytesPerRow: 7)) {
            XCTAssertEqual($0 as? ImageError, .invalidRowStride(plane: "rgba8", bytesPerRow: 7, minimum: 8))
        }
        XCTAssertThrowsError(try VisionImage(pixels: [UInt8](repeating: 0, count: 15), width: 2, height: 2, format: .rgba8)) {
            XCTAssertEqual($0 as? ImageError, .bufferTooShort(plane: "rgba8", required: 16, actual: 15))
        }
        XCTAssertThrowsError(try VisionImage(pixels: [], width: 0, height: 2, format: .gray8)) {
            XCTAssertEqual($0 as? ImageError, .invalidDimensions(width: 0, height: 2))
        }
        XCTAssertThrowsError(try VisionImage(pixels: [], width: -3, height: 2, format: .gray8)) {
            XCTAssertEqual($0 as? ImageError, .invalidDimensions(width: -3, height: 2))
        }
        // Caps are checked before the buffer is looked at.
        XCTAssertThrowsError(try VisionImage(pixels: [], width: 1 << 20, height: 1 << 20, format: .gray8)) {
            XCTAssertEqual($0 as? ImageError, .tooManyPixels(width: 1 << 20, height: 1 << 20, limit: 1 << 28))
        }
        XCTAssertThrowsError(try VisionImage(pixels: [], width: Int.max, height: 3, format: .gray8)) {
            XCTAssertEqual($0 as? ImageError, .tooManyPixels(width: Int.max, height: 3, limit: 1 << 28))
        }
        XCTAssertThrowsError(try VisionImage(pixels: [UInt8](repeating: 0, count: 100), width: 10, height: 10,
                                             format: .gray8, limits: ImageLimits(maxPixelCount: 99)))
        // Huge strides must not overflow.
        XCTAssertThrowsError(try VisionImage(pixels: [1, 2, 3], width: 1, height: 3, format: .gray8, bytesPerRow: Int.max / 2)) {
            guard case .bufferTooShort = $0 as? ImageError else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try VisionImage(nv12Y: [UInt8](repeating: 0, count: 16), uv: [UInt8](repeating: 0, count: 7),
                                             width: 4, height: 4)) {
            XCTAssertEqual($0 as? ImageError, .bufferTooShort(plane: "UV", required: 8, actual: 7))
        }
        XCTAssertThrowsError(try VisionImage(planarYUV: .i420, y: [UInt8](repeating: 0, count: 15), u: [0, 0, 0, 0],
                                             v: [0, 0, 0, 0], width: 4, height: 4)) {
            XCTAssertEqual($0 as? ImageError, .bufferTooShort(plane: "Y", required: 16, actual: 15))
        }
        XCTAssertThrowsError(try VisionImage(pixels: [0, 0, 0], width: 1, height: 1, format: .nv12))
        XCTAssertThrowsError(try RGBImage(width: 2, height: 2, pixels: [0, 0, 0]))
    }
}

final class ImageConversionHelperTests: XCTestCase {
    func testConvertedToRGBKeepsOrientationAndPixels() throws {
        let y = (0..<(6 * 4)).map { UInt8(40 + $0 * 7) }
        let image = try VisionImage(nv12Y: y, uv: [UInt8](repeating: 100, count: 12), width: 6, height: 4, orientation: .down)
        let converted = image.convertedToRGB()
        XCTAssertEqual(converted.format, .rgb8)
        XCTAssertEqual(converted.orientation, .down)
        XCTAssertEqual(converted.uprightRGB(), image.uprightRGB())
        let rect = ImageRect(x: 1, y: 2, width: 3, height: 4)
        XCTAssertEqual(ImageRect(rect.boundingBox), rect)
    }
}
