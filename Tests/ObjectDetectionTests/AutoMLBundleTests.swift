import Foundation
import ImageCodecs
import ObjectDetection
import TestSupport
import XCTest

/// An AutoML-style bundle made from a real SSD export (`ssd_pets_uint8`) and its labels.
final class AutoMLBundleTests: XCTestCase {
    private func makeBundle(json: String?, labels: Bool = true) throws -> String {
        let model = try TestPaths.sharedModel("ssd_pets_uint8.tflite")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("automl-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.copyItem(atPath: model, toPath: directory + "/model.tflite")
        if labels {
            // AutoML's dict.txt has no background slot: drop the `???` line of the SSD label map.
            let names = try String(contentsOfFile: try TestPaths.sharedModel("ssd_pets_labels.txt"), encoding: .utf8)
                .split(separator: "\n").dropFirst().joined(separator: "\n")
            try names.write(toFile: directory + "/dict.txt", atomically: true, encoding: .utf8)
        }
        if let json { try json.write(toFile: directory + "/tflite_metadata.json", atomically: true, encoding: .utf8) }
        return directory
    }

    func testBundleDetectsLabelledBoxesInImageCoordinates() throws {
        let directory = try makeBundle(json: #"{"inputShape": [1, 300, 300, 3], "maxDetections": 3}"#)
        let bundle = try AutoMLBundle(directory: directory)
        XCTAssertEqual(bundle.maxDetections, 3)
        XCTAssertEqual(bundle.labels.labels.first, "Abyssinian")
        let detector = try AutoMLObjectDetector(bundle: bundle, scoreThreshold: 0.3)
        let path = TestPaths.imagesDirectory.appendingPathComponent("chelsea.png").path
        guard FileManager.default.fileExists(atPath: path) else { throw TestEnvironment.missing("run Scripts/fetch-models.sh") }
        let detections = try detector.results(in: try VisionImage(pngFile: path))
        XCTAssertEqual(detections.count, 1)
        let cat = try XCTUnwrap(detections.first)
        XCTAssertEqual(cat.labels.count, 1)
        XCTAssertEqual(cat.labels.first?.text, "Abyssinian")
        XCTAssertEqual(cat.labels.first?.index, 0)
        XCTAssertGreaterThanOrEqual(cat.labels.first?.confidence ?? 0, 0.3)
        XCTAssertNil(cat.trackingID, "single-image mode")
        XCTAssertGreaterThan(cat.frame.width, 300, "box in image pixels of the 451×300 photo")
        XCTAssertLessThanOrEqual(cat.frame.maxX, 451)
        // maxDetections caps the objects, as tflite_metadata.json asks.
        XCTAssertLessThanOrEqual(try AutoMLObjectDetector(bundle: bundle, scoreThreshold: 0).results(in: try VisionImage(pngFile: path)).count, 3)
    }

    func testDefaultsAndBadBundlesAreTypedErrors() throws {
        // Without tflite_metadata.json the defaults (320×320, 40) apply; this model is 300×300.
        let noMetadata = try makeBundle(json: nil)
        let bundle = try AutoMLBundle(directory: noMetadata)
        XCTAssertEqual(bundle.inputWidth, 320)
        XCTAssertEqual(bundle.maxDetections, 40)
        XCTAssertThrowsError(try AutoMLObjectDetector(bundle: bundle)) { XCTAssertTrue("\($0)".contains("300x300"), "\($0)") }
        XCTAssertThrowsError(try AutoMLBundle(directory: try makeBundle(json: "[1, 2")))
        XCTAssertThrowsError(try AutoMLBundle(directory: try makeBundle(json: #"{"inputShape": [1, -5, 3]}"#)))
        XCTAssertThrowsError(try AutoMLBundle(directory: try makeBundle(json: nil, labels: false)))
        XCTAssertThrowsError(try AutoMLBundle(directory: "/nonexistent"))
    }
}
