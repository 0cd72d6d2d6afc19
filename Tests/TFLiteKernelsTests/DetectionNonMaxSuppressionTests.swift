import XCTest
@testable import TFLiteKernels

/// The standalone NMS (``BoxNonMaxSuppression``) and the reference-order helpers.
final class DetectionNonMaxSuppressionTests: XCTestCase {
    private func box(_ x: Float, _ y: Float, _ side: Float = 10, score: Float, cls: Int = 0) -> ScoredBox {
        ScoredBox(minX: x, minY: y, maxX: x + side, maxY: y + side, score: score, classIndex: cls)
    }

    func testIoU() {
        XCTAssertEqual(BoxNonMaxSuppression.intersectionOverUnion(box(0, 0, score: 1), box(5, 0, score: 1)), 50 / 150, accuracy: 1e-6)
        XCTAssertEqual(BoxNonMaxSuppression.intersectionOverUnion(box(0, 0, score: 1), box(0, 0, 0, score: 1)), 0)
        // Corners in the other order are normalized.
        let flipped = ScoredBox(minX: 10, minY: 10, maxX: 0, maxY: 0, score: 1)
        XCTAssertEqual(BoxNonMaxSuppression.intersectionOverUnion(box(0, 0, score: 1), flipped), 1)
    }

    func testHardNMSClassAwareAndAgnostic() {
        let boxes = [box(0, 0, score: 0.9, cls: 0), box(1, 0, score: 0.8, cls: 1), box(2, 0, score: 0.7, cls: 0),
                     box(50, 50, score: 0.6, cls: 0)]
        XCTAssertEqual(BoxNonMaxSuppression.hard(boxes, iouThreshold: 0.5), [0, 1, 3])
        XCTAssertEqual(BoxNonMaxSuppression.hard(boxes, iouThreshold: 0.5, classAware: false), [0, 3])
        XCTAssertEqual(BoxNonMaxSuppression.hard(boxes, iouThreshold: 0.5, maxOutputs: 2), [0, 1])
        XCTAssertEqual(BoxNonMaxSuppression.hard(boxes, iouThreshold: 0.5, scoreThreshold: 0.75), [0, 1])
        XCTAssertEqual(BoxNonMaxSuppression.hard(boxes, iouThreshold: 0.5, maxOutputs: 0), [])
    }

    func testHardNMSTiesAndBadValues() {
        let boxes = [box(100, 0, score: 0.5), box(0, 0, score: 0.5), box(1, 0, score: 0.5),
                     box(200, 0, score: .nan), ScoredBox(minX: .infinity, minY: 0, maxX: 1, maxY: 1, score: 0.9)]
        // Equal scores: lower index first; box 2 overlaps box 1 (IoU 0.82) and is suppressed.
        XCTAssertEqual(BoxNonMaxSuppression.hard(boxes, iouThreshold: 0.5), [0, 1])
        // IoU exactly at the threshold is kept (suppression needs IoU > threshold).
        let iou = BoxNonMaxSuppression.intersectionOverUnion(boxes[1], boxes[2])
        XCTAssertEqual(BoxNonMaxSuppression.hard(boxes, iouThreshold: iou), [0, 1, 2])
    }

    func testSoftNMSGaussianDecaysOverlapsInsteadOfDropping() {
        let boxes = [box(0, 0, score: 0.9), box(2, 0, score: 0.8), box(50, 0, score: 0.3)]
        let kept = BoxNonMaxSuppression.soft(boxes, method: .gaussian(sigma: 0.5), scoreThreshold: 0.01)
        XCTAssertEqual(kept.map(\.index), [0, 1, 2])
        let iou = BoxNonMaxSuppression.intersectionOverUnion(boxes[0], boxes[1])
        XCTAssertEqual(kept[0].score, 0.9)
        XCTAssertEqual(kept[1].score, 0.8 * expf(-(iou * iou) / 0.5), accuracy: 1e-6)
        XCTAssertLessThan(kept[1].score, 0.8)
        XCTAssertEqual(kept[2].score, 0.3)
        // A high threshold drops the decayed box.
        XCTAssertEqual(BoxNonMaxSuppression.soft(boxes, method: .gaussian(sigma: 0.5), scoreThreshold: 0.35).map(\.index), [0])
    }

    func testSoftNMSLinearAndClassAware() {
        let boxes = [box(0, 0, score: 0.9, cls: 0), box(2, 0, score: 0.8, cls: 0), box(3, 0, score: 0.7, cls: 1)]
        let iou01 = BoxNonMaxSuppression.intersectionOverUnion(boxes[0], boxes[1])
        let linear = BoxNonMaxSuppression.soft(boxes, method: .linear(threshold: 0.3), scoreThreshold: 0.01)
        XCTAssertEqual(linear.map(\.index), [0, 2, 1], "class 1 is untouched by class 0")
        XCTAssertEqual(linear[2].score, 0.8 * (1 - iou01), accuracy: 1e-6)
        XCTAssertEqual(linear[1].score, 0.7)
        let agnostic = BoxNonMaxSuppression.soft(boxes, method: .linear(threshold: 0.3), scoreThreshold: 0.01, classAware: false)
        XCTAssertLessThan(agnostic.first { $0.index == 2 }!.score, 0.7)
        // Below the linear threshold nothing decays.
        XCTAssertEqual(BoxNonMaxSuppression.soft(boxes, method: .linear(threshold: 0.99), maxOutputs: 2).map(\.score), [0.9, 0.8])
    }

    /// The libstdc++ partial sort puts the `k` largest first, in order, for any input.
    func testReferencePartialSortSelectsTopK() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let count = Int.random(in: 1...40, using: &generator)
            let values = (0..<count).map { _ in Float(Int.random(in: 0...6, using: &generator)) }
            let k = Int.random(in: 1...count, using: &generator)
            var order = Array(0..<count)
            ReferenceHeapOrder.partialSort(&order, middle: k, count: count) { values[$0] > values[$1] }
            XCTAssertEqual(Set(order), Set(0..<count), "a permutation")
            let top = order.prefix(k).map { values[$0] }
            XCTAssertEqual(top, Array(values.sorted(by: >).prefix(k)))
        }
    }

    /// The reference priority queue pops in non-increasing order.
    func testReferencePriorityQueueOrder() {
        let values: [Float] = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5]
        var memory = [Float](repeating: .nan, count: values.count)
        memory.withUnsafeMutableBufferPointer { storage in
            var queue = ReferencePriorityQueue<Float>(precedes: { $0 < $1 }, storage: storage)
            for v in values { queue.push(v) }
            XCTAssertEqual(queue.count, values.count)
            var popped: [Float] = []
            while let top = queue.top { popped.append(top); queue.pop() }
            XCTAssertEqual(popped, [9, 6, 5, 5, 5, 4, 3, 3, 2, 1, 1])
            XCTAssertTrue(queue.isEmpty)
        }
    }
}
