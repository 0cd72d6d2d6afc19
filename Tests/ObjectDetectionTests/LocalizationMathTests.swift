import Foundation
import XCTest
@testable import ObjectDetection

final class LocalizationMathTests: XCTestCase {
    func testBlazeFaceAnchorCountsMatchTheModelsOutputs() {
        // The models' regressor outputs have 896, 2304 and 896 rows.
        XCTAssertEqual(SSDAnchorOptions.faceShortRange.anchors().count, 896)
        XCTAssertEqual(SSDAnchorOptions.faceFullRange.anchors().count, 2304)
        XCTAssertEqual(SSDAnchorOptions.faceBackCamera.anchors().count, 896)
    }

    func testAnchorsAreCellCentresInOutputOrder() {
        let anchors = SSDAnchorOptions.faceShortRange.anchors()
        // First layer: 16×16 cells, 2 anchors per cell; the first two share the first cell's centre.
        XCTAssertEqual(anchors[0].centerX, 0.5 / 16, accuracy: 1e-12)
        XCTAssertEqual(anchors[1].centerX, 0.5 / 16, accuracy: 1e-12)
        XCTAssertEqual(anchors[2].centerX, 1.5 / 16, accuracy: 1e-12)
        // Second feature map starts after 512 anchors: 8×8 cells, 6 anchors per cell.
        XCTAssertEqual(anchors[512].centerX, 0.5 / 8, accuracy: 1e-12)
        XCTAssertEqual(anchors[517].centerY, 0.5 / 8, accuracy: 1e-12)
        XCTAssertEqual(anchors[518].centerX, 1.5 / 8, accuracy: 1e-12)
    }

    func testYOLODecoderReadsBothLayoutsAndSuppressesOverlaps() throws {
        // Two classes: two overlapping boxes of class 1, one box of class 0, and five
        // below-threshold candidates (real exports have far more candidates than attributes).
        let boxes: [[Float]] = [[0.5, 0.5, 0.2, 0.2], [0.51, 0.5, 0.2, 0.2], [0.2, 0.2, 0.1, 0.1]]
            + Array(repeating: [0.3, 0.3, 0.1, 0.1], count: 5)
        let scores: [[Float]] = [[0.1, 0.9], [0.05, 0.8], [0.7, 0.1]] + Array(repeating: [0.01, 0.02], count: 5)
        let n = boxes.count
        var attributesFirst = [Float](repeating: 0, count: 6 * n)
        var candidatesFirst: [Float] = []
        for i in 0..<n {
            let row = boxes[i] + scores[i]
            candidatesFirst += row
            for a in 0..<6 { attributesFirst[a * n + i] = row[a] }
        }
        let decoder = YOLOOutputDecoder(scoreThreshold: 0.25, iouThreshold: 0.45)
        let a = try decoder.decode(values: attributesFirst, shape: [1, 6, n], inputWidth: 640, inputHeight: 640)
        let b = try decoder.decode(values: candidatesFirst, shape: [1, n, 6], inputWidth: 640, inputHeight: 640)
        XCTAssertEqual(a, b)
        XCTAssertEqual(a.map(\.classIndex), [1, 0])
        XCTAssertEqual(a[0].score, 0.9)
        XCTAssertEqual(a[0].rect.midX, 0.5, accuracy: 1e-6)
        XCTAssertThrowsError(try decoder.decode(values: [1, 2, 3], shape: [1, 3], inputWidth: 1, inputHeight: 1))
    }

    func testConnectedRegionsSeparatesBlobsAndDropsSpecks() {
        // 6×4 map: a 2×2 blob of class 7 at the left, a 3×1 bar of class 3 at the right, one speck.
        let w = 6, h = 4
        var map = [Int32](repeating: 0, count: w * h)
        for (x, y) in [(0, 0), (1, 0), (0, 1), (1, 1)] { map[y * w + x] = 7 }
        for y in 0..<3 { map[y * w + 5] = 3 }
        map[3 * w + 3] = 9
        let regions = connectedRegions(classMap: map, confidence: .init(repeating: 1, count: w * h),
                                       width: w, height: h, minArea: 2)
        XCTAssertEqual(regions.count, 2)
        XCTAssertEqual(regions[0], MaskRegion(minX: 0, minY: 0, maxX: 1, maxY: 1, area: 4, meanConfidence: 1, dominantClass: 7))
        XCTAssertEqual(regions[1].dominantClass, 3)
        XCTAssertEqual(regions[1].area, 3)
    }

    func testWeightedSuppressionBlendsOverlappingBoxes() {
        let a = DetectionCandidate(rect: ImageRect(x: 0, y: 0, width: 1, height: 1), score: 0.75)
        let b = DetectionCandidate(rect: ImageRect(x: 0.1, y: 0, width: 1, height: 1), score: 0.25)
        let far = DetectionCandidate(rect: ImageRect(x: 5, y: 5, width: 1, height: 1), score: 0.5)
        let kept = weightedNonMaxSuppression([b, far, a], iouThreshold: 0.3, maxCount: 10)
        XCTAssertEqual(kept.count, 2)
        XCTAssertEqual(kept[0].rect.x, 0.025, accuracy: 1e-9)
        XCTAssertEqual(kept[0].score, 0.75)
        XCTAssertEqual(kept[1], far)
    }

    func testCoarseCategoriesCoverDisjointClassesAndOlderAPIView() {
        var seen = Set<Int>()
        for (_, indices) in CoarseCategory.imageNetIndices {
            for i in indices { XCTAssertTrue(seen.insert(i).inserted, "class \(i) is in two categories"); XCTAssertTrue((0..<1000).contains(i)) }
        }
        XCTAssertEqual(CoarseCategory.forImageNetClass(967), .food)        // espresso
        XCTAssertEqual(CoarseCategory.forImageNetClass(504), .homeGood)    // coffee mug
        XCTAssertEqual(CoarseCategory.forImageNetClass(281), .unknown)     // tabby cat
        let object = DetectedObject(frame: .zero, trackingID: nil,
                                    labels: [ObjectLabel(text: "Food", index: 1, confidence: 0.8)])
        XCTAssertEqual(object.classificationCategory, .food)
        XCTAssertEqual(object.confidence, 0.8)
        XCTAssertNil(DetectedObject(frame: .zero, trackingID: nil, labels: []).confidence)
    }
}
