import Foundation
import ImageCodecs
import ObjectDetection
import XCTest

final class ImageDrawingTests: XCTestCase {
    let red = RGBColor(red: 255, green: 0, blue: 0)

    func lit(_ image: RGBImage) -> Set<[Int]> {
        var set = Set<[Int]>()
        for y in 0..<image.height { for x in 0..<image.width where image[x, y] != .black { set.insert([x, y]) } }
        return set
    }

    func testRectangleOutlinePixels() throws {
        var image = try RGBImage(width: 20, height: 20)
        image.drawRectangle(ImageRect(x: 2, y: 3, width: 10, height: 8), color: red, thickness: 2)
        var expected = Set<[Int]>()
        for y in 3..<11 {
            for x in 2..<12 where x < 4 || x >= 10 || y < 5 || y >= 9 { expected.insert([x, y]) }
        }
        XCTAssertEqual(lit(image), expected)
        XCTAssertEqual(expected.count, 10 * 8 - 6 * 4)
        XCTAssertEqual(image[2, 3], red)
        XCTAssertEqual(image[11, 10], red)
        XCTAssertEqual(image[5, 6], .black)
        // Fractional rectangles cover every pixel they touch.
        var fractional = try RGBImage(width: 10, height: 10)
        fractional.drawRectangle(ImageRect(x: 1.5, y: 1.2, width: 3, height: 2.1), color: red, thickness: 1)
        XCTAssertEqual(lit(fractional), Set([[1, 1], [2, 1], [3, 1], [4, 1], [1, 2], [4, 2], [1, 3], [2, 3], [3, 3], [4, 3]]))
    }

    func testClippingAndDegenerateInputsNeverCrash() throws {
        var image = try RGBImage(width: 8, height: 6)
        image.drawRectangle(ImageRect(x: -1, y: -1, width: 100, height: 100), color: red, thickness: 3)
        XCTAssertEqual(image[0, 0], red)
        XCTAssertEqual(image[7, 5], .black)  // the right/bottom edges lie outside the image
        for rect in [ImageRect(x: .nan, y: 0, width: 3, height: 3), ImageRect(x: 0, y: 0, width: -2, height: 3),
                     ImageRect(x: 1e300, y: -1e300, width: 1e300, height: .infinity), ImageRect(x: 50, y: 50, width: 2, height: 2)] {
            image.drawRectangle(rect, color: .white, thickness: 4)
            image.drawLabel("label", for: rect, background: .white)
        }
        image.drawText("far away", x: Int.max - 3, y: Int.min + 2, color: .white, scale: 3)
        image.drawText("huge", x: 0, y: 0, color: .white, scale: Int.max)
        image.drawLabel("huge", for: ImageRect(x: 1, y: 1, width: 2, height: 2), background: .white, scale: Int.max)
        _ = image.annotated(with: [ImageAnnotation(frame: ImageRect(x: 1, y: 1, width: 3, height: 3), label: "x")],
                            thickness: Int.max, textScale: Int.max)
        image.fill(x: Int.max - 1, y: 0, width: Int.max, height: 2, color: .white)
        XCTAssertEqual(image[7, 5], .white)  // the huge label covers everything
    }

    func testTextMatchesGlyphBits() throws {
        var image = try RGBImage(width: 20, height: 10)
        image.drawText("Hi", x: 1, y: 2, color: .white)
        var expected = Set<[Int]>()
        for (index, character) in "Hi".enumerated() {
            for (row, bits) in BitmapFont.glyph(for: character).enumerated() {
                for column in 0..<5 where bits & (0x10 >> UInt8(column)) != 0 {
                    expected.insert([1 + index * 6 + column, 2 + row])
                }
            }
        }
        XCTAssertEqual(lit(image), expected)
        // "H": both vertical strokes fully lit, crossbar on the middle row.
        for row in 0..<7 {
            XCTAssertEqual(image[1, 2 + row], .white)
            XCTAssertEqual(image[5, 2 + row], .white)
        }
        XCTAssertEqual(image[3, 5], .white)
        XCTAssertEqual(image[3, 2], .black)
        // Scale 2 draws each font pixel as a 2×2 block.
        var big = try RGBImage(width: 20, height: 20)
        big.drawText("H", x: 0, y: 0, color: .white, scale: 2)
        XCTAssertEqual(lit(big).count, 4 * expected.filter { $0[0] < 6 }.count)
        XCTAssertEqual(BitmapFont.size(of: "Hi", scale: 2).width, 22)
    }

