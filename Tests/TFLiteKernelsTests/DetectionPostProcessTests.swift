import XCTest
@testable import TFLiteKernels

/// Hand-checked behaviour of the `TFLite_Detection_PostProcess` kernel. Bit-exactness against
/// the reference runtime is checked by the golden cases in Tests/Fixtures/ops/detection
/// (GoldenOpTests.testDetectionFamily), including cases cut out of ssd_fish and ssd_pets.
final class DetectionPostProcessTests: XCTestCase {
    private func parameters(regular: Bool = false, maxDetections: Int = 3, maxClasses: Int = 1,
                            numClasses: Int = 2) -> DetectionPostProcessParameters {
        DetectionPostProcessParameters(maxDetections: maxDetections, maxClassesPerDetection: maxClasses, detectionsPerClass: 10,
                                       scoreThreshold: 0.3, iouThreshold: 0.5, numClasses: numClasses,
                                       yScale: 10, xScale: 10, hScale: 5, wScale: 5, useRegularNMS: regular)
    }

    private struct Result { var boxes: [Float]; var classes: [Float]; var scores: [Float]; var count: Int }

    private func run(_ p: DetectionPostProcessParameters, encodings: [Float], anchors: [Float], scores: [Float]) throws -> Result {
        let n = anchors.count / 4, columns = scores.count / n
        let memory = UnsafeMutableRawBufferPointer.allocate(
            byteCount: DetectionPostProcessWorkspace.byteCount(boxCount: n, parameters: p),
            alignment: DetectionPostProcessWorkspace.alignment)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 0xA5)  // the kernel writes what it reads
        let w = try DetectionPostProcessWorkspace(memory: memory, boxCount: n, parameters: p)
        try encodings.withUnsafeBufferPointer { e in
            try anchors.withUnsafeBufferPointer { a in
                try DetectionPostProcessReference.decodeBoxes(encodings: e, encodingLength: 4, anchors: a, boxCount: n, parameters: p, into: w)
            }
        }
        var boxes = [Float](repeating: -1, count: p.outputBoxCount * 4)
        var classes = [Float](repeating: -1, count: p.outputBoxCount), out = [Float](repeating: -1, count: p.outputBoxCount)
        let count = try scores.withUnsafeBufferPointer { all in
            try boxes.withUnsafeMutableBufferPointer { b in
                try classes.withUnsafeMutableBufferPointer { c in
                    try out.withUnsafeMutableBufferPointer { s in
                        try DetectionPostProcessReference.suppress(classScores: all, boxCount: n, classesWithBackground: columns,
                                                                   parameters: p, workspace: w, boxes: b, classes: c, scores: s)
                    }
                }
            }
        }
        return Result(boxes: boxes, classes: classes, scores: out, count: count)
    }

    func testDecodingAgainstAnchor() throws {
        // Anchor centered at (0.5, 0.5), 0.2 x 0.4; encoding shifts y by 1/10 of the anchor height
        // and doubles the width (w = 5 ln 2).
        let r = try run(parameters(), encodings: [1, 0, 0, 5 * Float(log(2.0))], anchors: [0.5, 0.5, 0.2, 0.4],
                        scores: [0, 0.9, 0.1])
        XCTAssertEqual(r.count, 1)
        XCTAssertEqual(r.boxes[0], 0.42, accuracy: 1e-6)  // ymin = 0.52 - 0.1
        XCTAssertEqual(r.boxes[1], 0.1, accuracy: 1e-6)   // xmin = 0.5 - 0.4
        XCTAssertEqual(r.boxes[2], 0.62, accuracy: 1e-6)
        XCTAssertEqual(r.boxes[3], 0.9, accuracy: 1e-6)
        XCTAssertEqual(r.classes[0], 0, "class 0 is the first column after the background")
        XCTAssertEqual(r.scores[0], 0.9)
        XCTAssertEqual(Array(r.boxes[4...]), [Float](repeating: 0, count: 8), "unused slots are zero")
    }

    /// Three anchors: 0 and 1 overlap heavily, 2 is apart. Scores: anchor 0 class A 0.9,
    /// anchor 1 class B 0.8, anchor 2 class A 0.35 (background column first).
    private let anchors: [Float] = [0.5, 0.5, 0.2, 0.2, 0.51, 0.5, 0.2, 0.2, 0.1, 0.1, 0.1, 0.1]
    private let scores: [Float] = [0, 0.9, 0.1, 0, 0.2, 0.8, 0, 0.35, 0]

    func testFastNMSIsClassAgnostic() throws {
        let r = try run(parameters(), encodings: [Float](repeating: 0, count: 12), anchors: anchors, scores: scores)
        XCTAssertEqual(r.count, 2, "anchor 1 is suppressed by anchor 0 although its best class differs")
        XCTAssertEqual(Array(r.classes.prefix(2)), [0, 0])
        XCTAssertEqual(Array(r.scores.prefix(2)), [0.9, 0.35])
    }

    func testRegularNMSIsPerClass() throws {
        let r = try run(parameters(regular: true), encodings: [Float](repeating: 0, count: 12), anchors: anchors, scores: scores)
        XCTAssertEqual(r.count, 3)
        XCTAssertEqual(Array(r.classes.prefix(3)), [0, 1, 0])
        XCTAssertEqual(Array(r.scores.prefix(3)), [0.9, 0.8, 0.35])
    }

    func testScoreThresholdIsInclusive() throws {
        var p = parameters()
        p.scoreThreshold = 0.35
        let r = try run(p, encodings: [Float](repeating: 0, count: 12), anchors: anchors, scores: scores)
        XCTAssertEqual(Array(r.scores.prefix(r.count)), [0.9, 0.35])
    }

    func testInvalidInputsThrow() throws {
        var p = parameters()
        p.iouThreshold = 0
        XCTAssertThrowsError(try run(p, encodings: [Float](repeating: 0, count: 12), anchors: anchors, scores: scores))
        // A negative anchor height decodes to ymin > ymax, which the reference rejects.
        XCTAssertThrowsError(try run(parameters(), encodings: [0, 0, 0, 0], anchors: [0.5, 0.5, -0.2, 0.2], scores: [0, 0.9, 0.1])) {
            XCTAssertEqual($0 as? DetectionPostProcessError, .invalidDecodedBox(index: 0))
        }
        p = parameters(numClasses: 5)
        XCTAssertThrowsError(try run(p, encodings: [Float](repeating: 0, count: 12), anchors: anchors, scores: scores))
    }
}
