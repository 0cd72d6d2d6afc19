@testable import TFLiteKernels
import XCTest

/// The workspace's byte count, which the interpreter counts against its memory policy before
/// creating it, is the element storage the workspace really holds.
final class DetectionPostProcessWorkspaceTests: XCTestCase {
    func testByteCountIsTheStorageTheWorkspaceHolds() {
        for (boxes, encoding, classes, maxDetections) in [(1917, 4, 2, 10), (0, 4, 0, 0), (100, 10, 91, 25)] {
            let parameters = DetectionPostProcessParameters(maxDetections: maxDetections, maxClassesPerDetection: 1,
                                                            scoreThreshold: 0.5, iouThreshold: 0.6, numClasses: max(0, classes - 1),
                                                            yScale: 10, xScale: 10, hScale: 5, wScale: 5)
            let w = DetectionPostProcessWorkspace(boxCount: boxes, encodingLength: encoding, classesWithBackground: classes,
                                                  parameters: parameters)
            let float = MemoryLayout<Float>.stride, int = MemoryLayout<Int>.stride
            let held = float * (w.decodedBoxes.count + w.scores.count + w.encodings.count + w.anchors.count + w.classScores.count
                                + w.keepScores.capacity + w.mergedScores.count + w.sortedValues.count + w.maxScores.count)
                + int * (w.keepIndices.capacity + w.sortedIndices.capacity + w.selected.capacity + w.mergedIndices.count
                         + w.mergeOrder.count + w.sortedClassIndices.count + w.rowOrder.count)
                + MemoryLayout<Bool>.stride * w.active.capacity
            // reserveCapacity may round up; the count must cover at least the requested storage.
            let counted = DetectionPostProcessWorkspace.byteCount(boxCount: boxes, encodingLength: encoding,
                                                                  classesWithBackground: classes, parameters: parameters)
            XCTAssertLessThanOrEqual(counted, held, "\(boxes) boxes")
            XCTAssertGreaterThanOrEqual(counted, held - 4 * 64, "\(boxes) boxes: only capacity rounding may differ")
        }
        let huge = DetectionPostProcessParameters(maxDetections: Int.max, maxClassesPerDetection: 1, scoreThreshold: 0,
                                                  iouThreshold: 0.5, numClasses: 1, yScale: 1, xScale: 1, hScale: 1, wScale: 1)
        XCTAssertEqual(DetectionPostProcessWorkspace.byteCount(boxCount: 10, encodingLength: 4, classesWithBackground: 2,
                                                               parameters: huge), Int.max, "saturates, never overflows")
    }
}
