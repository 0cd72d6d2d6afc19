import Foundation
import ImageCodecs
import ObjectDetection
import TestSupport
import XCTest

final class PNGDecoderTests: XCTestCase {
    /// Expected values read with Pillow 11 (`Image.open(path).getpixel((x, y))` and
    /// `sum(Image.open(path).tobytes())`) from the pinned sample photos.
    struct SamplePhoto {
        let name: String
        let width: Int
        let height: Int
        let channels: Int
        let byteSum: Int
        let pixels: [(x: Int, y: Int, value: [UInt8])]
    }

    static let samples: [SamplePhoto] = [
        SamplePhoto(name: "astronaut.png", width: 512, height: 512, channels: 3, byteSum: 90_124_324,
                    pixels: [(0, 0, [154, 147, 151]), (511, 511, [0, 0, 0]), (256, 170, [213, 201, 201]),
                             (17, 507, [167, 143, 145])]),
        SamplePhoto(name: "camera.png", width: 512, height: 512, channels: 1, byteSum: 33_832_495,
                    pixels: [(0, 0, [200]), (511, 511, [149]), (256, 170, [218]), (17, 507, [22])]),
        SamplePhoto(name: "chelsea.png", width: 451, height: 300, channels: 3, byteSum: 46_802_357,
                    pixels: [(0, 0, [143, 120, 104]), (450, 299, [162, 138, 128]), (225, 100, [186, 140, 106]),
                             (17, 295, [144, 101, 66])]),
        SamplePhoto(name: "coffee.png", width: 600, height: 400, channels: 3, byteSum: 71_003_487,
                    pixels: [(0, 0, [21, 13, 8]), (599, 399, [143, 60, 29]), (300, 133, [225, 135, 49]),
                             (17, 395, [195, 148, 110])]),
        SamplePhoto(name: "motorcycle.png", width: 741, height: 500, channels: 3, byteSum: 119_713_739,
                    pixels: [(0, 0, [127, 79, 53]), (740, 499, [164, 142, 134]), (370, 166, [36, 23, 20]),
                             (17, 495, [137, 131, 128])]),
        SamplePhoto(name: "rocket.png", width: 640, height: 427, channels: 3, byteSum: 53_516_744,
                    pixels: [(0, 0, [17, 33, 58]), (639, 426, [83, 61, 37]), (320, 142, [93, 85, 82]),
                             (17, 422, [42, 41, 47])]),
    ]

    func testDecodesEverySamplePhotoLikePillow() throws {
        for sample in Self.samples {
            let path = try ImageTestPaths.sample(sample.name)
            let decoded = try PNGDecoder.decode(contentsOf: path)
            XCTAssertEqual(decoded.width, sample.width, sample.name)
            XCTAssertEqual(decoded.height, sample.height, sample.name)
            XCTAssertEqual(decoded.channels, sample.channels, sample.name)
            XCTAssertEqual(decoded.pixels.reduce(0) { $0 + Int($1) }, sample.byteSum, sample.name)
            for (x, y, value) in sample.pixels {
                let start = (y * sample.width + x) * sample.channels
                XCTAssertEqual(Array(decoded.pixels[start..<start + sample.channels]), value, "\(sample.name) (\(x), \(y))")
            }
            let image = try VisionImage(pngFile: path)
            XCTAssertEqual(image.format, sample.channels == 1 ? .gray8 : .rgb8)
            let rgb = image.uprightRGB()
            let (x, y, value) = sample.pixels[2]
            let expected = value.count == 1 ? RGBColor(red: value[0], green: value[0], blue: value[0])
                : RGBColor(red: value[0], green: value[1], blue: value[2])
            XCTAssertEqual(rgb[x, y], expected, sample.name)
        }
    }

