import Foundation
import ImageCodecs
import ModelHosting
import ObjectTracking
@testable import ObjectDetection
import TestSupport
import XCTest

/// The SDK's flows on the real sample photos. Expected boxes were recorded from reviewed runs
/// (the engine under them matches the reference runtime, see ModelGoldenTests) and are checked
/// to within a few pixels; labels exactly.
final class DetectorFlowTests: XCTestCase {
    private func photo(_ name: String, orientation: ImageOrientation = .up) throws -> VisionImage {
        let path = TestPaths.imagesDirectory.appendingPathComponent(name + ".png").path
        guard FileManager.default.fileExists(atPath: path) else { throw TestEnvironment.missing("\(path) absent: run Scripts/fetch-models.sh") }
        return try VisionImage(pngFile: path, orientation: orientation)
    }

    private var modelDirectory: String {
        get throws { _ = try TestPaths.model(DefaultModels.localizerFileName); return TestPaths.modelsDirectory.path }
    }

    private func assertFrame(_ frame: CGRect, _ x: Double, _ y: Double, _ w: Double, _ h: Double,
                             accuracy: Double = 3, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(Double(frame.minX), x, accuracy: accuracy, "x of \(frame)", file: file, line: line)
        XCTAssertEqual(Double(frame.minY), y, accuracy: accuracy, "y of \(frame)", file: file, line: line)
        XCTAssertEqual(Double(frame.width), w, accuracy: accuracy, "width of \(frame)", file: file, line: line)
        XCTAssertEqual(Double(frame.height), h, accuracy: accuracy, "height of \(frame)", file: file, line: line)
    }

    /// The default detector's most prominent object per sample photo: x, y, width, height.
    static let prominentObjectGoldens: [String: (Double, Double, Double, Double)] = [
        "astronaut": (0, 16, 371, 496), "camera": (0, 68, 323, 444),
        "chelsea": (0, 0, 386, 300), "motorcycle": (101, 80, 577, 368),
    ]

    func testDefaultDetectorReturnsTheMostProminentObjectOfEachPhoto() throws {
        var options = ObjectDetectorOptions()
        options.detectorMode = .singleImage
        let detector = try ObjectDetector.objectDetector(options: options, modelDirectory: modelDirectory)
        for (name, box) in Self.prominentObjectGoldens {
            let objects = try detector.results(in: try photo(name))
            XCTAssertEqual(objects.count, 1, name)
            guard let object = objects.first else { continue }
            assertFrame(object.frame, box.0, box.1, box.2, box.3)
            XCTAssertNil(object.trackingID, "single-image mode has no tracking IDs")
            XCTAssertTrue(object.labels.isEmpty, "classification is off")
            XCTAssertEqual(object.classificationCategory, .unknown)
            XCTAssertNil(object.confidence)
        }
        // The rocket launch has no region the segmentation model recognises; the classifier's
        // activation map for `missile` gives a box (see EverydayObjectTests).
        XCTAssertEqual(try detector.results(in: try photo("rocket")).count, 1)
    }

    func testDefaultClassificationLabelsCoarseCategoriesAndLeavesOthersUnknown() throws {
        var options = ObjectDetectorOptions()
        options.detectorMode = .singleImage
        options.shouldEnableMultipleObjects = true
        options.shouldEnableClassification = true
        let detector = try ObjectDetector.objectDetector(options: options, modelDirectory: modelDirectory)
        let coffee = try detector.results(in: try photo("coffee"))
        XCTAssertEqual(coffee.count, 5, "up to five objects with multiple objects on")
        let food = coffee.filter { $0.classificationCategory == .food }
        XCTAssertEqual(food.count, 1)
        XCTAssertEqual(food.first?.labels, [ObjectLabel(text: "Food", index: 1, confidence: food.first?.confidence ?? 0)])
        XCTAssertGreaterThan(food.first?.confidence ?? 0, 0.8)
        // People and animals are in none of the five categories.
        for name in ["astronaut", "chelsea"] {
            for object in try detector.results(in: try photo(name)) {
                XCTAssertEqual(object.classificationCategory, .unknown, name)
                XCTAssertTrue(object.labels.isEmpty, name)
            }
        }
    }

