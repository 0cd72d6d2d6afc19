import ObjectDetection
import TestSupport
import XCTest

final class ImageYUVTests: XCTestCase {
    /// BT.601 forward transform in double precision (the test's own reference).
    static func yuv(_ c: RGBColor, range: YUVColorRange) -> (Double, Double, Double) {
        let r = Double(c.red), g = Double(c.green), b = Double(c.blue)
        let y = 0.299 * r + 0.587 * g + 0.114 * b
        let cb = (b - y) / 1.772, cr = (r - y) / 1.402
        if range == .full { return (y, cb + 128, cr + 128) }
        return (16 + y * 219 / 255, 128 + cb * 224 / 255, 128 + cr * 224 / 255)
    }

    /// BT.601 inverse in double precision.
    static func rgb(y: UInt8, u: UInt8, v: UInt8, range: YUVColorRange) -> [Double] {
        var yy = Double(y), cb = Double(u) - 128, cr = Double(v) - 128
        if range == .video {
            yy = (yy - 16) * 255 / 219
            cb *= 255 / 224
            cr *= 255 / 224
        }
        return [yy + 1.402 * cr, yy - 0.344136 * cb - 0.714136 * cr, yy + 1.772 * cb].map { min(255, max(0, $0)) }
    }

    static func byte(_ value: Double) -> UInt8 { UInt8(min(255, max(0, value.rounded()))) }

    /// Converts a photo crop to 4:2:0 (chroma = mean of each 2×2 block) in I420 and NV12 layouts.
    struct YUVFrames {
        var y: [UInt8], u: [UInt8], v: [UInt8], uv: [UInt8]
    }

    func makeFrames(_ image: RGBImage, range: YUVColorRange) -> YUVFrames {
        let w = image.width, h = image.height, cw = (w + 1) / 2, ch = (h + 1) / 2
        var frames = YUVFrames(y: [], u: [UInt8](repeating: 0, count: cw * ch), v: [UInt8](repeating: 0, count: cw * ch),
                               uv: [UInt8](repeating: 0, count: cw * ch * 2))
        for py in 0..<h { for px in 0..<w { frames.y.append(Self.byte(Self.yuv(image[px, py], range: range).0)) } }
        for cy in 0..<ch {
            for cx in 0..<cw {
                var su = 0.0, sv = 0.0, n = 0.0
                for py in (cy * 2)..<min(h, cy * 2 + 2) {
                    for px in (cx * 2)..<min(w, cx * 2 + 2) {
                        let t = Self.yuv(image[px, py], range: range)
                        su += t.1; sv += t.2; n += 1
                    }
                }
                frames.u[cy * cw + cx] = Self.byte(su / n)
                frames.v[cy * cw + cx] = Self.byte(sv / n)
                frames.uv[(cy * cw + cx) * 2] = frames.u[cy * cw + cx]
                frames.uv[(cy * cw + cx) * 2 + 1] = frames.v[cy * cw + cx]
            }
        }
        return frames
    }

    func testNV12AndI420MatchReferenceAndOriginalRGB() throws {
        // Odd size on purpose (chroma planes round up).
        let original = try ImageTestFixtures.photoCrop("astronaut.png", x: 150, y: 100, width: 45, height: 33)
        for range in [YUVColorRange.video, .full] {
            let f = makeFrames(original, range: range)
            let i420 = try VisionImage(planarYUV: .i420, y: f.y, u: f.u, v: f.v, width: 45, height: 33, range: range).uprightRGB()
            let nv12 = try VisionImage(nv12Y: f.y, uv: f.uv, width: 45, height: 33, range: range).uprightRGB()
            XCTAssertEqual(i420, nv12, "\(range)")
            let cw = 23
            var maxReferenceError = 0, totalError = 0
            for py in 0..<33 {
                for px in 0..<45 {
                    let c = (py / 2) * cw + px / 2
                    let reference = Self.rgb(y: f.y[py * 45 + px], u: f.u[c], v: f.v[c], range: range)
                    let got = i420[px, py], want = original[px, py]
                    for (value, (expected, source)) in zip([got.red, got.green, got.blue],
                                                           zip(reference, [want.red, want.green, want.blue])) {
                        maxReferenceError = max(maxReferenceError, abs(Int(value) - Int(expected.rounded())))
                        totalError += abs(Int(value) - Int(source))
                    }
                }
            }
            // Fixed-point conversion within one step of the double-precision BT.601 inverse.
            XCTAssertLessThanOrEqual(maxReferenceError, 1, "\(range)")
            // Round trip through 4:2:0 stays close to the photo (chroma subsampling loses detail).
            let meanError = Double(totalError) / Double(45 * 33 * 3)
            XCTAssertLessThan(meanError, range == .full ? 3.0 : 3.5, "\(range)")
        }
    }

