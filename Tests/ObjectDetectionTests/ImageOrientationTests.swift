import ObjectDetection
import TestSupport
import XCTest

final class ImageOrientationTests: XCTestCase {
    func testNamesAndEXIFValues() {
        let expected: [(ImageOrientation, Int, String, String)] = [
            (.up, 1, "up", "topLeft"), (.upMirrored, 2, "upMirrored", "topRight"),
            (.down, 3, "down", "bottomRight"), (.downMirrored, 4, "downMirrored", "bottomLeft"),
            (.leftMirrored, 5, "leftMirrored", "leftTop"), (.right, 6, "right", "rightTop"),
            (.rightMirrored, 7, "rightMirrored", "rightBottom"), (.left, 8, "left", "leftBottom"),
        ]
        for (orientation, exif, name, oldName) in expected {
            XCTAssertEqual(orientation.exifValue, exif)
            XCTAssertEqual(ImageOrientation(exifValue: exif), orientation)
            XCTAssertEqual(ImageOrientation(name: name), orientation)
            XCTAssertEqual(ImageOrientation(name: oldName), orientation)
            XCTAssertEqual(ImageOrientation(name: oldName.uppercased()), orientation)
            XCTAssertEqual(ImageOrientation(name: "\(exif)"), orientation)
        }
        XCTAssertEqual(ImageOrientation.leftBottom, .left)
        XCTAssertEqual(ImageOrientation.rightTop, .right)
        XCTAssertNil(ImageOrientation(exifValue: 0))
        XCTAssertNil(ImageOrientation(exifValue: 9))
        XCTAssertNil(ImageOrientation(name: "sideways"))
    }

    /// Rotates/mirrors an upright image into the buffer a camera with `orientation` would deliver,
    /// written independently of the library: it walks the EXIF definition (where stored row 0 and
    /// column 0 lie in the upright image) rather than using `OrientationTransform`.
    func storedBuffer(for upright: RGBImage, orientation: ImageOrientation) throws -> RGBImage {
        let uw = upright.width, uh = upright.height
        let swaps = orientation.exifValue >= 5
        let sw = swaps ? uh : uw, sh = swaps ? uw : uh
        var stored = try RGBImage(width: sw, height: sh)
        for sy in 0..<sh {
            for sx in 0..<sw {
                let (ux, uy): (Int, Int)
                switch orientation {
                case .up: (ux, uy) = (sx, sy)
                case .upMirrored: (ux, uy) = (uw - 1 - sx, sy)
                case .down: (ux, uy) = (uw - 1 - sx, uh - 1 - sy)
                case .downMirrored: (ux, uy) = (sx, uh - 1 - sy)
                case .leftMirrored: (ux, uy) = (sy, sx)                    // row 0 = left, col 0 = top
                case .right: (ux, uy) = (uw - 1 - sy, sx)                  // row 0 = right, col 0 = top
                case .rightMirrored: (ux, uy) = (uw - 1 - sy, uh - 1 - sx) // row 0 = right, col 0 = bottom
                case .left: (ux, uy) = (sy, uh - 1 - sx)                   // row 0 = left, col 0 = bottom
                }
                stored[sx, sy] = upright[ux, uy]
            }
        }
        return stored
    }

    func testUprightImageOfRotatedBufferEqualsOriginal() throws {
        let upright = try ImageTestFixtures.photoCrop("chelsea.png", x: 100, y: 50, width: 61, height: 37)
        for orientation in ImageOrientation.allCases {
            let stored = try storedBuffer(for: upright, orientation: orientation)
            let image = VisionImage(stored, orientation: orientation)
            XCTAssertEqual(image.uprightWidth, 61, "\(orientation)")
            XCTAssertEqual(image.uprightHeight, 37, "\(orientation)")
            XCTAssertEqual(image.uprightRGB(), upright, "\(orientation)")
            // The same through an RGBA buffer with padded rows.
            var rgba = [UInt8](repeating: 0xEE, count: (stored.width * 4 + 12) * stored.height)
            for y in 0..<stored.height {
                for x in 0..<stored.width {
                    let c = stored[x, y], o = y * (stored.width * 4 + 12) + x * 4
                    rgba[o] = c.red; rgba[o + 1] = c.green; rgba[o + 2] = c.blue; rgba[o + 3] = 255
                }
            }
            let padded = try VisionImage(pixels: rgba, width: stored.width, height: stored.height, format: .rgba8,
                                         bytesPerRow: stored.width * 4 + 12, orientation: orientation)
            XCTAssertEqual(padded.uprightRGB(), upright, "\(orientation) RGBA")
        }
    }

