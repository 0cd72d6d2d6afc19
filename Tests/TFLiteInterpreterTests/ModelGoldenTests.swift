import Foundation
import TFLiteInterpreter
import TestSupport
import XCTest

/// Every reference model on real photos (and seeded random images) against the outputs of the
/// reference runtime's reference kernels (`Scripts/goldens/models.py` → `Tests/Fixtures/models`).
/// Float models (including the hybrid dynamic-range one) within 2e-3 × max(1, max|reference|);
/// quantized models bit-exact.
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

    /// Runs every case of `models`; fails listing every mismatch, skips when no model is present.
    private func check(_ models: [String]) throws {
        var failures: [String] = [], skipped: [String] = [], ran = 0
        for model in models {
            let directory = TestPaths.fixturesDirectory.appendingPathComponent("models/\(model)")
            let cases = (try? FileManager.default.contentsOfDirectory(atPath: directory.path))?.sorted() ?? []
            XCTAssertFalse(cases.isEmpty, "no golden cases for \(model): run Scripts/generate-goldens.sh models")
            for name in cases {
                do {
                    if let failure = try run(ModelGoldenCase(directory: directory.appendingPathComponent(name))) {
                        failures.append("\(model)/\(name): \(failure)")
                    }
                    ran += 1
                } catch let skip as XCTSkip {
                    skipped.append("\(model)/\(name): \(skip.message ?? "")")
                } catch {
                    failures.append("\(model)/\(name): \(error)")
                }
            }
        }
        if ran == 0 && failures.isEmpty { throw XCTSkip(skipped.joined(separator: "; ")) }
        XCTAssertTrue(failures.isEmpty, failures.joined(separator: "\n"))
    }

    /// Runs one case; nil when every output matches.
    private func run(_ golden: ModelGoldenCase) throws -> String? {
        let interpreter = try Interpreter(modelPath: try golden.modelPath())
        try interpreter.allocateTensors()
        let input = try interpreter.input(at: 0)
        try interpreter.copy(try golden.inputData(for: input.dataType), toInputAt: 0)
        try interpreter.invoke()
        var problems: [String] = []
        for (k, expectation) in golden.outputs.enumerated() {
            let tensor = try interpreter.output(at: k)
            guard tensor.shape.dimensions == expectation.shape else {
                problems.append("output \(k): shape \(tensor.shape.dimensions) != \(expectation.shape)"); continue
            }
            let actual = try NumPyArray(dataType: NumPyArray.DataType(tensor.dataType), shape: [tensor.shape.elementCount],
                                        data: tensor.data).doubleValues()
            let sampled = stride(from: 0, to: actual.count, by: expectation.stride).map { actual[$0] }
            let expected = try NumPyArray(contentsOf: golden.directory.appendingPathComponent("output_\(k).npy").path).doubleValues()
            guard sampled.count == expected.count else {
                problems.append("output \(k): \(sampled.count) sampled values, golden has \(expected.count)"); continue
            }
            if golden.exact {
                let differing = sampled.indices.filter { sampled[$0] != expected[$0] }
                if let first = differing.first {
                    problems.append("output \(k): \(differing.count) of \(sampled.count) values differ, first at \(first * expectation.stride) (got \(sampled[first]), expected \(expected[first]))")
                }
            } else {
                let allowed = TolerantCompare.floatTolerance * max(1, expectation.maxAbs)
                let worst = sampled.indices.max { abs(sampled[$0] - expected[$0]) < abs(sampled[$1] - expected[$1]) }
                if let w = worst, !(abs(sampled[w] - expected[w]) <= allowed) {
                    problems.append("output \(k): max |diff| \(abs(sampled[w] - expected[w])) at \(w * expectation.stride) > \(allowed)")
                }
            }
        }
        return problems.isEmpty ? nil : problems.joined(separator: "; ")
    }
}

/// One `Tests/Fixtures/models/<model>/<case>/case.json`.
private struct ModelGoldenCase {
    struct Output { var stride: Int; var shape: [Int]; var maxAbs: Double }
    let directory: URL
    let model: String
    let image: String
    let scale: Float
    let offset: Float
    let exact: Bool
    let outputs: [Output]

    init(directory: URL) throws {
        self.directory = directory
        let data = try Data(contentsOf: directory.appendingPathComponent("case.json"))
        guard let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let model = json["model"] as? String, let image = json["image"] as? String,
              let scale = json["scale"] as? Double, let offset = json["offset"] as? Double,
              let tolerance = json["tolerance"] as? String, let outputs = json["outputs"] as? [[String: Any]] else {
            throw GoldenCaseError("malformed \(directory.path)/case.json")
        }
        self.model = model; self.image = image
        self.scale = Float(scale); self.offset = Float(offset); exact = tolerance == "exact"
        self.outputs = try outputs.map {
            guard let stride = $0["stride"] as? Int, let shape = $0["shape"] as? [Int], let maxAbs = $0["max_abs"] as? Double else {
                throw GoldenCaseError("malformed output entry in \(directory.path)/case.json")
            }
            return Output(stride: stride, shape: shape, maxAbs: maxAbs)
        }
    }

    func modelPath() throws -> String {
        model.hasPrefix("shared/") ? try TestPaths.sharedModel(String(model.dropFirst(7)))
            : try TestPaths.model(String(model.dropFirst("Models/".count)))
    }

    /// `image × scale + offset` in Float32, then rounded and clamped for integer inputs.
    func inputData(for type: Tensor.DataType) throws -> Data {
        let pixels = try NumPyArray(contentsOf: directory.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(image).path)
        let values = [UInt8](pixels.data).map { Float($0) * scale + offset }
        switch type {
        case .float32: return values.withUnsafeBufferPointer { Data(buffer: $0) }
        case .uInt8: return Data(values.map { UInt8(max(0, min(255, $0.rounded(.toNearestOrEven)))) })
        case .int8: return Data(values.map { UInt8(bitPattern: Int8(max(-128, min(127, $0.rounded(.toNearestOrEven))))) })
        default: throw GoldenCaseError("input type \(type) is not an image type")
        }
    }
}