    func testStreamModeKeepsTrackingIDsAcrossMovingFramesAndSingleModeHasNone() throws {
        let full = try photo("chelsea").uprightRGB()
        // Five frames of a window sliding right by 6 px per frame: the cat moves left.
        let frames = try (0..<5).map { step -> VisionImage in
            let x0 = step * 6, width = full.width - 30
            var pixels = [UInt8](); pixels.reserveCapacity(width * full.height * 3)
            for y in 0..<full.height {
                let row = (y * full.width + x0) * 3
                pixels += full.pixels[row..<(row + width * 3)]
            }
            return try VisionImage(pixels: pixels, width: width, height: full.height, format: .rgb8)
        }
        let clock = ManualTrackingClock()
        let stream = try ObjectDetector.objectDetector(options: ObjectDetectorOptions(), modelDirectory: modelDirectory,
                                                       clock: clock)
        var ids: [Int?] = []
        for frame in frames {
            ids.append(try stream.results(in: frame).first?.trackingID)
            clock.advance(by: 1.0 / 30)
        }
        XCTAssertNotNil(ids[0])
        XCTAssertEqual(Set(ids).count, 1, "one object keeps one ID: \(ids)")

        var single = ObjectDetectorOptions()
        single.detectorMode = .singleImage
        let detector = try ObjectDetector.objectDetector(options: single, modelDirectory: modelDirectory)
        XCTAssertNil(try detector.results(in: frames[0]).first?.trackingID)
    }

    func testResultsAreInUprightCoordinatesForAllEightOrientations() throws {
        var options = ObjectDetectorOptions()
        options.detectorMode = .singleImage
        let detector = try ObjectDetector.objectDetector(options: options, modelDirectory: modelDirectory)
        let upright = try photo("chelsea").uprightRGB()
        let reference = try XCTUnwrap(try detector.results(in: VisionImage(upright)).first)
        for orientation in ImageOrientation.allCases {
            // Store the upright photo the way a camera with this orientation would.
            let transform = OrientationTransform(orientation: orientation, storedWidth: orientation.swapsDimensions ? upright.height : upright.width,
                                                 storedHeight: orientation.swapsDimensions ? upright.width : upright.height)
            var stored = [UInt8](repeating: 0, count: upright.width * upright.height * 3)
            for sy in 0..<transform.storedHeight {
                for sx in 0..<transform.storedWidth {
                    let p = transform.uprightPoint(storedX: Double(sx) + 0.5, storedY: Double(sy) + 0.5)
                    let src = (Int(p.y) * upright.width + Int(p.x)) * 3, dst = (sy * transform.storedWidth + sx) * 3
                    stored[dst] = upright.pixels[src]; stored[dst + 1] = upright.pixels[src + 1]; stored[dst + 2] = upright.pixels[src + 2]
                }
            }
            let image = try VisionImage(pixels: stored, width: transform.storedWidth, height: transform.storedHeight,
                                        format: .rgb8, orientation: orientation)
            let object = try XCTUnwrap(try detector.results(in: image).first, "\(orientation)")
            assertFrame(object.frame, Double(reference.frame.minX), Double(reference.frame.minY),
                        Double(reference.frame.width), Double(reference.frame.height), accuracy: 0.5)
        }
    }

    /// Photos in one job (`litevision detect a.png b.png`, batch items) stand alone in stream
    /// mode: after the cat photo, the coffee photo gives exactly what a fresh detector gives it,
    /// labels included (the cat's track, continued onto the cup, once lent the cup its cached
    /// empty labels).
    func testIndependentImagesShareNoTracksOrLabels() throws {
        var options = ObjectDetectorOptions()
        options.shouldEnableMultipleObjects = true
        options.shouldEnableClassification = true
        let fresh = try ObjectDetector.objectDetector(options: options, modelDirectory: modelDirectory)
        let alone = try fresh.results(inIndependentImage: try photo("coffee"))
        XCTAssertTrue(alone.contains { $0.classificationCategory == .food }, "the cup is labelled Food")
        let reused = try ObjectDetector.objectDetector(options: options, modelDirectory: modelDirectory)
        _ = try reused.results(inIndependentImage: try photo("chelsea"))
        let afterCat = try reused.results(inIndependentImage: try photo("coffee"))
        XCTAssertEqual(afterCat, alone)
        XCTAssertEqual(afterCat.compactMap(\.trackingID), Array(1...afterCat.count), "numbered as a fresh stream")
    }