    func testRectanglesMapBothWaysAndMatchPixels() throws {
        let upright = try ImageTestFixtures.photoCrop("coffee.png", x: 200, y: 100, width: 40, height: 30)
        var generator = SeededGenerator(seed: 7)
        for orientation in ImageOrientation.allCases {
            let stored = try storedBuffer(for: upright, orientation: orientation)
            let transform = OrientationTransform(orientation: orientation, storedWidth: stored.width,
                                                 storedHeight: stored.height)
            XCTAssertEqual(transform.uprightWidth, 40)
            XCTAssertEqual(transform.uprightHeight, 30)
            for _ in 0..<50 {
                let x = Int.random(in: 0..<39, using: &generator), y = Int.random(in: 0..<29, using: &generator)
                let w = Int.random(in: 1...(40 - x), using: &generator), h = Int.random(in: 1...(30 - y), using: &generator)
                let rect = ImageRect(x: Double(x), y: Double(y), width: Double(w), height: Double(h))
                let storedRect = transform.storedRect(fromUpright: rect)
                XCTAssertEqual(transform.uprightRect(fromStored: storedRect), rect, "\(orientation)")
                // The stored rectangle holds exactly the same pixels (as a multiset of colors).
                var a = [UInt8](), b = [UInt8]()
                for py in y..<(y + h) { for px in x..<(x + w) { let c = upright[px, py]; a += [c.red, c.green, c.blue] } }
                for py in Int(storedRect.y)..<Int(storedRect.maxY) {
                    for px in Int(storedRect.x)..<Int(storedRect.maxX) { let c = stored[px, py]; b += [c.red, c.green, c.blue] }
                }
                XCTAssertEqual(a.count, b.count)
                // Compare pixel-exact: each upright pixel maps to its stored pixel.
                for py in y..<(y + h) {
                    for px in x..<(x + w) {
                        let s = transform.storedPixel(uprightX: px, uprightY: py)
                        XCTAssertTrue(storedRect.x <= Double(s.x) && Double(s.x) < storedRect.maxX)
                        XCTAssertTrue(storedRect.y <= Double(s.y) && Double(s.y) < storedRect.maxY)
                        XCTAssertEqual(stored[s.x, s.y], upright[px, py])
                    }
                }
            }
            // Point maps invert each other.
            let p = transform.storedPoint(uprightX: 3.25, uprightY: 17.5)
            let q = transform.uprightPoint(storedX: p.x, storedY: p.y)
            XCTAssertEqual(q.x, 3.25)
            XCTAssertEqual(q.y, 17.5)
        }
    }
}

final class ImageOrientationCameraTests: XCTestCase {
    func testDeviceAndCameraTable() {
        XCTAssertEqual(ImageOrientation(device: .portrait, camera: .back), .right)
        XCTAssertEqual(ImageOrientation(device: .portrait, camera: .front), .leftMirrored)
        XCTAssertEqual(ImageOrientation(device: .landscapeLeft, camera: .back), .up)
        XCTAssertEqual(ImageOrientation(device: .landscapeRight, camera: .front), .upMirrored)
        // Front-camera orientations are the mirrored forms; all eight appear exactly once.
        var all = Set<ImageOrientation>()
        for device in DeviceOrientation.allCases {
            for camera in CameraPosition.allCases { all.insert(ImageOrientation(device: device, camera: camera)) }
        }
        XCTAssertEqual(all.count, 8)
    }

    func testClockwiseRotation() throws {
        XCTAssertEqual(ImageOrientation(clockwiseRotationDegrees: 0), .up)
        XCTAssertEqual(ImageOrientation(clockwiseRotationDegrees: 90), .right)
        XCTAssertEqual(ImageOrientation(clockwiseRotationDegrees: 180), .down)
        XCTAssertEqual(ImageOrientation(clockwiseRotationDegrees: 270), .left)
        XCTAssertEqual(ImageOrientation(clockwiseRotationDegrees: -90), .left)
        XCTAssertEqual(ImageOrientation(clockwiseRotationDegrees: 450), .right)
        XCTAssertNil(ImageOrientation(clockwiseRotationDegrees: 45))
        // A buffer rotated 90° counter-clockwise needs a 90° clockwise turn: `.right` undoes it.
        let upright = try RGBImage(width: 3, height: 2, pixels: [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6])
        // Upright   Stored (rotated CCW)
        //  1 2 3     3 6
        //  4 5 6     2 5
        //            1 4
        let stored = try RGBImage(width: 2, height: 3, pixels: [3, 3, 3, 6, 6, 6, 2, 2, 2, 5, 5, 5, 1, 1, 1, 4, 4, 4])
        let orientation = try XCTUnwrap(ImageOrientation(clockwiseRotationDegrees: 90))
        XCTAssertEqual(VisionImage(stored, orientation: orientation).uprightRGB(), upright)
    }
}