    func testFontCoversPrintableASCIIWithDistinctGlyphs() {
        var seen = Set<[UInt8]>()
        for code in 33...126 {
            let glyph = Array(BitmapFont.glyph(for: Character(UnicodeScalar(UInt8(code)))))
            XCTAssertEqual(glyph.count, 7)
            XCTAssertTrue(glyph.contains { $0 != 0 }, "glyph \(code) is blank")
            XCTAssertTrue(glyph.allSatisfy { $0 < 32 }, "glyph \(code) wider than 5")
            XCTAssertTrue(seen.insert(glyph).inserted, "glyph \(code) duplicates another")
        }
        XCTAssertEqual(Array(BitmapFont.glyph(for: "é")), Array(BitmapFont.glyph(for: "?")))
    }

    func testLabelPlacementAndContrast() throws {
        var image = try RGBImage(width: 60, height: 40)
        image.drawLabel("A", for: ImageRect(x: 10, y: 20, width: 30, height: 15), background: .white)
        // Box height 7 + 2 = 9 above y = 20: rows 11...19, columns 10...16 (5 + 2).
        XCTAssertEqual(image[10, 11], .white)
        XCTAssertEqual(image[16, 19], .white)
        XCTAssertEqual(image[17, 19], .black)
        XCTAssertEqual(image[10, 10], .black)
        XCTAssertEqual(image[12, 12], .black)  // top row of "A" is ".###.": column 1 of the glyph is dark text
        XCTAssertEqual(image[11, 12], .white)
        // At the top edge the label goes inside the box; dark backgrounds get white text.
        var top = try RGBImage(width: 60, height: 40, fill: .white)
        let navy = RGBColor(red: 0, green: 0, blue: 90)
        top.drawLabel("A", for: ImageRect(x: 0, y: 0, width: 30, height: 30), background: navy)
        XCTAssertEqual(top[0, 0], navy)
        XCTAssertEqual(top[2, 1], .white)
    }

    func testAnnotatedPhotoRoundTripsThroughPNG() throws {
        let photo = try ImageTestFixtures.photo("motorcycle.png")
        let annotations = [
            ImageAnnotation(frame: ImageRect(x: 100, y: 120, width: 300, height: 200), label: "Vehicle 0.91", trackingID: 3),
            ImageAnnotation(frame: ImageRect(x: 500, y: 300, width: 100, height: 100), label: nil, trackingID: nil),
        ]
        let annotated = photo.annotated(with: annotations, thickness: 3, textScale: 2)
        let color3 = AnnotationPalette.color(forTrackingID: 3)
        XCTAssertEqual(annotated[100, 200], color3)
        XCTAssertEqual(annotated[399, 319], color3)
        XCTAssertEqual(annotated[102, 250], color3)
        XCTAssertEqual(annotated[103, 250], photo[103, 250])
        XCTAssertEqual(annotated[550, 300], AnnotationPalette.color(forTrackingID: nil))
        XCTAssertEqual(annotated[700, 50], photo[700, 50])
        // Label box "#3 Vehicle 0.91" above the box: 14 + 4 = 18 rows high.
        XCTAssertEqual(annotations[0].caption, "#3 Vehicle 0.91")
        XCTAssertEqual(annotated[100, 102], color3)
        XCTAssertEqual(annotated[100, 101], photo[100, 101])

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("litevision-annotated-\(UUID()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try VisionImage(photo).writeAnnotatedPNG(annotations, to: path, thickness: 3, textScale: 2)
        XCTAssertEqual(try RGBImage(pngFile: path), annotated)
    }

    func testPaletteIsStablePerID() {
        XCTAssertEqual(AnnotationPalette.color(forTrackingID: 5), AnnotationPalette.color(forTrackingID: 5 + AnnotationPalette.colors.count))
        XCTAssertNotEqual(AnnotationPalette.color(forTrackingID: 1), AnnotationPalette.color(forTrackingID: 2))
        _ = AnnotationPalette.color(forTrackingID: -7)
        _ = AnnotationPalette.color(forTrackingID: Int.min)
    }
}
