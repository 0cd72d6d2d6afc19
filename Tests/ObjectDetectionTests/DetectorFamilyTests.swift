import Foundation
import ImageCodecs
@testable import ObjectDetection
import TestSupport
import TFLiteSchema
import XCTest

/// Each detector family recognises its real models; end-to-end goldens of the families on real
/// models are in DetectorFlowTests (YOLOv8 int8 and dynamic-range, SSD with post-processing,
/// BlazeFace short and full range, DeepLab regions). No YOLOv5 or in-graph-NMS export is among
/// the test models, so those two families are checked here against the real YOLOv8n outputs
/// re-laid-out in their formats (they must give the YOLOv8 family's boxes), and in
/// DetectorFamilyGoldenTests on models of their layouts built with seeded weights, against an
/// independent decode of the reference runtime's output.
final class DetectorFamilyTests: XCTestCase {
    private func localizer(_ path: String) throws -> FamilyLocalizer {
        try FamilyLocalizer(modelPath: path, labels: nil, scoreThreshold: nil, threadCount: 1)
    }

    func testEveryRealModelFindsItsFamily() throws {
        let models: [(String, Bool, String)] = [
            ("ssd_pets_uint8.tflite", true, "ssd-postprocess"), ("ssd_fish_uint8.tflite", true, "ssd-postprocess"),
            ("yolov8n_int8_640.tflite", true, "yolov8"), ("yolov8n_dynamic_range_640.tflite", true, "yolov8"),
            ("face_detection_short_range.tflite", false, "blazeface-anchors"),
            ("face_detection_full_range.tflite", false, "blazeface-anchors"),
            ("face_detection_back.tflite", false, "blazeface-anchors"),
            ("deeplabv3.tflite", false, "segmentation-regions"),
        ]
        for (name, shared, family) in models {
            let path = try shared ? TestPaths.sharedModel(name) : TestPaths.model(name)
            let found = try localizer(path)
            XCTAssertEqual(found.family.name, family, name)
        }
        // A classifier is no detector: the error names the shapes and the families tried.
        XCTAssertThrowsError(try localizer(TestPaths.model("efficientnet_lite0.tflite"))) { error in
            XCTAssertTrue("\(error)".contains("yolov8, segmentation-regions"), "\(error)")
        }
    }

    func testPostProcessedSSDUsesThePackedOrSideCarLabelMap() throws {
        let pets = try localizer(TestPaths.sharedModel("ssd_pets_uint8.tflite"))
        XCTAssertEqual(try XCTUnwrap(pets.family as? PostProcessedSSDFamily).outputOrder(pets.model), [0, 1, 2, 3])
        let withFile = try FamilyLocalizer(modelPath: TestPaths.sharedModel("ssd_pets_uint8.tflite"),
                                           labels: LabelList(contentsOf: TestPaths.sharedModel("ssd_pets_labels.txt")),
                                           scoreThreshold: nil, threadCount: 1)
        XCTAssertEqual(withFile.labels?.labels.first, "???")
        let image = try RGBImage(pngFile: TestPaths.imagesDirectory.appendingPathComponent("chelsea.png").path)
        let best = try XCTUnwrap(try withFile.localize(image).first)
        XCTAssertEqual(best.classIndex, 1, "class 0 of the op is entry 1 after the background slot")
        XCTAssertEqual(withFile.labels?.labels[1], "Abyssinian")
    }

    /// The YOLOv8n output on the motorcycle photo, and what the YOLOv8 family decodes from it.
    private func yoloReference() throws -> (model: DetectorModelInfo, values: [Float], decoded: [DetectionCandidate]) {
        let yolo = try localizer(TestPaths.sharedModel("yolov8n_int8_640.tflite"))
        let image = try RGBImage(pngFile: TestPaths.imagesDirectory.appendingPathComponent("motorcycle.png").path)
        try yolo.runner.run(image, resize: yolo.family.resizeMode)
        let values = try yolo.runner.output(0).values
        let decoded = try YOLOv8Family().decode(DetectorOutputs(shapes: [[1, 84, 8400]], arrays: [values]),
                                                model: yolo.model, scoreThreshold: 0.25)
        XCTAssertGreaterThanOrEqual(decoded.count, 2, "motorcycle and rider")
        return (yolo.model, values, decoded)
    }