    func testCustomClassifierLabelsAreSortedCappedAndNamedFromMetadata() throws {
        var options = CustomObjectDetectorOptions(localModel: LocalModel(path: try TestPaths.model("efficientnet_lite0.tflite")))
        options.detectorMode = .singleImage
        options.shouldEnableClassification = true
        options.maxPerObjectLabelCount = 3
        let detector = try ObjectDetector.objectDetector(options: options, modelDirectory: modelDirectory)
        let cat = try XCTUnwrap(try detector.results(in: try photo("chelsea")).first)
        XCTAssertEqual(cat.labels.map(\.text), ["Egyptian cat", "tiger cat", "tabby"])
        XCTAssertEqual(cat.labels.map(\.index), [285, 282, 281])
        XCTAssertEqual(cat.labels.map(\.confidence), cat.labels.map(\.confidence).sorted(by: >))
        options.classificationConfidenceThreshold = 0.5
        let confident = try ObjectDetector.objectDetector(options: options, modelDirectory: modelDirectory)
        XCTAssertEqual(try confident.results(in: try photo("chelsea")).first?.labels.map(\.text), ["Egyptian cat"])
    }

    func testYOLODetectorFindsPersonCatMotorcycleAndCupWithLetterboxing() throws {
        var options = ObjectDetectorOptions()
        options.detectorMode = .singleImage
        options.shouldEnableMultipleObjects = true
        options.shouldEnableClassification = true
        options.detectorModel = .local(LocalModel(path: try TestPaths.sharedModel("yolov8n_int8_640.tflite")))
        options.detectorLabelsPath = try TestPaths.sharedModel("coco_labels.txt")
        let detector = try ObjectDetector.objectDetector(options: options)
        let expected = [("astronaut", "person", (7.0, 20.0, 357.0, 490.0)), ("chelsea", "cat", (4, 0, 437, 284)),
                        ("motorcycle", "motorcycle", (109, 70, 573, 369)), ("coffee", "cup", (171, 17, 251, 308))]
        for (name, label, box) in expected {
            let objects = try detector.results(in: try photo(name))
            let hit = try XCTUnwrap(objects.first { $0.labels.first?.text == label }, "\(label) in \(name): \(objects)")
            assertFrame(hit.frame, box.0, box.1, box.2, box.3)
        }
    }

    func testDynamicRangeYOLOFindsTheSameObjectsAsTheFullIntegerOne() throws {
        // Two quantization schemes of one detector: what users see, the detections, must agree.
        func detector(_ model: String) throws -> ObjectDetector {
            var options = ObjectDetectorOptions()
            options.detectorMode = .singleImage
            options.shouldEnableMultipleObjects = true
            options.shouldEnableClassification = true
            options.detectionScoreThreshold = 0.5
            options.detectorModel = .local(LocalModel(path: try TestPaths.sharedModel(model)))
            options.detectorLabelsPath = try TestPaths.sharedModel("coco_labels.txt")
            return try ObjectDetector.objectDetector(options: options)
        }
        let hybrid = try detector("yolov8n_dynamic_range_640.tflite"), integer = try detector("yolov8n_int8_640.tflite")
        for name in ["motorcycle", "coffee"] {
            let a = try hybrid.results(in: try photo(name)), b = try integer.results(in: try photo(name))
            XCTAssertFalse(a.isEmpty, name)
            for object in a where object.labels.first!.confidence > 0.6 {
                let match = b.first { $0.labels.first?.text == object.labels.first?.text && iou($0.frame, object.frame) > 0.8 }
                XCTAssertNotNil(match, "\(name): \(object) has no counterpart in \(b)")
            }
        }
    }

    private func iou(_ a: CGRect, _ b: CGRect) -> Double {
        let i = a.intersection(b)
        guard !i.isNull else { return 0 }
        let inter = Double(i.width * i.height)
        return inter / (Double(a.width * a.height + b.width * b.height) - inter)
    }

    func testSSDDetectorWithBackgroundSlotLabelFile() throws {
        var options = ObjectDetectorOptions()
        options.detectorMode = .singleImage
        options.shouldEnableClassification = true
        options.detectorModel = .local(LocalModel(path: try TestPaths.sharedModel("ssd_pets_uint8.tflite")))
        options.detectorLabelsPath = try TestPaths.sharedModel("ssd_pets_labels.txt")   // first line `???`
        let detector = try ObjectDetector.objectDetector(options: options)
        let image = try photo("chelsea")   // outside XCTUnwrap, which would turn its skip into a failure
        let pet = try XCTUnwrap(try detector.results(in: image).first)
        XCTAssertEqual(pet.labels.first?.text, "Abyssinian")
        XCTAssertEqual(pet.labels.first?.index, 1, "index in the label file, after the background slot")
    }

