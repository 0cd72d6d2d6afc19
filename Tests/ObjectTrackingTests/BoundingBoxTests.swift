import XCTest
import ObjectTracking

final class BoundingBoxTests: XCTestCase {
    func testIoUOfPartialOverlap() {
        let a = BoundingBox(x: 0, y: 0, width: 10, height: 10)
        let b = BoundingBox(x: 5, y: 0, width: 10, height: 10)
        XCTAssertEqual(a.intersectionOverUnion(b), 50.0 / 150.0, accuracy: 1e-12)
        XCTAssertEqual(b.intersectionOverUnion(a), a.intersectionOverUnion(b))
        XCTAssertEqual(a.intersectionOverUnion(a), 1)
    }

    func testTouchingDisjointAndEmptyBoxesHaveZeroIoU() {
        let a = BoundingBox(x: 0, y: 0, width: 10, height: 10)
        XCTAssertEqual(a.intersectionOverUnion(BoundingBox(x: 10, y: 0, width: 5, height: 5)), 0)
        XCTAssertEqual(a.intersectionOverUnion(BoundingBox(x: 50, y: 50, width: 5, height: 5)), 0)
        XCTAssertEqual(a.intersectionOverUnion(BoundingBox(x: 2, y: 2, width: 0, height: 5)), 0)
        XCTAssertEqual(a.intersectionOverUnion(BoundingBox(x: 2, y: 2, width: -3, height: 5)), 0)
        XCTAssertEqual(a.intersectionOverUnion(BoundingBox(x: .nan, y: 2, width: 3, height: 5)), 0)
        XCTAssertEqual(BoundingBox(x: 0, y: 0, width: .infinity, height: 1).area, 0)
    }

    func testCenterInitializer() {
        let box = BoundingBox(centerX: 10, centerY: 20, width: 4, height: 6)
        XCTAssertEqual(box.x, 8); XCTAssertEqual(box.y, 17)
        XCTAssertEqual(box.centerX, 10); XCTAssertEqual(box.centerY, 20)
    }
}