    private func assertSame(_ a: [DetectionCandidate], _ b: [DetectionCandidate], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.count, b.count, file: file, line: line)
        for (x, y) in zip(a, b) {
            XCTAssertEqual(x.classIndex, y.classIndex, file: file, line: line)
            XCTAssertEqual(x.score, y.score, accuracy: 1e-4, file: file, line: line)
            XCTAssertGreaterThan(x.rect.intersectionOverUnion(y.rect), 0.999, "\(x.rect) vs \(y.rect)", file: file, line: line)
        }
    }

    func testYOLOv5LayoutWithObjectnessDecodesLikeYOLOv8() throws {
        let (v8Model, values, reference) = try yoloReference()
        // [1, 3·8400, 85]: the first 8400 rows hold the candidates with objectness √best and
        // class probabilities divided by it (so objectness × probability is the v8 score).
        let rows = 3 * 8400, stride = 85
        var v5 = [Float](repeating: 0, count: rows * stride)
        for i in 0..<8400 {
            for a in 0..<4 { v5[i * stride + a] = values[a * 8400 + i] }   // normalized, as both exports give them
            let best = (4..<84).map { values[$0 * 8400 + i] }.max()!
            let objectness = best > 0 ? best.squareRoot() : 0
            v5[i * stride + 4] = objectness
            for c in 0..<80 { v5[i * stride + 5 + c] = objectness > 0 ? values[(4 + c) * 8400 + i] / objectness : 0 }
        }
        var model = v8Model
        model.outputShapes = [[1, rows, stride]]
        XCTAssertEqual(try DetectorFamilyRegistry.shared.family(for: model).name, "yolov5")
        let decoded = try YOLOv5Family().decode(DetectorOutputs(shapes: model.outputShapes, arrays: [v5]), model: model,
                                                scoreThreshold: 0.25)
        assertSame(decoded, reference)
    }

    func testYOLOWithNMSInsideTheGraphDecodesItsKeptBoxes() throws {
        let (v8Model, _, reference) = try yoloReference()
        // [1, 300, 6]: x1, y1, x2, y2 in input pixels, score, class; unused rows are zero.
        var rows = [Float](repeating: 0, count: 300 * 6)
        for (i, c) in reference.enumerated() {
            rows.replaceSubrange((6 * i)..<(6 * i + 6), with: [Float(c.rect.x * 640), Float(c.rect.y * 640), Float(c.rect.maxX * 640),
                                                              Float(c.rect.maxY * 640), c.score, Float(c.classIndex!)])
        }
        var model = v8Model
        model.outputShapes = [[1, 300, 6]]
        XCTAssertEqual(try DetectorFamilyRegistry.shared.family(for: model).name, "yolo-nms")
        let decoded = try YOLOWithNMSFamily().decode(DetectorOutputs(shapes: model.outputShapes, arrays: [rows]), model: model,
                                                     scoreThreshold: 0.25)
        assertSame(decoded, reference)
        // A one-class YOLOv8 output is also 6 wide; its grid-sized N keeps it out of this family.
        model.outputShapes = [[1, 8400, 6]]
        XCTAssertEqual(try DetectorFamilyRegistry.shared.family(for: model).name, "yolov8")
    }

    func testOutputsThatDoNotFillTheirShapeAreTypedErrors() {
        let outputs = DetectorOutputs(shapes: [[1, 300, 6]], arrays: [[1, 2, 3]])
        XCTAssertThrowsError(try outputs.values(at: 0))
        XCTAssertThrowsError(try outputs.values(at: 1))
    }
}
