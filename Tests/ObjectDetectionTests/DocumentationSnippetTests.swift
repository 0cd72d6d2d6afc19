import Foundation
import ImageCodecs
import ModelHosting
import ObjectDetection   // not @testable: the documentation shows the public API only
import TestSupport
import XCTest

/// The code of the `ObjectDetection` DocC articles (Sources/ObjectDetection/ObjectDetection.docc),
/// compiled here and run where it needs no network: each article's snippet is the body of one
/// function below, character for character apart from the function wrapper and parameters.
/// Change an article and its function together.
final class DocumentationSnippetTests: XCTestCase {
    override func setUpWithError() throws {
        // The snippets use paths relative to the package root, as the README's commands do.
        _ = try TestPaths.model(DefaultModels.localizerFileName)
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath(TestPaths.packageRoot.path))
    }

    /// Every `swift` code block of the articles appears, line for line (indentation and blank
    /// lines aside), in this file or in the test that defines the article's example family.
    func testEveryArticleSnippetIsCompiledByTheseTests() throws {
        let root = TestPaths.packageRoot
        func lines(_ text: String) -> [String] {
            text.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        let compiled = try ["DocumentationSnippetTests.swift", "DetectorFamilyRegistryExtensionTests.swift"].map {
            lines(try String(contentsOf: root.appendingPathComponent("Tests/ObjectDetectionTests/\($0)"), encoding: .utf8))
        }
        let catalog = root.appendingPathComponent("Sources/ObjectDetection/ObjectDetection.docc")
        let articles = try FileManager.default.contentsOfDirectory(atPath: catalog.path).filter { $0.hasSuffix(".md") }
        var blocks = 0
        for article in articles.sorted() {
            let text = try String(contentsOf: catalog.appendingPathComponent(article), encoding: .utf8)
            for (i, part) in text.components(separatedBy: "```").enumerated() where i % 2 == 1 {
                guard part.hasPrefix("swift\n") else { continue }
                blocks += 1
                let block = lines(String(part.dropFirst("swift\n".count)))
                let found = compiled.contains { file in
                    file.indices.contains { start in
                        start + block.count <= file.count && Array(file[start..<(start + block.count)]) == block
                    }
                }
                XCTAssertTrue(found, "\(article): a snippet no test compiles:\n\(block.joined(separator: "\n"))")
            }
        }
        XCTAssertGreaterThanOrEqual(blocks, 10)
    }

    // MARK: TrackingTheMostProminentObject.md

    /// Article snippet "Track the most prominent object".
    static func trackProminentObject(frames: [(y: [UInt8], uv: [UInt8], time: Double)]) throws {
        let detector = try ObjectDetector.objectDetector(options: ObjectDetectorOptions())
        let orientation = ImageOrientation(device: .portrait, camera: .back)   // .right
        for frame in frames {
            let image = try VisionImage(nv12Y: frame.y, uv: frame.uv, width: 640, height: 480,
                                        orientation: orientation)
            let objects = try detector.results(in: image, timestamp: frame.time)
            if let object = objects.first {
                print("object #\(object.trackingID ?? -1) at \(object.frame)")   // upright pixels
            }
        }
    }

    /// Article snippet "Drop late frames".
    static func processLiveFrames(_ frames: AsyncStream<VisionImage>) async throws -> FrameStreamProcessor<VisionImage, [DetectedObject]>.Statistics {
        let detector = try ObjectDetector.objectDetector(options: ObjectDetectorOptions())
        let processor = FrameStreamProcessor<VisionImage, [DetectedObject]> { frame in
            try detector.results(in: frame)
        }
        let statistics = try await processor.run(frames) { frame, objects in
            // Draw `objects` over `frame` (upright coordinates).
        }
        print("\(statistics.processed) frames processed, \(statistics.dropped) dropped")
        return statistics
    }

    func testTrackingSnippetsRun() async throws {
        // Two mid-grey NV12 frames: nothing to find, but every call of the snippet runs.
        let y = [UInt8](repeating: 128, count: 640 * 480), uv = [UInt8](repeating: 128, count: 640 * 240)
        try Self.trackProminentObject(frames: [(y, uv, 0), (y, uv, 1.0 / 30)])
        // The photo of a cat, three times: one object with one tracking ID throughout.
        let cat = try VisionImage(contentsOf: "Models/images/chelsea.png")
        let detector = try ObjectDetector.objectDetector(options: ObjectDetectorOptions())
        let ids = try (0..<3).map { _ in try detector.results(in: cat).first?.trackingID }
        XCTAssertNotNil(ids[0])
        XCTAssertEqual(Set(ids), [ids[0]])
        let frames = AsyncStream<VisionImage> { continuation in
            for _ in 0..<3 { continuation.yield(cat) }
            continuation.finish()
        }
        let statistics = try await Self.processLiveFrames(frames)
        XCTAssertEqual(statistics.processed + statistics.dropped, 3)
        XCTAssertGreaterThanOrEqual(statistics.processed, 1)
    }

    // MARK: DetectingObjectsInAPhoto.md

    /// Article snippet "Find several objects and their categories".
    static func detectObjectsInPhoto() async throws -> [DetectedObject] {
        var options = ObjectDetectorOptions()
        options.detectorMode = .singleImage
        options.shouldEnableMultipleObjects = true              // up to maxObjectCount (5)
        options.shouldEnableClassification = true              // coarse categories
        let detector = try ObjectDetector.objectDetector(options: options)
        let image = try VisionImage(contentsOf: "Models/images/motorcycle.png")
        let objects = try await detector.process(image)
        for object in objects {
            print(object.frame, object.classificationCategory, object.confidence as Any)
        }
        return objects
    }

    /// Article snippet "Large photos".
    static func detectInLargePhoto(path: String) throws -> [DetectedObject] {
        var options = ObjectDetectorOptions()
        options.detectorMode = .singleImage
        let detector = try ObjectDetector.objectDetector(options: options)
        // A 12-megapixel JPEG decodes at 1/2, 1/4 or 1/8 scale when the models need less ...
        let photo = try VisionImage(contentsOf: path, minimumShortSide: detector.preferredMinimumShortSide)
        // ... and the boxes still come back in the full photo's pixels.
        let objects = try detector.results(in: photo)
        return objects
    }

    func testPhotoSnippetsRun() async throws {
        let objects = try await Self.detectObjectsInPhoto()
        XCTAssertFalse(objects.isEmpty)
        XCTAssertTrue(objects.allSatisfy { $0.trackingID == nil }, "single-image mode has no tracking IDs")
        XCTAssertEqual(try Self.detectInLargePhoto(path: "Models/images/rocket.jpg").count, 1,
                       "the most prominent object (the rocket's nose, README)")
        let chelsea = try Self.detectInLargePhoto(path: "Models/images/chelsea.png")
        XCTAssertEqual(chelsea.count, 1)
    }

    // MARK: UsingACustomClassifier.md

    /// Article snippet "Label objects with your own classifier".
    static func labelWithCustomClassifier() throws -> [DetectedObject] {
        var options = CustomObjectDetectorOptions(localModel: LocalModel(path: "Models/efficientnet_lite0.tflite"))
        options.detectorMode = .singleImage
        options.shouldEnableClassification = true
        options.maxPerObjectLabelCount = 3                      // default 10
        options.classificationConfidenceThreshold = 0.3         // default: the metadata's, else 0
        let detector = try ObjectDetector.objectDetector(options: options)
        let objects = try detector.results(in: VisionImage(contentsOf: "Models/images/chelsea.png"))
        for object in objects {
            for label in object.labels {
                print(label.text ?? "class \(label.index)", label.confidence)
            }
        }
        return objects
    }

    func testCustomClassifierSnippetRuns() throws {
        let object = try XCTUnwrap(try Self.labelWithCustomClassifier().first)
        XCTAssertFalse(object.labels.isEmpty)
        XCTAssertLessThanOrEqual(object.labels.count, 3)
        XCTAssertTrue(object.labels.allSatisfy { $0.confidence >= 0.3 })
        XCTAssertTrue(object.labels[0].text?.contains("cat") ?? false, "\(object.labels)")
    }

    // MARK: ChoosingADetectorModel.md

    /// Article snippet "Use a detector model".
    static func detectWithYOLO(modelPath: String, labelsPath: String) throws -> [DetectedObject] {
        var options = ObjectDetectorOptions()
        options.detectorMode = .singleImage
        options.shouldEnableMultipleObjects = true
        options.shouldEnableClassification = true                // the detector's own classes
        options.detectorModel = .local(LocalModel(path: modelPath))
        options.detectorLabelsPath = labelsPath                  // else labels packed in the model
        options.detectionScoreThreshold = 0.4                    // else the family's default
        let detector = try ObjectDetector.objectDetector(options: options)
        let objects = try detector.results(in: VisionImage(contentsOf: "Models/images/motorcycle.png"))
        return objects
    }

    /// Article snippet "Tune a built-in family".
    static func registerStricterYOLOv5() {
        var strict = YOLOv5Family()
        strict.iouThreshold = 0.3
        strict.defaultScoreThreshold = 0.5
        DetectorFamilyRegistry.shared.register(strict)           // tried before the built-in one
    }

    func testDetectorModelSnippetsRun() throws {
        let objects = try Self.detectWithYOLO(modelPath: TestPaths.sharedModel("yolov8n_int8_640.tflite"),
                                              labelsPath: TestPaths.sharedModel("coco_labels.txt"))
        XCTAssertEqual(objects.first?.labels.first?.text, "motorcycle", "\(objects)")
        XCTAssertTrue(objects.allSatisfy { ($0.labels.first?.confidence ?? 0) >= 0.4 }, "the snippet's threshold")
        Self.registerStricterYOLOv5()
        defer {
            // Put a default YOLOv5 family back (unregistering removes the built-in one too).
            DetectorFamilyRegistry.shared.unregister(named: "yolov5")
            DetectorFamilyRegistry.shared.register(YOLOv5Family())
        }
        XCTAssertEqual(DetectorFamilyRegistry.shared.families.prefix(2).map(\.name), ["yolov5", "ssd-postprocess"])
        XCTAssertEqual((DetectorFamilyRegistry.shared.families.first as? YOLOv5Family)?.iouThreshold, 0.3)
    }

    // MARK: UsingHostedModels.md

    /// Article snippet "Download a hosted model" (needs a model host; compiled, not run).
    static func downloadHostedModel() async throws -> String {
        let hosted = RemoteModel(name: "product_classifier", host: URL(string: "https://models.example.com/")!)
        let download = ModelManager.shared.download(hosted, conditions: ModelDownloadConditions(allowsCellularAccess: false))
        for await progress in download.progressUpdates() {
            print("\(Int(progress.fractionCompleted * 100)) %")
        }
        let path = try await download.result()                  // the verified model file's path
        return path
    }

    /// Article snippet "Prefer the hosted model, fall back to the bundled one".
    static func detectorPreferringHostedModel() throws -> ObjectDetector {
        let hosted = RemoteModel(name: "product_classifier", host: URL(string: "https://models.example.com/")!)
        let bundled = LocalModel(path: "Models/efficientnet_lite0.tflite")
        var options = CustomObjectDetectorOptions(localModel: bundled)
        options.model = .remote(hosted, fallback: bundled)       // hosted once downloaded
        options.shouldEnableClassification = true
        let detector = try ObjectDetector.objectDetector(options: options)
        return detector
    }

    func testHostedModelFallbackSnippetRuns() throws {
        let hosted = RemoteModel(name: "product_classifier", host: URL(string: "https://models.example.com/")!)
        try XCTSkipIf(ModelManager.shared.isModelDownloaded(hosted), "a model of that name is in the shared cache")
        // Nothing downloaded: the bundled classifier serves.
        let detector = try Self.detectorPreferringHostedModel()
        let object = try XCTUnwrap(try detector.results(in: VisionImage(contentsOf: "Models/images/chelsea.png")).first)
        XCTAssertFalse(object.labels.isEmpty)
        _ = Self.downloadHostedModel   // compiled only: it needs a model host
    }

    // MARK: MappingOrientation.md

    /// Article snippet "Orientation from the device and camera".
    static func orientations() -> [ImageOrientation?] {
        let iOSBackCamera = ImageOrientation(device: .portrait, camera: .back)        // .right
        let iOSFrontCamera = ImageOrientation(device: .portrait, camera: .front)      // .leftMirrored
        let android = ImageOrientation(clockwiseRotationDegrees: 90)                  // .right
        let exif = ImageOrientation(exifValue: 6)                                     // .right
        let named = ImageOrientation(name: "rightTop")                                // .right
        return [iOSBackCamera, iOSFrontCamera, android, exif, named]
    }

    /// Article snippet "Draw on the sensor buffer".
    static func sensorRect(of object: DetectedObject, in image: VisionImage) -> ImageRect {
        let upright = ImageRect(x: Double(object.frame.minX), y: Double(object.frame.minY),
                                width: Double(object.frame.width), height: Double(object.frame.height))
        let sensorRect = image.orientationTransform.storedRect(fromUpright: upright)
        return sensorRect
    }

    func testOrientationSnippetsRun() throws {
        XCTAssertEqual(Self.orientations(), [.right, .leftMirrored, .right, .right, .right])
        let stored = try VisionImage(pixels: [UInt8](repeating: 0, count: 40 * 30 * 3), width: 40, height: 30,
                                     format: .rgb8, orientation: .right)
        let object = DetectedObject(frame: CGRect(x: 0, y: 0, width: 10, height: 5), trackingID: nil, labels: [])
        // Upright (30×40) top-left corner ↔ the stored buffer's bottom-left corner for `.right`.
        XCTAssertEqual(Self.sensorRect(of: object, in: stored), ImageRect(x: 0, y: 20, width: 5, height: 10))
    }
}