    func testFullRangeMatchesPillowYCbCr() throws {
        // Pillow 11: Image.new("YCbCr", (1, 1), (y, cb, cr)).convert("RGB").getpixel((0, 0))
        let cases: [([UInt8], [UInt8])] = [
            ([128, 128, 128], [128, 128, 128]), ([76, 85, 255], [254, 0, 0]), ([150, 44, 21], [0, 255, 1]),
            ([29, 255, 107], [0, 0, 254]), ([0, 0, 0], [0, 135, 0]), ([255, 255, 255], [255, 120, 255]),
            ([200, 90, 160], [244, 190, 132]),
        ]
        for (yuv, expected) in cases {
            let image = try VisionImage(planarYUV: .i444, y: [yuv[0]], u: [yuv[1]], v: [yuv[2]], width: 1, height: 1, range: .full)
            let got = image.uprightRGB().pixels
            for c in 0..<3 { XCTAssertLessThanOrEqual(abs(Int(got[c]) - Int(expected[c])), 1, "\(yuv) → \(got) vs \(expected)") }
        }
    }

    func testPlanarStridesAndContiguousLayout() throws {
        let original = try ImageTestFixtures.photoCrop("rocket.png", x: 300, y: 100, width: 20, height: 14)
        let f = makeFrames(original, range: .video)
        let reference = try VisionImage(planarYUV: .i420, y: f.y, u: f.u, v: f.v, width: 20, height: 14).uprightRGB()
        // Padded planes.
        func pad(_ plane: [UInt8], width: Int, stride: Int) -> [UInt8] {
            var out = [UInt8]()
            for row in 0..<(plane.count / width) { out += plane[(row * width)..<(row * width + width)] + [UInt8](repeating: 9, count: stride - width) }
            return out
        }
        let padded = try VisionImage(planarYUV: .i420, y: pad(f.y, width: 20, stride: 32), yBytesPerRow: 32,
                                     u: pad(f.u, width: 10, stride: 16), uBytesPerRow: 16,
                                     v: pad(f.v, width: 10, stride: 16), vBytesPerRow: 16, width: 20, height: 14)
        XCTAssertEqual(padded.uprightRGB(), reference)
        let nv12 = try VisionImage(nv12Y: pad(f.y, width: 20, stride: 24), yBytesPerRow: 24,
                                   uv: pad(f.uv, width: 20, stride: 64), uvBytesPerRow: 64, width: 20, height: 14)
        XCTAssertEqual(nv12.uprightRGB(), reference)
        let contiguous = try VisionImage(contiguousPlanarYUV: .i420, bytes: f.y + f.u + f.v, width: 20, height: 14)
        XCTAssertEqual(contiguous.uprightRGB(), reference)
        XCTAssertThrowsError(try VisionImage(contiguousPlanarYUV: .i420, bytes: f.y + f.u + f.v.dropLast(), width: 20, height: 14)) {
            XCTAssertEqual($0 as? ImageError, .bufferTooShort(plane: "V", required: 420, actual: 419))
        }
        // Orientation applies to YUV buffers too.
        let rotated = try VisionImage(planarYUV: .i420, y: f.y, u: f.u, v: f.v, width: 20, height: 14, orientation: .right)
        let upright = rotated.uprightRGB()
        XCTAssertEqual(upright.width, 14)
        XCTAssertEqual(upright.height, 20)
        XCTAssertEqual(upright[13, 0], reference[0, 0])  // stored row 0 is the upright right edge
    }

    /// The one-pass oriented YUV conversion equals converting first and rotating the RGB result.
    func testOrientedYUVConversionMatchesConvertThenRotate() throws {
        var generator = SeededGenerator(seed: 5)
        func plane(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        let width = 37, height = 45  // odd and larger than one 32-pixel tile
        let y = plane(width * height)
        let u420 = plane(19 * 23), v420 = plane(19 * 23), uv = plane(19 * 2 * 23 + 5)
        let u422 = plane(19 * height), v422 = plane(19 * height), u444 = plane(width * height), v444 = plane(width * height)
        for orientation in ImageOrientation.allCases {
            for range in [YUVColorRange.video, .full] {
                let images = [
                    try VisionImage(nv12Y: y, uv: uv, width: width, height: height, range: range, orientation: orientation),
                    try VisionImage(planarYUV: .i420, y: y, u: u420, v: v420, width: width, height: height, range: range,
                                    orientation: orientation),
                    try VisionImage(planarYUV: .i422, y: y, u: u422, v: v422, width: width, height: height, range: range,
                                    orientation: orientation),
                    try VisionImage(planarYUV: .i444, y: y, u: u444, v: v444, width: width, height: height, range: range,
                                    orientation: orientation),
                ]
                for image in images {
                    let reference = VisionImage(image.storedRGB(), orientation: orientation).uprightRGB()
                    XCTAssertEqual(image.uprightRGB(), reference, "\(image.format) \(orientation) \(range)")
                }
            }
        }
    }
}
