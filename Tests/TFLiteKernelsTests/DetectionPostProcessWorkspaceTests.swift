@testable import TFLiteKernels
import XCTest

/// The workspace's byte count, which the interpreter requests as arena scratch, is the block its
/// views are laid out in: every view lies inside it, aligned, apart from the others.
final class DetectionPostProcessWorkspaceTests: XCTestCase {
    private func parameters(maxDetections: Int, numClasses: Int, classesPerBox: Int = 1) -> DetectionPostProcessParameters {
        DetectionPostProcessParameters(maxDetections: maxDetections, maxClassesPerDetection: classesPerBox, scoreThreshold: 0.5,
                                       iouThreshold: 0.6, numClasses: numClasses, yScale: 10, xScale: 10, hScale: 5, wScale: 5)
    }

    /// Each view as a byte range (start offset, bytes) and its element alignment.
    private func ranges(_ w: DetectionPostProcessWorkspace, base: UnsafeMutableRawPointer) -> [(Int, Int, Int)] {
        func range<T>(_ view: UnsafeMutableBufferPointer<T>) -> (Int, Int, Int) {
            guard let start = view.baseAddress else { return (0, 0, 1) }
            return (UnsafeMutableRawPointer(start) - base, view.count * MemoryLayout<T>.stride, MemoryLayout<T>.alignment)
        }
        return [range(w.decodedBoxes), range(w.anchorScores), range(w.keepScores), range(w.keepIndices), range(w.sortedIndices),
                range(w.active), range(w.selected), range(w.mergedIndices), range(w.mergedScores), range(w.mergeOrder),
                range(w.mergeScores), range(w.rankedClasses), range(w.rowOrder)]
    }

    func testViewsLieApartInsideTheBlock() throws {
        for (boxes, classes, classesPerBox, maxDetections) in [(1917, 90, 1, 10), (0, 0, 1, 0), (100, 91, 3, 25), (7, 3, 5, 1)] {
            let p = parameters(maxDetections: maxDetections, numClasses: classes, classesPerBox: classesPerBox)
            let bytes = DetectionPostProcessWorkspace.byteCount(boxCount: boxes, parameters: p)
            let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes), alignment: DetectionPostProcessWorkspace.alignment)
            defer { memory.deallocate() }
            let w = try DetectionPostProcessWorkspace(memory: UnsafeMutableRawBufferPointer(rebasing: memory[0..<bytes]),
                                                      boxCount: boxes, parameters: p)
            XCTAssertNil(w.violation(boxCount: boxes, parameters: p), "\(boxes) boxes")
            let views = ranges(w, base: memory.baseAddress!).filter { $0.1 > 0 }.sorted { $0.0 < $1.0 }
            var end = 0, used = 0
            for (start, length, alignment) in views {
                XCTAssertGreaterThanOrEqual(start, end, "\(boxes) boxes: views overlap")
                XCTAssertEqual(start % alignment, 0, "\(boxes) boxes: view misaligned")
                end = start + length
                used += length
            }
            XCTAssertLessThanOrEqual(end, bytes, "\(boxes) boxes: a view past the block")
            XCTAssertLessThanOrEqual(bytes - used, 13 * 8, "\(boxes) boxes: only alignment padding between views")
        }
    }

    func testSmallOrMisalignedMemoryThrowsAndHugeCountsSaturate() throws {
        let p = parameters(maxDetections: 10, numClasses: 3)
        let bytes = DetectionPostProcessWorkspace.byteCount(boxCount: 50, parameters: p)
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes + 8, alignment: 64)
        defer { memory.deallocate() }
        XCTAssertThrowsError(try DetectionPostProcessWorkspace(memory: UnsafeMutableRawBufferPointer(rebasing: memory[0..<(bytes - 1)]),
                                                               boxCount: 50, parameters: p), "one byte short")
        XCTAssertThrowsError(try DetectionPostProcessWorkspace(memory: UnsafeMutableRawBufferPointer(rebasing: memory[4..<(bytes + 4)]),
                                                               boxCount: 50, parameters: p), "misaligned")
        XCTAssertNoThrow(try DetectionPostProcessWorkspace(memory: UnsafeMutableRawBufferPointer(rebasing: memory[8..<(bytes + 8)]),
                                                           boxCount: 50, parameters: p))
        let huge = parameters(maxDetections: Int.max, numClasses: 1)
        XCTAssertEqual(DetectionPostProcessWorkspace.byteCount(boxCount: 10, parameters: huge), Int.max, "saturates, never overflows")
        XCTAssertEqual(DetectionPostProcessWorkspace.byteCount(boxCount: Int.max / 2, parameters: p), Int.max)
    }
}