    func testBlazeFaceModelsFindTheAstronautsFace() throws {
        for (model, box) in [("face_detection_short_range.tflite", (179.0, 81.0, 93.0, 93.0)),
                             ("face_detection_full_range.tflite", (173, 68, 107, 107))] {
            var options = ObjectDetectorOptions()
            options.detectorMode = .singleImage
            options.shouldEnableClassification = true
            options.detectorModel = .local(LocalModel(path: try TestPaths.model(model)))
            let face = try XCTUnwrap(try ObjectDetector.objectDetector(options: options).results(in: try photo("astronaut")).first)
            XCTAssertEqual(face.labels.first?.text, "Face")
            assertFrame(face.frame, box.0, box.1, box.2, box.3)
        }
    }

    func testAsyncAndCompletionHandlerFormsMatchTheSynchronousOne() async throws {
        var options = ObjectDetectorOptions()
        options.detectorMode = .singleImage
        let detector = try ObjectDetector.objectDetector(options: options, modelDirectory: modelDirectory)
        let image = try photo("motorcycle")
        let sync = try detector.results(in: image)
        let async = try await detector.process(image)
        XCTAssertEqual(sync, async)
        let viaCompletion: [DetectedObject] = try await withCheckedThrowingContinuation { continuation in
            detector.process(image) { objects, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: objects ?? []) }
            }
        }
        XCTAssertEqual(sync, viaCompletion)
    }

    func testMissingDefaultModelsAndBadOptionsAreTypedErrors() throws {
        XCTAssertThrowsError(try ObjectDetector.objectDetector(modelDirectory: "/nonexistent")) {
            XCTAssertTrue("\($0)".contains("fetch-models"), "\($0)")
        }
        var options = ObjectDetectorOptions()
        options.maxObjectCount = 0
        XCTAssertThrowsError(try ObjectDetector.objectDetector(options: options, modelDirectory: modelDirectory))
        var custom = CustomObjectDetectorOptions(localModel: LocalModel(path: "/nonexistent.tflite"))
        custom.shouldEnableClassification = true
        XCTAssertThrowsError(try ObjectDetector.objectDetector(options: custom, modelDirectory: modelDirectory))
    }

    func testNV12AndI420FramesGiveTheSameObjectsAsRGB() throws {
        var options = ObjectDetectorOptions()
        options.detectorMode = .singleImage
        let detector = try ObjectDetector.objectDetector(options: options, modelDirectory: modelDirectory)
        let rgb = try photo("motorcycle").uprightRGB()
        let reference = try XCTUnwrap(try detector.results(in: VisionImage(rgb)).first)
        // BT.601 video range, chroma averaged over 2×2 blocks, as camera pipelines produce.
        let w = rgb.width, h = rgb.height, cw = (w + 1) / 2, ch = (h + 1) / 2
        var y = [UInt8](repeating: 0, count: w * h), u = [UInt8](repeating: 0, count: cw * ch), v = u
        func component(_ x: Int, _ yy: Int, _ c: Int) -> Double { Double(rgb.pixels[(yy * w + x) * 3 + c]) / 255 }
        for row in 0..<h {
            for col in 0..<w {
                let (r, g, b) = (component(col, row, 0), component(col, row, 1), component(col, row, 2))
                y[row * w + col] = UInt8((16 + 65.481 * r + 128.553 * g + 24.966 * b).rounded())
            }
        }
        for row in 0..<ch {
            for col in 0..<cw {
                var r = 0.0, g = 0.0, b = 0.0, n = 0.0
                for dy in 0..<2 where row * 2 + dy < h {
                    for dx in 0..<2 where col * 2 + dx < w {
                        r += component(col * 2 + dx, row * 2 + dy, 0); g += component(col * 2 + dx, row * 2 + dy, 1)
                        b += component(col * 2 + dx, row * 2 + dy, 2); n += 1
                    }
                }
                r /= n; g /= n; b /= n
                u[row * cw + col] = UInt8((128 - 37.797 * r - 74.203 * g + 112.0 * b).rounded())
                v[row * cw + col] = UInt8((128 + 112.0 * r - 93.786 * g - 18.214 * b).rounded())
            }
        }
        let nv12 = try VisionImage(nv12Y: y, uv: zip(u, v).flatMap { [$0, $1] }, width: w, height: h)
        let i420 = try VisionImage(planarYUV: .i420, y: y, u: u, v: v, width: w, height: h)
        for image in [nv12, i420] {
            let object = try XCTUnwrap(try detector.results(in: image).first)
            assertFrame(object.frame, Double(reference.frame.minX), Double(reference.frame.minY),
                        Double(reference.frame.width), Double(reference.frame.height), accuracy: 6)
        }
    }
}
