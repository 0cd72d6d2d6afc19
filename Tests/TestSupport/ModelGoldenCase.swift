import Foundation
import TFLiteInterpreter
import TFLiteSchema

/// One conformance-sweep case, `Tests/Fixtures/models/<model>/<case>/` (format:
/// `Scripts/goldens/models.py`): a model, one input (a photo, a constant, or seeded random
/// pixels) and the reference runtime's whole outputs, deflated in `outputs.zip`.
public struct ModelGoldenCase {
    /// How the model input is made.
    public enum Input: Equatable {
        /// A stored photo (`images/…npy`, uint8 HWC), mapped by `scale` and `offset`.
        case photo(String)
        /// Every element equal to the value (model input units).
        case constant(Double)
        /// SplitMix64 pixels in [0, 256) from the seed, mapped by `scale` and `offset`.
        case random(UInt64)
    }

    /// One stored output.
    public struct Output {
        /// Output shape.
        public var shape: [Int]
        /// Largest finite |value| of the reference output.
        public var maxAbs: Double
        /// For float outputs stored as integer multiples of a step: the step; nil when stored as is.
        public var step: Double?
        /// Axes along which the stored multiples are difference-coded.
        public var deltaAxes: [Int]

        /// The multiples of `step` from their stored, difference-coded form: a running sum
        /// along each delta axis.
        func multiples(_ coded: [Double]) throws -> [Double] {
            var values = coded
            guard shape.reduce(1, *) == values.count else {
                throw GoldenCaseError("stored output has \(values.count) values, shape \(shape)")
            }
            for axis in deltaAxes {
                guard shape.indices.contains(axis) else { throw GoldenCaseError("delta axis \(axis) outside \(shape)") }
                let inner = shape[(axis + 1)...].reduce(1, *), size = shape[axis]
                for i in values.indices where (i / inner) % size != 0 { values[i] += values[i - inner] }
            }
            return values
        }
    }

    /// `<model>/<case>`.
    public let name: String
    /// The case directory.
    public let directory: URL
    /// `Models/x.tflite` or `shared/x.tflite`.
    public let model: String
    /// The input.
    public let input: Input
    /// Pixel-to-input mapping.
    public let scale: Float, offset: Float
    /// Bit-exact comparison (integer models, detection post-processing); else the float rule.
    public let exact: Bool
    /// Expected outputs, in model order.
    public let outputs: [Output]
    /// Why no input can discriminate (the model's output is the same for every input), if so.
    public let saturatedReason: String?

    /// Reads `case.json` in `directory`.
    public init(directory: URL) throws {
        self.directory = directory
        name = directory.deletingLastPathComponent().lastPathComponent + "/" + directory.lastPathComponent
        let data = try Data(contentsOf: directory.appendingPathComponent("case.json"))
        guard let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let model = json["model"] as? String, let spec = json["input"] as? [String: Any],
              let kind = spec["kind"] as? String,
              let scale = json["scale"] as? Double, let offset = json["offset"] as? Double,
              let tolerance = json["tolerance"] as? String, let outputs = json["outputs"] as? [[String: Any]] else {
            throw GoldenCaseError("malformed \(directory.path)/case.json")
        }
        switch (kind, spec["image"] as? String, spec["value"] as? Double, spec["seed"] as? UInt64) {
        case ("photo", let image?, _, _): input = .photo(image)
        case ("constant", _, let value?, _): input = .constant(value)
        case ("random", _, _, let seed?): input = .random(seed)
        default: throw GoldenCaseError("\(directory.path)/case.json: unknown input \(spec)")
        }
        self.model = model
        saturatedReason = json["saturated"] as? String
        self.scale = Float(scale); self.offset = Float(offset); exact = tolerance == "exact"
        self.outputs = try outputs.map {
            guard let shape = $0["shape"] as? [Int], let maxAbs = $0["max_abs"] as? Double else {
                throw GoldenCaseError("malformed output entry in \(directory.path)/case.json")
            }
            return Output(shape: shape, maxAbs: maxAbs, step: $0["step"] as? Double,
                          deltaAxes: $0["delta_axes"] as? [Int] ?? [])
        }
    }

