import TFLiteInterpreter
import TFLiteSchema

/// One image model ready to run: interpreter, input preprocessing (from the model's metadata,
/// else the given default), and dequantized outputs. Not thread-safe: owners serialize calls.
final class ModelRunner {
    /// The interpreter (allocated).
    let interpreter: Interpreter
    /// Fills the image input tensor.
    private(set) var preprocessor: ImagePreprocessor
    /// True when the input's normalization comes from the model's metadata.
    private let hasMetadataNormalization: Bool
    /// The model file (metadata, labels).
    let file: TFLiteModelFile
    /// Where the model was loaded from, for messages.
    let path: String
    private var inputBytes: [UInt8] = []
    /// Each output's element type and quantization, which the model fixes: read once here, so
    /// that a run reads its outputs in place (a copy per output per image otherwise, 5.5 MB for
    /// deeplabv3's scores).
    private let outputFormats: [(dataType: Tensor.DataType, quantization: QuantizationParameters?)]

    /// A float output with its shape.
    struct Output {
        /// Values, dequantized for quantized tensors.
        var values: [Float]
        /// Tensor shape.
        var shape: [Int]
    }

    /// Loads `path` and prepares its single NHWC image input.
    /// - Parameters:
    ///   - floatNormalization: used for float inputs when the metadata has none.
    ///   - limits: bound the model's load (labels, archive) and the interpreter's allocations.
    ///   - preserving: picks intermediate tensors (indices in the main subgraph) to keep readable
    ///     after each run through ``preserved(_:)``; called with the parsed model file.
    init(path: String, threadCount: Int?, floatNormalization: InputNormalization,
         limits: ResourceLimits = .default, preserving: (TFLiteModelFile) throws -> Set<Int> = { _ in [] }) throws {
        self.path = path
        let model = try Model(path: path, limits: limits)
        file = model.file
        var options = Interpreter.Options(threadCount: threadCount, resourceLimits: limits)
        options.preservedTensorIndices = try preserving(model.file)
        let interpreter = try Interpreter(model: model, options: options)
        self.interpreter = interpreter
        try interpreter.allocateTensors()
        guard interpreter.inputTensorCount >= 1 else {
            throw ObjectDetectionError.unsupportedModel("\(path) has no input tensor")
        }
        outputFormats = try (0..<interpreter.outputTensorCount).map {
            let output = try interpreter.output(at: $0)
            return (output.dataType, output.quantizationParameters)
        }
        let dims = try interpreter.inputShape(at: 0).dimensions
        guard dims.count == 4, dims[0] == 1, dims[1] > 0, dims[2] > 0, dims[3] == 1 || dims[3] == 3 else {
            throw ObjectDetectionError.unsupportedModel(
                "\(path): input 0 has shape \(dims); an image input [1, height, width, 1 or 3] is needed")
        }
        // The one input-preparation rule (metadata first; see InputTensorSpec(tensor:metadata:)).
        guard let graph = file.subgraphs.first, let index = graph.inputs.first, graph.tensors.indices.contains(index) else {
            throw ObjectDetectionError.unsupportedModel("\(path) has no input tensor")
        }
        let metadata = file.metadata?.subgraphs.first?.inputTensors.first
        hasMetadataNormalization = metadata?.normalization != nil
        var description = graph.tensors[index]
        description.shape = dims
        let spec: InputTensorSpec
        do {
            spec = try InputTensorSpec(tensor: description, metadata: metadata, defaultFloatNormalization: floatNormalization)
        } catch {
            throw ObjectDetectionError.unsupportedModel("\(path): \(error)")
        }
        preprocessor = try ImagePreprocessor(spec: spec)
    }

    /// Uses `normalization` for a float input whose metadata gives none (a localizer that
    /// recognises the model family after loading it, e.g. YOLO's [0, 1]).
    func useDefaultFloatNormalization(_ normalization: InputNormalization) throws {
        guard preprocessor.spec.elementType == .float32, !hasMetadataNormalization else { return }
        var spec = preprocessor.spec
        spec.normalization = normalization
        preprocessor = try ImagePreprocessor(spec: spec)
    }

    /// Input width and height.
    var inputSize: (width: Int, height: Int) { (preprocessor.spec.width, preprocessor.spec.height) }

    /// Shapes of all outputs.
    func outputShapes() throws -> [[Int]] {
        try (0..<interpreter.outputTensorCount).map { try interpreter.outputShape(at: $0).dimensions }
    }

    /// Preprocesses `region` of `image` into the input tensor and invokes the model.
    /// Returns the transform from input coordinates back to the image.
    @discardableResult
    func run(_ image: RGBImage, region: ImageRect? = nil, resize: ResizeMode = .stretch) throws -> InputTransform {
        let transform = try preprocessor.fill(&inputBytes, from: image, region: region, resize: resize)
        try interpreter.withUnsafeMutableInputBytes(at: 0) { buffer in
            guard buffer.count == inputBytes.count else {
                throw ObjectDetectionError.unsupportedModel("\(path): input tensor holds \(buffer.count) bytes, preprocessing made \(inputBytes.count)")
            }
            inputBytes.withUnsafeBytes { buffer.copyMemory(from: $0) }
        }
        try interpreter.invoke()
        return transform
    }

    /// Output `index` as floats (dequantized), with its shape.
    func output(_ index: Int) throws -> Output {
        let shape = try interpreter.outputShape(at: index)
        let format = outputFormats[index]
        let values = try interpreter.withUnsafeOutputBytes(at: index) { raw in
            try dequantized(raw, count: shape.elementCount, format.dataType, format.quantization, what: "output \(index)")
        }
        return Output(values: values, shape: shape.dimensions)
    }

    /// Preserved intermediate tensor `tensorIndex` (see `init`'s `preserving`) as floats.
    func preserved(_ tensorIndex: Int) throws -> Output {
        let tensor = try interpreter.preservedTensor(at: tensorIndex)
        let values = try tensor.data.withUnsafeBytes {
            try dequantized($0, count: tensor.shape.elementCount, tensor.dataType, tensor.quantizationParameters,
                            what: "tensor \(tensorIndex)")
        }
        return Output(values: values, shape: tensor.shape.dimensions)
    }

    /// The first `count` values of `raw` read as `dataType`, quantized types dequantized with
    /// the per-tensor parameters `q`.
    private func dequantized(_ raw: UnsafeRawBufferPointer, count: Int, _ dataType: Tensor.DataType,
                             _ q: QuantizationParameters?, what: String) throws -> [Float] {
        let scale = q?.scale ?? 1, zeroPoint = Float(q?.zeroPoint ?? 0)
        switch dataType {
        case .float32: return Array(raw.bindMemory(to: Float.self).prefix(count))
        case .uInt8: return raw.prefix(count).map { (Float($0) - zeroPoint) * scale }
        case .int8: return raw.bindMemory(to: Int8.self).prefix(count).map { (Float($0) - zeroPoint) * scale }
        case .int32: return raw.bindMemory(to: Int32.self).prefix(count).map { Float($0) }
        case .int64: return raw.bindMemory(to: Int64.self).prefix(count).map { Float($0) }
        default:
            throw ObjectDetectionError.unsupportedModel("\(path): \(what) of type \(dataType) is not supported")
        }
    }
}