    func testRoundTripPreservesPixels() throws {
        let original = try RGBImage(pngFile: ImageTestPaths.sample("chelsea.png"))
        let encoded = try original.pngData()
        XCTAssertEqual(Array(encoded.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        XCTAssertEqual(try RGBImage(pngData: encoded), original)

        let gray = try PNGDecoder.decode(contentsOf: ImageTestPaths.sample("camera.png"))
        let grayEncoded = try PNGEncoder.encode(pixels: gray.pixels, width: gray.width, height: gray.height, channels: 1)
        XCTAssertEqual(try PNGDecoder.decode(grayEncoded), gray)

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("litevision-roundtrip-\(UUID()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try original.writePNG(to: path)
        XCTAssertEqual(try RGBImage(pngFile: path), original)
    }

    /// Small PNGs of every color type and bit depth, written by a 30-line Python PNG writer
    /// (zlib + struct) with the pixel formulas below; 7×5 pixels each.
    ///   rgb(x, y) = (x·37 % 256, y·53 % 256, x·y·11 % 256), gray(x, y) = (x·37 + y·53) % 256,
    ///   alpha(x, y) = (x·40 + 3) % 256; 16-bit samples are v·257 − (x % 2)·100 (0 stays 0);
    ///   palette index (x + 7y) % 16 → (16i, 255 − 16i, 5i); 1-bit gray bit (x + y) % 2.
    static let flavours: [String: String] = [
        "rgb8": "iVBORw0KGgoAAAANSUhEUgAAAAcAAAAFCAIAAAAG+GGPAAAAaUlEQVR4nA3IoRHDMAxA0Q97Vx4eIGaqCzf0BOFlAvUSHsFcqLxUC3QCwZxnSR98AAINOkwIWP9CEX023bruU0vosbSCIbY1K93qtDPsvWyAI743r91f00f4Z/kPEsnS8uw5Zn4jr5WPG+/DJbLUJdNPAAAAAElFTkSuQmCC",
        "rgba8": "iVBORw0KGgoAAAANSUhEUgAAAAcAAAAFCAYAAACJmvbYAAAAhklEQVR4nA3JIQ4DIRAF0J/UNKlfv6IK7KQeicWsrxtRDoDlCPgRpL6WC9RgRzZcYi/QefYBwOUOuAikDJQG9AHMBZwAWdLNRdpSpr008n3QYy4KlmzJm4vsU+ZQGh998GsurpZiKbuLElKWZ2lS+5D3XPK1VEv1LuqRstbS9NOH/ubS6/kHNVg2g8GVcY0AAAAASUVORK5CYII=",
        "gray8": "iVBORw0KGgoAAAANSUhEUgAAAAcAAAAFCAAAAACs8akEAAAAM0lEQVR4nAEoANf/AAAlSm+Uud4ANVp/pMnuEwBqj7TZ/iNIAJ/E6Q4zWH0A1PkeQ2iNslRnEay9mYMlAAAAAElFTkSuQmCC",
        "grayAlpha8": "iVBORw0KGgoAAAANSUhEUgAAAAcAAAAFCAQAAAAjkz5TAAAAVklEQVR4nAFLALT/AAADJStKU297lKO5y97zADUDWit/U6R7yaPuyxPzAGoDjyu0U9l7/qMjy0jzAJ8DxCvpUw57M6NYy33zANQD+SseU0N7aKONy7LzyYQifRQ+838AAAAASUVORK5CYII=",
        "rgb16": "iVBORw0KGgoAAAANSUhEUgAAAAcAAAAFEAIAAABWaL3MAAAAsElEQVR4nCXKoQ7CQAyA4amFcBr0BI7JHWaKyfpLppEV3CQPcI9QX0WwC+4EAkOwC5WkrwIr/OJXX1H82tztAPbo7ET2HOyqf1V4b7SZlhcA79fr6JqpuhF5X9c5NNPupep9180U0SiWqysAYl1Hh+VeiRD7Pgcsj0tVxJRmymyU2+oGwNx10XF7+BAxp5QDt+e9KvPjMVMRozJsnwAifR+dDKkiEhnHHGR4n1RFFosv7q5MFzCe/mAAAAAASUVORK5CYII=",
        "gray16": "iVBORw0KGgoAAAANSUhEUgAAAAcAAAAFEAAAAAD8YXVHAAAAVklEQVR4nAFLALT/AAAAJMFKSm8LlJS5Vd7eADU1WfZ/f6RAycnuihMTAGpqjyu0tNl1/v4iv0hIAJ+fxGDp6Q2qMzNX9H19ANTU+ZUeHkLfaGiNKbKy8UsjdZAxuDIAAAAASUVORK5CYII=",
        "rgba16": "iVBORw0KGgoAAAANSUhEUgAAAAcAAAAFEAYAAADZCiqbAAAAuklEQVR4nCXNoQ6DMBDGcRQhoIdGzA1JZ1Ag60nQkycGcg/AI+AmTi2zZA4xMUNmyU4uvEq3r1fR5p/crxcE/ji3f/n3aq12l2iPo/bcaG+b9v8yRmGxxndAY9IUsFizJ6AxeQ5YrMcPoDF17SGRQgp3D0AiDHYJhdUGSNS2gBSeY0CiYfCQWSGX2GAtM37sEi5PDpAZg3PD5a0CZF4WD0UUSn94A4pgQ5dIP2SAItMEKP33AigSRc79ACLri/XOLpZuAAAAAElFTkSuQmCC",
        "palette8": "iVBORw0KGgoAAAANSUhEUgAAAAcAAAAFCAMAAAC+RAbqAAAAMFBMVEUA/wAQ7wUg3wowzw9AvxRQrxlgnx5wjyOAfyiQby2gXzKwTzfAPzzQL0HgH0bwD0uyOw8uAAAAJklEQVR4nGNgYGRiZmFlY2Dn4OTi5uFl4OMHizCwsoFFGHh4wSIAEXgA9CfuFvYAAAAASUVORK5CYII=",
        "gray1": "iVBORw0KGgoAAAANSUhEUgAAAAcAAAAFAQAAAACh4ct1AAAADklEQVR4nGMIYVjFAMYAC5oCUTZBSiQAAAAASUVORK5CYII=",
    ]

    static func rgb(_ x: Int, _ y: Int) -> [UInt8] {
        [UInt8(x * 37 % 256), UInt8(y * 53 % 256), UInt8(x * y * 11 % 256)]
    }

    static func gray(_ x: Int, _ y: Int) -> UInt8 { UInt8((x * 37 + y * 53) % 256) }

    func decodeFlavour(_ name: String) throws -> PNGDecoder.DecodedImage {
        let data = try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(Self.flavours[name])))
        let decoded = try PNGDecoder.decode([UInt8](data))
        XCTAssertEqual(decoded.width, 7, name)
        XCTAssertEqual(decoded.height, 5, name)
        return decoded
    }

    func assertPixels(_ name: String, channels: Int, tolerance: Int = 0,
                      expected: (Int, Int) -> [UInt8]) throws {
        let decoded = try decodeFlavour(name)
        XCTAssertEqual(decoded.channels, channels, name)
        for y in 0..<5 {
            for x in 0..<7 {
                let start = (y * 7 + x) * channels
                let got = Array(decoded.pixels[start..<start + channels])
                let want = expected(x, y)
                for c in 0..<channels {
                    XCTAssertLessThanOrEqual(abs(Int(got[c]) - Int(want[c])), tolerance, "\(name) (\(x), \(y)) c\(c): \(got) vs \(want)")
                }
            }
        }
    }

    func testEveryPNGFlavourDecodesTo8Bit() throws {
        try assertPixels("rgb8", channels: 3) { Self.rgb($0, $1) }
        try assertPixels("rgba8", channels: 3) { Self.rgb($0, $1) }  // alpha dropped, not composited
        try assertPixels("gray8", channels: 1) { [Self.gray($0, $1)] }
        try assertPixels("grayAlpha8", channels: 1) { [Self.gray($0, $1)] }
        try assertPixels("palette8", channels: 3) { x, y in
            let i = (x + y * 7) % 16
            return [UInt8(i * 16), UInt8(255 - i * 16), UInt8(i * 5)]
        }
        try assertPixels("gray1", channels: 1) { x, y in [(x + y) % 2 == 1 ? 255 : 0] }
        // 16-bit samples are reduced to 8 bits by libpng (sRGB-encoded, rounded): within one step.
        try assertPixels("rgb16", channels: 3, tolerance: 1) { Self.rgb($0, $1) }
        try assertPixels("rgba16", channels: 3, tolerance: 1) { Self.rgb($0, $1) }
        try assertPixels("gray16", channels: 1, tolerance: 1) { [Self.gray($0, $1)] }
    }

    func testRejectsNonPNGAndEmptyInput() {
        for bytes: [UInt8] in [[], [0x89, 0x50], Array("GIF89a not a png at all".utf8)] {
            XCTAssertThrowsError(try PNGDecoder.decode(bytes)) { error in
                guard case ImageCodecError.invalidPNG = error else { return XCTFail("unexpected \(error)") }
            }
        }
        XCTAssertThrowsError(try VisionImage(pngFile: "/nonexistent/litevision.png")) { error in
            guard case ImageCodecError.fileAccess = error else { return XCTFail("unexpected \(error)") }
        }
    }

    func testTruncatedAndCorruptedPNGsGiveTypedErrors() throws {
        let original = try PNGDecoder.readFileForTests(ImageTestPaths.sample("coffee.png"))
        var generator = SeededGenerator(seed: 0x5EED)
        // Truncations at random points, including inside the header and the last bytes.
        var cuts = [8, 16, 33, 40, original.count - 1, original.count - 12]
        for _ in 0..<40 { cuts.append(Int.random(in: 1..<original.count, using: &generator)) }
        let complete = try PNGDecoder.decode(original)
        let iendStart = original.count - 12
        for cut in cuts {
            do {
                let decoded = try PNGDecoder.decode(Array(original.prefix(cut)))
                // Only the trailing IEND chunk may be missing: all image data was present.
                XCTAssertGreaterThanOrEqual(cut, iendStart, "cut at \(cut) decoded without error")
                XCTAssertEqual(decoded, complete)
            } catch {
                XCTAssertTrue(error is ImageCodecError, "cut at \(cut): \(error)")
            }
        }
        // Random byte corruption after the signature: either a typed error or a decoded image of
        // the right size (libpng may not notice damage inside ancillary chunks).
        for _ in 0..<40 {
            var damaged = original
            for _ in 0..<4 {
                let index = Int.random(in: 8..<damaged.count, using: &generator)
                damaged[index] ^= UInt8.random(in: 1...255, using: &generator)
            }
            do {
                let decoded = try PNGDecoder.decode(damaged)
                XCTAssertEqual(decoded.pixels.count, decoded.width * decoded.height * decoded.channels)
            } catch {
                XCTAssertTrue(error is ImageCodecError, "\(error)")
            }
        }
    }

    func testDimensionCapIsCheckedBeforeDecoding() throws {
        let data = try PNGDecoder.readFileForTests(ImageTestPaths.sample("rocket.png"))
        XCTAssertThrowsError(try PNGDecoder.decode(data, limits: ImageLimits(maxPixelCount: 640 * 427 - 1))) { error in
            XCTAssertEqual(error as? ImageCodecError,
                           .image(.tooManyPixels(width: 640, height: 427, limit: 640 * 427 - 1)))
        }
        // A header claiming 100000 × 100000 pixels is refused without allocating.
        var huge = Array(data.prefix(33))
        huge.replaceSubrange(16..<24, with: [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0])
        let crc = crc32(Array(huge[12..<29]))
        huge.replaceSubrange(29..<33, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        huge += Array(data[33...])
        XCTAssertThrowsError(try PNGDecoder.decode(huge)) { error in
            XCTAssertEqual(error as? ImageCodecError,
                           .image(.tooManyPixels(width: 100_000, height: 100_000, limit: 1 << 28)))
        }
    }

    /// CRC-32 (PNG polynomial) for forging a valid IHDR in the cap test.
    func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

extension PNGDecoder {
    static func readFileForTests(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
