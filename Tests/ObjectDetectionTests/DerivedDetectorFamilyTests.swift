import Foundation
import ImageCodecs
import ModelHosting
@testable import ObjectDetection
import TestSupport
import XCTest

/// The `yolov5` and `yolo-nms` families on detectors with real weights: the two layouts derived
/// from the real YOLOv8n (`../shared/models/yolov8n_int8_640.tflite`) by
/// Scripts/goldens/derived_detectors.py, written to `Models/derived/` by
/// Scripts/derive-models.sh (never committed; absent, the tests skip locally and fail under CI).
///
/// - The engine's whole raw output on each derived model is bit-exact with the reference
///   runtime's (`Tests/Fixtures/derived/<model>/photo`, ModelGoldenCase format): the appended
///   DEQUANTIZE, TRANSPOSE, SLICE, MUL, CONCATENATION and, for `yolo-nms`, REDUCE_MAX,
///   ARG_MAX, CAST, NON_MAX_SUPPRESSION_V5 and GATHER are exact float operations.
/// - The registry picks `yolov5` and `yolo-nms` for them (and `yolov8` for the source).
/// - The strongest check: on the same photos, `ObjectDetector` with each derived model finds
///   what it finds with the original YOLOv8n (the `yolov8` family): same labels, scores and
///   boxes. The layouts carry the same detections, so any difference is a decoding mistake.
///   NMS rules that differ and why they cannot matter here: NON_MAX_SUPPRESSION_V5 keeps
///   scores strictly above its 0.25 threshold where the families keep scores ≥ 0.25, but the
///   int8 scores are multiples of 0.00398602 and none equals 0.25; it suppresses a box whose
///   IoU with a kept one is ≥ 0.45 where the families need > 0.45, and it is class-agnostic,
///   made class-aware by shifting boxes by 4 × class (the shifted corners lose a few low
///   bits), but on these photos no same-class IoU among the candidates lies within 0.36 of
///   0.45; it keeps at most 300 boxes, the families 100 (fewer than 10 are found). Equal scores
///   (the astronaut's person and fire hydrant both score 0.498253) are compared in a canonical
///   order. The photos therefore do not pin the IoU threshold; DetectorFamilyGoldenTests'
///   seeded models do (decisions within 0.05 of it on both sides).
///
/// The end-to-end boxes against an independent NumPy decode of the reference runtime's output
/// are in DetectorOracleTests (cases `yolov5_derived_*`, `yolo_nms_derived_*`).
final class DerivedDetectorFamilyTests: XCTestCase {
    static let yolov5Model = "yolov5_from_yolov8n.tflite"
    static let nmsModel = "yolo_nms_from_yolov8n.tflite"
    static let photos = ["motorcycle.png", "astronaut.png", "chelsea.png"]
    /// Largest allowed difference of a box edge between the families, in photo pixels: the
    /// in-graph corners are computed in float32 on normalized values, the families' in their
    /// own order; far below a pixel either way.
    static let boxTolerance = 0.01

    // MARK: raw outputs

    /// `[1, 25200, 85]`, every value bit-exact with the reference runtime.
    func testYOLOv5LayoutRawOutputIsBitExactWithTheReference() throws {
        try checkRawOutput("yolov5_from_yolov8n")
    }

    /// `[1, 300, 6]` after the in-graph NMS, every value (padding rows included) bit-exact.
    func testYOLOWithNMSLayoutRawOutputIsBitExactWithTheReference() throws {
        try checkRawOutput("yolo_nms_from_yolov8n")
    }

    private func checkRawOutput(_ stem: String, file: StaticString = #filePath, line: UInt = #line) throws {
        _ = try TestPaths.derivedModel(stem + ".tflite")
        let golden = try ModelGoldenCase(directory: TestPaths.fixturesDirectory.appendingPathComponent("derived/\(stem)/photo"))
        XCTAssertTrue(golden.exact, "derived models compare bit-exact", file: file, line: line)
        XCTAssertEqual(golden.failures(), [], stem, file: file, line: line)
    }

    // MARK: the registry's choice