    /// Every case under `Tests/Fixtures/models/<model>`, sorted by name.
    public static func cases(model: String) throws -> [ModelGoldenCase] {
        let directory = TestPaths.fixturesDirectory.appendingPathComponent("models/\(model)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path))?.sorted() ?? []
        return try names.map { try ModelGoldenCase(directory: directory.appendingPathComponent($0)) }
    }

    /// The model's path; when it is absent, `XCTSkip` locally and ``MissingPrerequisite`` under
    /// CI or where `../shared/models` exists (see `TestPaths`).
    public func modelPath() throws -> String {
        model.hasPrefix("shared/") ? try TestPaths.sharedModel(String(model.dropFirst("shared/".count)))
            : try TestPaths.model(String(model.dropFirst("Models/".count)))
    }

    /// The model input bytes for an input of `count` elements of `type`: float32 values
    /// `pixel × scale + offset` (or the constant), rounded half to even and clamped for
    /// integer types — exactly as the generator computed them.
    public func inputData(count: Int, type: Tensor.DataType) throws -> Data {
        var values: [Float]
        switch input {
        case .photo(let image):
            let pixels = try NumPyArray(contentsOf: TestPaths.fixturesDirectory
                .appendingPathComponent("models").appendingPathComponent(image).path)
            guard pixels.elementCount == count else {
                throw GoldenCaseError("\(name): image has \(pixels.elementCount) values, the input \(count)")
            }
            values = [UInt8](pixels.data).map { Float($0) * scale + offset }
        case .constant(let value):
            values = Array(repeating: Float(value), count: count)
        case .random(let seed):
            var generator = SeededGenerator(seed: seed)
            values = (0..<count).map { _ in
                let pixel = Float(generator.next() >> 40) / Float(1 << 24) * 256
                return pixel * scale + offset
            }
        }
        switch type {
        case .float32: return values.withUnsafeBufferPointer { Data(buffer: $0) }
        case .uInt8: return Data(values.map { UInt8(max(0, min(255, $0.rounded(.toNearestOrEven)))) })
        case .int8: return Data(values.map { UInt8(bitPattern: Int8(max(-128, min(127, $0.rounded(.toNearestOrEven))))) })
        default: throw GoldenCaseError("\(name): input type \(type) is not an image type")
        }
    }

    /// The stored outputs (`outputs.zip`), in model order.
    public func expectedArrays() throws -> [NumPyArray] {
        let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent("outputs.zip")))
        let files = try AssociatedFileArchive.files(in: bytes)
        return try outputs.indices.map { k in
            guard let file = files["output_\(k).npy"] else { throw GoldenCaseError("\(name): outputs.zip lacks output_\(k).npy") }
            return try NumPyArray(npyData: Data(file))
        }
    }

    /// Runs the case on a fresh interpreter and returns its outputs, in model order.
    /// `threadCount`: the interpreter's (nil: its default, every core).
    public func run(threadCount: Int? = nil) throws -> [NumPyArray] {
        let interpreter = try Interpreter(modelPath: try modelPath(), options: Interpreter.Options(threadCount: threadCount))
        try interpreter.allocateTensors()
        let inputTensor = try interpreter.input(at: 0)
        try interpreter.copy(try inputData(count: inputTensor.shape.elementCount, type: inputTensor.dataType),
                             toInputAt: 0)
        try interpreter.invoke()
        return try (0..<interpreter.outputTensorCount).map { k in
            let tensor = try interpreter.output(at: k)
            return try NumPyArray(dataType: NumPyArray.DataType(tensor.dataType), shape: tensor.shape.dimensions,
                                  data: tensor.data)
        }
    }

    /// Runs the case (on `threadCount` threads, nil: the default); one message per problem
    /// (empty when it passes).
    public func failures(threadCount: Int? = nil) -> [String] {
        do {
            let actual = try run(threadCount: threadCount), expected = try expectedArrays()
            guard actual.count == expected.count else { return ["\(actual.count) outputs, the golden has \(expected.count)"] }
            return try actual.indices.compactMap { k in
                try mismatch(actual[k], expected[k], outputs[k]).map { "output \(k): \($0)" }
            }
        } catch {
            return ["\(error)"]
        }
    }

    /// Nil when `actual` matches stored output `k` (`expected`, from ``expectedArrays()``).
    public func mismatch(_ actual: NumPyArray, output k: Int, expected: NumPyArray) throws -> String? {
        try mismatch(actual, expected, outputs[k])
    }

    /// Compares one whole output with its stored reference.
    private func mismatch(_ actual: NumPyArray, _ reference: NumPyArray, _ output: Output) throws -> String? {
        guard actual.shape == output.shape else { return "shape \(actual.shape) != \(output.shape)" }
        guard let step = output.step else {
            return TolerantCompare.mismatch(actual, reference, tolerance: exact ? .exact : .float)
        }
        // A float output stored as multiples of `step`, each within step/2 of the reference.
        guard actual.elementCount == reference.elementCount else {
            return "\(actual.elementCount) values, the golden has \(reference.elementCount)"
        }
        let expected = try output.multiples(reference.doubleValues()).map { $0 * step }
        let allowed = TolerantCompare.floatTolerance * max(1, output.maxAbs) - step / 2
        return TolerantCompare.mismatch(actual.doubleValues(), expected) { _ in allowed }
    }
}
