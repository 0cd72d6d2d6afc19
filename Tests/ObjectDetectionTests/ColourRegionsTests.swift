@testable import ObjectDetection
import XCTest

/// ``ColourRegions`` on synthetic images: a smooth gradient is one region, an object standing
/// out from it keeps its own, and a box over part of the object snaps to the whole object.
final class ColourRegionsTests: XCTestCase {
    /// A 200×150 dusk-sky gradient (dark blue, lighter downwards) with a white bar at
    /// x 90..<106, y 20..<140 (a rocket seen small).
    private func sky() throws -> RGBImage {
        var pixels = [UInt8]()
        for y in 0..<150 {
            for x in 0..<200 {
                let bar = (90..<106).contains(x) && (20..<140).contains(y)
                pixels += bar ? [230, 230, 225] : [UInt8(20 + y / 5), UInt8(30 + y / 4), UInt8(90 + y / 3)]
            }
        }
        return try RGBImage(width: 200, height: 150, pixels: pixels)
    }

    func testABoxOverTheTopOfABarSnapsToTheWholeBar() throws {
        let regions = ColourRegions(try sky())
        func label(_ x: Int, _ y: Int) -> Int32 {
            regions.labels[Int(Double(y) * regions.scale) * regions.width + Int(Double(x) * regions.scale)]
        }
        XCTAssertEqual(label(5, 5), label(195, 145), "the gradient, top to bottom and across the bar, is one region")
        XCTAssertNotEqual(label(98, 30), label(60, 30), "the bar is not the sky")
        XCTAssertEqual(label(98, 30), label(98, 130), "the bar is one region")
        // The top of the bar and much sky beside it, as an activation map of the nose gives.
        let box = ImageRect(x: 50, y: 10, width: 100, height: 50)
        let snapped = try XCTUnwrap(regions.snappedBox(box, minimumInside: 0.3, minimumArea: 0.002, maximumArea: 0.2))
        XCTAssertEqual(snapped.rect.x, 90, accuracy: 2)
        XCTAssertEqual(snapped.rect.maxX, 106, accuracy: 2)
        XCTAssertEqual(snapped.rect.y, 20, accuracy: 2)
        XCTAssertEqual(snapped.rect.maxY, 140, accuracy: 2)
        XCTAssertGreaterThan(snapped.fill, 0.9)
        XCTAssertLessThan(snapped.boxFill, 0.2, "the box is mostly sky")
    }

    func testABoxOverBackgroundOnlyFindsNoRegion() throws {
        let regions = ColourRegions(try sky())
        XCTAssertNil(regions.snappedBox(ImageRect(x: 0, y: 0, width: 60, height: 60), minimumInside: 0.3,
                                        minimumArea: 0.002, maximumArea: 0.2), "the sky is background: it covers most of the image")
    }
}