    func testRegistryPicksTheFamilyOfEachDerivedLayout() throws {
        let cases = [(try TestPaths.derivedModel(Self.yolov5Model), "yolov5"),
                     (try TestPaths.derivedModel(Self.nmsModel), "yolo-nms"),
                     (try TestPaths.sharedModel("yolov8n_int8_640.tflite"), "yolov8")]
        for (path, family) in cases {
            let localizer = try FamilyLocalizer(modelPath: path, labels: nil, scoreThreshold: nil, threadCount: 1)
            XCTAssertEqual(localizer.family.name, family, path)
            XCTAssertEqual(localizer.reportThreshold, 0.25, path)
        }
    }

    // MARK: same objects as the source model

    func testYOLOv5FamilyFindsWhatYOLOv8FindsOnTheSourceModel() throws {
        try compareWithSource(derived: Self.yolov5Model)
    }

    func testYOLOWithNMSFamilyFindsWhatYOLOv8FindsOnTheSourceModel() throws {
        try compareWithSource(derived: Self.nmsModel)
    }

    private func compareWithSource(derived: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let derivedPath = try TestPaths.derivedModel(derived)
        let sourcePath = try TestPaths.sharedModel("yolov8n_int8_640.tflite")
        let labels = try TestPaths.sharedModel("coco_labels.txt")
        var found = 0
        for photo in Self.photos {
            let image = try VisionImage(pngFile: TestPaths.imagesDirectory.appendingPathComponent(photo).path)
            let expected = Self.canonical(try ObjectDetector.labelledSingleImage(model: sourcePath, labels: labels, maxObjects: 100).results(in: image))
            let actual = Self.canonical(try ObjectDetector.labelledSingleImage(model: derivedPath, labels: labels, maxObjects: 100).results(in: image))
            found += expected.count
            XCTAssertEqual(actual.count, expected.count, "\(derived) on \(photo): object count", file: file, line: line)
            for (i, (ours, source)) in zip(actual, expected).enumerated() {
                let label = ours.labels.first, sourceLabel = source.labels.first
                XCTAssertEqual(label?.index, sourceLabel?.index, "\(photo) #\(i): class", file: file, line: line)
                XCTAssertEqual(label?.text, sourceLabel?.text, "\(photo) #\(i): label", file: file, line: line)
                XCTAssertEqual(label?.confidence ?? -1, sourceLabel?.confidence ?? -2, accuracy: 1e-6,
                               "\(photo) #\(i): score", file: file, line: line)
                let a = ours.frame, e = source.frame
                for (edge, value, golden) in [("left", a.minX, e.minX), ("top", a.minY, e.minY),
                                              ("right", a.maxX, e.maxX), ("bottom", a.maxY, e.maxY)] {
                    XCTAssertEqual(Double(value), Double(golden), accuracy: Self.boxTolerance,
                                   "\(derived) on \(photo) #\(i) \(sourceLabel?.text ?? "?"): \(edge) edge of \(a) vs \(e)",
                                   file: file, line: line)
                }
            }
        }
        // Not vacuous: the source model finds two objects in each photo.
        XCTAssertGreaterThanOrEqual(found, 6, file: file, line: line)
    }

    /// Objects by descending score, equal scores by class and then left edge: a canonical
    /// order, since families may order equal scores differently.
    private static func canonical(_ objects: [DetectedObject]) -> [DetectedObject] {
        objects.sorted {
            let a = $0.labels.first, b = $1.labels.first
            if a?.confidence != b?.confidence { return (a?.confidence ?? 0) > (b?.confidence ?? 0) }
            if a?.index != b?.index { return (a?.index ?? 0) < (b?.index ?? 0) }
            return $0.frame.minX < $1.frame.minX
        }
    }

    // MARK: a missing derived model

    /// Absent, a derived model skips the test locally (saying how to make it) and fails it
    /// under CI, where .ci/run derives it.
    func testAbsentDerivedModelSkipsLocallyAndFailsUnderCI() {
        XCTAssertThrowsError(try TestPaths.derivedModel("absent.tflite", ci: false)) { error in
            XCTAssertTrue(error is XCTSkip, "\(error)")
            XCTAssertTrue("\(error)".contains("Scripts/derive-models.sh"), "\(error)")
        }
        XCTAssertThrowsError(try TestPaths.derivedModel("absent.tflite", ci: true)) { error in
            XCTAssertTrue(error is MissingPrerequisite, "\(error)")
        }
    }
}
