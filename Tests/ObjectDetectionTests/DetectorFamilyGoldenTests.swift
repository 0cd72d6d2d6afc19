import Foundation
@testable import ObjectDetection
import TestSupport
import TFLiteInterpreter
import XCTest

/// Goldens of the `yolov5` and `yolo-nms` families on models of those layouts (built with
/// seeded weights by Scripts/goldens/detector_families.py, Tests/Fixtures/families/): the
/// registry picks the family, the engine's raw output matches the reference runtime's, and the
/// family's decoder returns the boxes that an independent Python decode of the reference
/// output gives (same order, classes, scores and boxes).
final class DetectorFamilyGoldenTests: XCTestCase {
    private struct Expected: Decodable {
        var scoreThreshold: Float
        /// [x, y, width, height, score, class], normalized to the model input, best first.
        var boxes: [[Double]]
    }

    private func floats(_ data: Data) -> [Float] {
        data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    private func checkGolden(_ familyName: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let modelPath = try TestPaths.fixture("families/\(familyName)/model.tflite")
        let expected = try JSONDecoder().decode(Expected.self, from: Data(
            contentsOf: URL(fileURLWithPath: TestPaths.fixture("families/\(familyName)/expected.json"))))
        let localizer = try FamilyLocalizer(modelPath: modelPath, labels: nil, scoreThreshold: nil, threadCount: 1)
        XCTAssertEqual(localizer.family.name, familyName, "the registry's choice", file: file, line: line)
        XCTAssertEqual(localizer.reportThreshold, expected.scoreThreshold, file: file, line: line)

        // The engine on the stored input, against the reference runtime's output.
        let interpreter = try Interpreter(modelPath: modelPath, options: Interpreter.Options(threadCount: 1))
        let input = try NumPyArray(contentsOf: TestPaths.fixture("families/\(familyName)/input_0.npy"))
        let output = try XCTUnwrap(try interpreter.run([input]).first)
        let reference = try NumPyArray(contentsOf: TestPaths.fixture("families/\(familyName)/output_0.npy"))
        XCTAssertEqual(output.shape, reference.shape, file: file, line: line)
        let values = floats(output.data)
        for (ours, theirs) in zip(values, floats(reference.data)) {
            XCTAssertEqual(ours, theirs, accuracy: 1e-4 * max(1, abs(theirs)), file: file, line: line)
        }

        let decoded = try localizer.family.decode(DetectorOutputs(shapes: [output.shape], arrays: [values]),
                                                  model: localizer.model, scoreThreshold: localizer.reportThreshold)
        XCTAssertEqual(decoded.count, expected.boxes.count, file: file, line: line)
        for (i, (candidate, box)) in zip(decoded, expected.boxes).enumerated() {
            XCTAssertEqual(candidate.classIndex, Int(box[5]), "box \(i)", file: file, line: line)
            XCTAssertEqual(Double(candidate.score), box[4], accuracy: 1e-5, "box \(i)", file: file, line: line)
            let r = candidate.rect
            for (value, golden) in zip([r.x, r.y, r.width, r.height], box[0..<4]) {
                XCTAssertEqual(value, golden, accuracy: 1e-5, "box \(i): \(r) vs \(box)", file: file, line: line)
            }
        }
    }

    /// `[1, 252, 8]` for a 64×64 input: 3 anchors × 84 cells, objectness, 3 classes,
    /// normalized boxes; class-aware NMS outside the graph.
    func testYOLOv5FamilyMatchesTheIndependentDecodeOfTheReferenceOutput() throws {
        try checkGolden("yolov5")
    }

    /// `[1, 20, 6]` after NON_MAX_SUPPRESSION_V5 inside the graph, boxes in input pixels, the
    /// rows past the kept boxes with score 0.
    func testYOLOWithNMSFamilyMatchesTheIndependentDecodeOfTheReferenceOutput() throws {
        try checkGolden("yolo-nms")
    }
}
