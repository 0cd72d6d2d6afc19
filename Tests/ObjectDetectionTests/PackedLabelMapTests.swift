import Foundation
import ImageCodecs
import ModelHosting
import ObjectDetection
import TestSupport
import TFLiteSchema
import XCTest

/// The `ssd-postprocess` family's labels from the label map packed in a real detector:
/// `Models/derived/ssd_pets_with_labelmap.tflite` is the real `../shared/models/ssd_pets_uint8.tflite`
/// (same graph and weights) with what the TF Lite Metadata Writer / Model Maker add to SSD and
/// EfficientDet-Lite exports: a `TFLITE_METADATA` entry whose output 1 (detection classes) has
/// the associated file `labelmap.txt` of type `TENSOR_VALUE_LABELS`, and the ZIP archive with
/// that file appended to the model (Scripts/goldens/derived_detectors.py, written by
/// Scripts/derive-models.sh, never committed; absent, the tests skip locally and fail under CI).
///
/// The packed list is the side-car `ssd_pets_labels.txt` without its background line `???`, as
/// Model Maker packs it (line i names the post-process op's class i). The family shifts a list
/// that starts with a background slot, so both lists must name the same breed for every box;
/// the label's index is the position in the list used: one less with the packed list.
final class PackedLabelMapTests: XCTestCase {
    static let derivedModel = "ssd_pets_with_labelmap.tflite"
    static let photos = ["chelsea.png", "astronaut.png", "coffee.png", "motorcycle.png", "camera.png", "rocket.png"]

    /// The side-car list's names without the background slot.
    private static func sideCarNames() throws -> [String] {
        let text = try String(contentsOfFile: try TestPaths.sharedModel("ssd_pets_labels.txt"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
        XCTAssertEqual(lines.first, "???", "ssd_pets_labels.txt starts with the background slot")
        return Array(lines.dropFirst())
    }

    func testModelFileReturnsThePackedValueLabelsOfTheClassesOutput() throws {
        let file = try TFLiteModelFile(contentsOf: try TestPaths.derivedModel(Self.derivedModel))
        let names = try Self.sideCarNames()
        XCTAssertEqual(names.count, 37)
        let packed = try XCTUnwrap(file.labels(forOutput: 1, type: .tensorValueLabels),
                                   "output 1 has a TENSOR_VALUE_LABELS file in the ZIP archive")
        XCTAssertEqual(packed.labels, names)
        XCTAssertEqual(packed.labels.first, "Abyssinian")
        XCTAssertEqual(Array(file.associatedFiles.keys), ["labelmap.txt"])
        // Only the classes output has labels, and they are value labels, not axis labels.
        for output in [0, 2, 3] { XCTAssertNil(file.labels(forOutput: output, type: .tensorValueLabels), "output \(output)") }
        for output in 0..<4 { XCTAssertNil(file.labels(forOutput: output), "no axis labels on output \(output)") }
        // The metadata as the Metadata Writer lays it out for object detectors.
        let metadata = try XCTUnwrap(file.metadata)
        XCTAssertEqual(metadata.name, "ObjectDetector")
        let subgraph = try XCTUnwrap(metadata.subgraphs.first)
        XCTAssertEqual(subgraph.outputTensors.map(\.name), ["location", "category", "score", "number of detections"])
        XCTAssertEqual(subgraph.outputTensors[1].associatedFiles.map(\.name), ["labelmap.txt"])
        XCTAssertEqual(subgraph.outputTensors[1].associatedFiles.map(\.type), [.tensorValueLabels])
        XCTAssertEqual(subgraph.inputTensors.map(\.name), ["image"])
        // The graph is the source's: same outputs, same operators.
        let source = try TFLiteModelFile(contentsOf: try TestPaths.sharedModel("ssd_pets_uint8.tflite"))
        XCTAssertNil(source.metadata, "the source has no metadata: its labels are a side-car file")
        XCTAssertEqual(file.subgraphs.first?.operators.count, source.subgraphs.first?.operators.count)
        XCTAssertEqual(file.subgraphs.first?.outputs, source.subgraphs.first?.outputs)
        XCTAssertEqual(file.bufferCount, source.bufferCount + 1, "one buffer added: the metadata")
    }

    /// `ObjectDetector` with no label file on the derived model finds, on every sample photo,
    /// the boxes and scores the source model finds with its side-car labels, with the same
    /// label texts ("Abyssinian" for the cat in chelsea.png, as AutoMLBundleTests expects).
    func testDetectorTakesThePackedLabelsAndFindsWhatTheSourceFindsWithItsLabelFile() throws {
        let derivedPath = try TestPaths.derivedModel(Self.derivedModel)
        let sourcePath = try TestPaths.sharedModel("ssd_pets_uint8.tflite")
        let labelFile = try TestPaths.sharedModel("ssd_pets_labels.txt")
        let packedDetector = try ObjectDetector.labelledSingleImage(model: derivedPath, labels: nil, maxObjects: 10)
        let sideCarDetector = try ObjectDetector.labelledSingleImage(model: sourcePath, labels: labelFile, maxObjects: 10)
        var found = 0
        for photo in Self.photos {
            let path = TestPaths.imagesDirectory.appendingPathComponent(photo).path
            guard FileManager.default.fileExists(atPath: path) else { throw TestEnvironment.missing("run Scripts/fetch-models.sh") }
            let image = try VisionImage(pngFile: path)
            let expected = try sideCarDetector.results(in: image)
            let actual = try packedDetector.results(in: image)
            found += expected.count
            XCTAssertEqual(actual.count, expected.count, "\(photo): object count")
            for (i, (ours, source)) in zip(actual, expected).enumerated() {
                XCTAssertEqual(ours.frame, source.frame, "\(photo) #\(i): box")
                XCTAssertEqual(ours.labels.count, 1, "\(photo) #\(i): labelled from the packed map")
                let label = ours.labels.first, sourceLabel = source.labels.first
                XCTAssertNotNil(sourceLabel?.text)
                XCTAssertEqual(label?.text, sourceLabel?.text, "\(photo) #\(i): label")
                XCTAssertEqual(label?.confidence, sourceLabel?.confidence, "\(photo) #\(i): score")
                // The side-car list has the background at 0; the packed one starts with class 0.
                XCTAssertEqual(label?.index, sourceLabel.map { $0.index - 1 }, "\(photo) #\(i): index in the list")
            }
            if photo == "chelsea.png" {
                XCTAssertEqual(actual.first?.labels.first?.text, "Abyssinian", "the cat in chelsea.png")
                XCTAssertEqual(actual.first?.labels.first?.index, 0)
            }
        }
        XCTAssertGreaterThanOrEqual(found, 1, "not vacuous: the source model finds the cat")
    }
}
