import Foundation
import TestSupport
import TFLiteInterpreter
import XCTest

/// The conformance sweep: every model in `Models/` and `../shared/models`, and the mediapipe
/// wheel's models not among them (`Models/mediapipe`), on a real photo, a
/// constant image and seeded random input, against the whole outputs of the reference
/// runtime's reference kernels (`Scripts/goldens/models.py` → `Tests/Fixtures/models`).
/// Float models (the hybrid dynamic-range one included) within 2e-3 × max(1, max|reference|);
/// integer models and detection post-processing bit-exact.
///
/// A model that is absent skips its cases, except where it cannot be: when `../shared/models`
/// exists (its models must all be there) or under CI (`CI` set), an absent model fails.
final class ModelGoldenTests: XCTestCase {
    func testFloatSegmentationAndFaceModels() throws {
        try check(["deeplabv3", "face_detection_short_range", "face_detection_full_range",
                   "face_detection_full_range_sparse", "face_detection_back", "face_landmark", "iris_landmark"])
    }

    func testFloatClassifiers() throws {
        try check(["classifier_utensils_float", "classifier_nonsquare_float"])
    }

    func testQuantizedClassifiers() throws {
        try check(["efficientnet_lite0", "classifier_mobilenet_v2_uint8", "classifier_stopsign_int8"])
    }

    func testSSDDetectorsWithPostProcessing() throws {
        try check(["ssd_fish_uint8", "ssd_pets_uint8"])
    }

    func testYOLOv8FullIntegerAndDynamicRange() throws {
        try check(["yolov8n_int8_640", "yolov8n_dynamic_range_640"])
    }

    /// The dynamic-range model on one thread and on two (the other tests take the default, every
    /// core): its hybrid layers' on-the-fly quantization splits each input row's bounds and
    /// rounding over the pool, with the same values.
    func testDynamicRangeYOLOv8OnOneAndTwoThreads() throws {
        try check(["yolov8n_dynamic_range_640"], threadCount: 1)
        try check(["yolov8n_dynamic_range_640"], threadCount: 2)
    }

    /// Models from the wild, the mediapipe wheel's (`Scripts/fetch-mediapipe-models.sh`), against
    /// the reference with MediaPipe's own kernels for its custom operators: the attention face mesh
    /// (`Landmarks2TransformMatrix`, `TransformTensorBilinear`, `TransformLandmarks`), selfie
    /// segmentation (`Convolution2DTransposeBias`), hands, palms and poses (float16 and sparse weights).
    func testMediaPipeModels() throws {
        try check(Self.mediaPipeModels)
    }

    private static let mediaPipeModels = [
        "face_landmark_with_attention", "hand_landmark_full", "hand_landmark_lite", "hand_recrop",
        "palm_detection_full", "palm_detection_lite", "pose_detection", "pose_landmark_full",
        "selfie_segmentation", "selfie_segmentation_landscape"]

    /// Every model directory under `Tests/Fixtures/models` is in one of the tests above.
    func testEveryGoldenModelIsSwept() throws {
        let swept = Set<String>(["deeplabv3", "face_detection_short_range", "face_detection_full_range",
                                  "face_detection_full_range_sparse", "face_detection_back", "face_landmark",
                                  "iris_landmark", "classifier_utensils_float", "classifier_nonsquare_float",
                                  "efficientnet_lite0", "classifier_mobilenet_v2_uint8", "classifier_stopsign_int8",
                                  "ssd_fish_uint8", "ssd_pets_uint8", "yolov8n_int8_640", "yolov8n_dynamic_range_640",
                                  "images"]).union(Self.mediaPipeModels)
        let present = try FileManager.default.contentsOfDirectory(atPath: TestPaths.fixturesDirectory
            .appendingPathComponent("models").path)
        XCTAssertEqual(Set(present).subtracting(swept), [], "golden models that no test runs")
    }

    /// The photo, constant and random cases of each model: three inputs per model, whose
    /// reference outputs differ (the generator refuses goldens that would not discriminate),
    /// except for models whose output is saturated for every input (`saturated` in case.json
    /// says why).
    func testEveryModelHasThreeDiscriminatingInputs() throws {
        let root = TestPaths.fixturesDirectory.appendingPathComponent("models")
        for model in try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() where model != "images" {
            let cases = try ModelGoldenCase.cases(model: model)
            XCTAssertEqual(cases.map { $0.directory.lastPathComponent }, ["constant", "photo", "random"], model)
            if cases.contains(where: { $0.saturatedReason != nil }) { continue }
            let outputs = try cases.map { try $0.expectedArrays().map(\.data) }
            XCTAssertEqual(Set(outputs).count, cases.count, "\(model): two inputs give identical reference outputs")
        }
    }

    /// The comparison can fail: one output value moved by just over the float allowance, or set
    /// to NaN, or one byte of an exact output changed, is reported.
    func testComparisonCatchesOneChangedValue() throws {
        for model in ["classifier_nonsquare_float", "ssd_pets_uint8"] {
            guard let golden = try ModelGoldenCase.cases(model: model).first else { XCTFail("no cases for \(model)"); continue }
            let actual = try golden.run()
            let expected = try golden.expectedArrays()
            XCTAssertNil(try golden.mismatch(actual[0], output: 0, expected: expected[0]), model)
            var values = actual[0].doubleValues()
            let index = values.count / 2
            let original = values[index]
            for changed in [original + 2.01e-3 * max(1, golden.outputs[0].maxAbs), .nan] {
                values[index] = changed
                let floats = values.map { Float($0) }
                let altered = try NumPyArray(shape: actual[0].shape, float32: floats)
                XCTAssertNotNil(try golden.mismatch(altered, output: 0, expected: expected[0]), "\(model): \(changed) not caught")
            }
        }
    }

    /// Runs every case of `models`; fails listing every mismatch.
    private func check(_ models: [String], threadCount: Int? = nil) throws {
        var failures: [String] = [], skipped: [String] = [], ran = 0
        for model in models {
            let cases = try ModelGoldenCase.cases(model: model)
            if cases.isEmpty { failures.append("\(model): no golden cases (run Scripts/generate-goldens.sh models)") }
            for golden in cases {
                do {
                    _ = try golden.modelPath()
                } catch let missing as MissingPrerequisite {  // under CI
                    failures.append("\(golden.name): \(missing)")
                    continue
                } catch let skip as XCTSkip {
                    let mustRun = golden.model.hasPrefix("shared/")
                        && FileManager.default.fileExists(atPath: TestPaths.sharedModelsDirectory.path)
                    let message = "\(golden.name): \(skip.message ?? "model absent")"
                    if mustRun { failures.append(message) } else { skipped.append(message) }
                    continue
                }
                failures += golden.failures(threadCount: threadCount).map { "\(golden.name): \($0)" }
                ran += 1
            }
        }
        print("model goldens \(models.joined(separator: ", ")): \(ran) cases run, \(failures.count) problems, \(skipped.count) skipped")
        XCTAssertTrue(failures.isEmpty, failures.joined(separator: "\n"))
        if ran == 0 && failures.isEmpty { throw XCTSkip(skipped.joined(separator: "; ")) }
    }
}
