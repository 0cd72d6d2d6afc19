import Foundation
import ImageCodecs
import ModelHosting
import ObjectDetection
import TestSupport
import TFLiteSchema
import XCTest

/// A family written outside the package, through the public API only (no `@testable`): an
/// image classifier used as a whole-image detector, one box covering the image, labelled with
/// the top class.
struct WholeImageClassifierFamily: DetectorFamily {
    let name = "whole-image-classifier"
    var defaultScoreThreshold: Float = 0.1
    var defaultNormalization = InputNormalization.signedUnitInterval
    var resizeMode = ResizeMode.stretch

    func matches(_ model: DetectorModelInfo) -> Bool {
        model.outputShapes.count == 1 && model.outputShapes[0].count == 2 && model.outputShapes[0][1] > 1
    }

    func decode(_ outputs: DetectorOutputs, model: DetectorModelInfo, scoreThreshold: Float) throws -> [DetectionCandidate] {
        let scores = try outputs.values(at: 0)
        guard let best = scores.indices.max(by: { scores[$0] < scores[$1] }), scores[best] >= scoreThreshold else { return [] }
        return [DetectionCandidate(rect: ImageRect(x: 0, y: 0, width: 1, height: 1), score: scores[best], classIndex: best)]
    }
}

final class DetectorFamilyRegistryExtensionTests: XCTestCase {
    func testAFamilyRegisteredByTheUserServesModelsTheBuiltInsDoNot() throws {
        let classifier = try TestPaths.model("efficientnet_lite0.tflite")
        let photo = TestPaths.imagesDirectory.appendingPathComponent("chelsea.png").path
        var options = ObjectDetectorOptions()
        options.detectorMode = .singleImage
        options.shouldEnableClassification = true
        options.detectorModel = .local(LocalModel(path: classifier))
        XCTAssertThrowsError(try ObjectDetector.objectDetector(options: options)) { error in
            XCTAssertTrue("\(error)".contains("register a DetectorFamily"), "\(error)")
        }

        DetectorFamilyRegistry.shared.register(WholeImageClassifierFamily())
        defer { DetectorFamilyRegistry.shared.unregister(named: "whole-image-classifier") }
        XCTAssertEqual(DetectorFamilyRegistry.shared.families.first?.name, "whole-image-classifier")
        let detector = try ObjectDetector.objectDetector(options: options)
        let object = try XCTUnwrap(try detector.results(in: VisionImage(pngFile: photo)).first)
        XCTAssertEqual(Double(object.frame.width), 451, accuracy: 1e-6, "one box over the whole photo")
        XCTAssertEqual(Double(object.frame.height), 300, accuracy: 1e-6)
        XCTAssertEqual(object.labels.first?.text, "Egyptian cat", "labels packed in the classifier")
    }

    func testRegistryOrderDecidesAndUnregisterRestoresTheBuiltIns() throws {
        let registry = DetectorFamilyRegistry(families: [YOLOv8Family()])
        var family = YOLOv5Family()
        family.iouThreshold = 0.6
        registry.register(family)
        XCTAssertEqual(registry.families.map(\.name), ["yolov5", "yolov8"])
        registry.unregister(named: "yolov5")
        XCTAssertEqual(registry.families.map(\.name), ["yolov8"])
        XCTAssertEqual(DetectorFamilyRegistry.builtIn.map(\.name),
                       ["ssd-postprocess", "blazeface-anchors", "yolo-nms", "yolov5", "yolov8", "segmentation-regions"])
    }
}
