import TFLiteSchema

/// An image classifier read as a localizer through class activation maps (CAM, Zhou et al.,
/// CVPR 2016): for a model that ends in convolution → global average pool → (reshape) →
/// `FULLY_CONNECTED` (EfficientNet-Lite0, MobileNet), the logit of class `c` is the spatial
/// mean of `Σ_k W[c][k] · F[y][x][k] + b[c]` over the last convolution's feature map `F`, so that
/// sum, cell by cell, shows where in the input the evidence for `c` lies.
///
/// The feature map is kept readable after each run (`Interpreter.Options.preservedTensorIndices`);
/// the fully-connected weights are read once from the model file and dequantized.
/// Not thread-safe: owners serialize calls (as for ``ModelRunner``).
final class ClassActivationModel {
    /// The classifier, with its feature map preserved.
    let runner: ModelRunner
    /// Class names of the probabilities output, when the model has them.
    let labels: LabelList?
    /// Index of the feature-map tensor in the main subgraph.
    let featureTensor: Int
    /// Number of classes (rows of the fully-connected weights).
    let classCount: Int
    /// Feature channels (columns of the fully-connected weights).
    let channelCount: Int
    /// Fully-connected weights, `classCount × channelCount`, row-major, dequantized.
    private let weights: [Float]
    /// Fully-connected bias per class (zeros when the model has none).
    private let bias: [Float]

    /// One run on an image region.
    struct Activations {
        /// Class probabilities (the model's output 0).
        var probabilities: [Float]
        /// The feature map, `height × width × channels`, row-major, dequantized.
        var features: [Float]
        /// Feature-map width and height in cells.
        var width: Int, height: Int
        /// From model-input coordinates back to the image.
        var transform: InputTransform
    }

    /// Loads `modelPath` and finds its pooled head.
    /// - Throws: ``ObjectDetectionError/unsupportedModel(_:)`` when the model does not end in a
    ///   global average pool feeding a fully-connected layer with constant weights.
    init(modelPath: String, threadCount: Int?, limits: ResourceLimits = .default) throws {
        var head: (feature: Int, fc: OperatorDescription)?
        runner = try ModelRunner(path: modelPath, threadCount: threadCount, floatNormalization: .signedUnitInterval,
                                 limits: limits) { file in
            head = try Self.findHead(file, path: modelPath)
            return [head!.feature]
        }
        let file = runner.file, graph = file.subgraphs[0]
        guard let head else { throw ObjectDetectionError.unsupportedModel("\(modelPath): no pooled head") }
        featureTensor = head.feature
        let w = graph.tensors[head.fc.inputs[1]]
        (classCount, channelCount) = (w.shape[0], w.shape[1])
        weights = try Self.constantValues(w, in: file, path: modelPath, perRowOf: channelCount)
        if head.fc.inputs.count > 2, head.fc.inputs[2] >= 0 {
            bias = try Self.constantValues(graph.tensors[head.fc.inputs[2]], in: file, path: modelPath, perRowOf: 1)
        } else {
            bias = [Float](repeating: 0, count: classCount)
        }
        guard weights.count == classCount * channelCount, bias.count == classCount else {
            throw ObjectDetectionError.unsupportedModel("\(modelPath): fully-connected weights do not fill their shape")
        }
        labels = file.labels(forOutput: 0)
    }

    /// Runs the classifier on `region` of `image` (the whole image when nil), stretched to the
    /// input, and returns its probabilities and feature map.
    func run(_ image: RGBImage, region: ImageRect? = nil) throws -> Activations {
        let transform = try runner.run(image, region: region, resize: .stretch)
        let probabilities = try runner.output(0).values
        let map = try runner.preserved(featureTensor)
        guard map.shape.count == 4, map.shape[3] == channelCount else {
            throw ObjectDetectionError.unsupportedModel("\(runner.path): feature map \(map.shape) has no \(channelCount) channels")
        }
        return Activations(probabilities: probabilities, features: map.values, width: map.shape[2], height: map.shape[1],
                           transform: transform)
    }

    /// The activation map of `classes` (weighted by `weights`, e.g. their probabilities):
    /// `Σ_c weight_c · (Σ_k W[c][k] · F[cell][k] + b[c])` per cell, `height × width`, row-major.
    func map(_ activations: Activations, classes: [Int], weights classWeights: [Float]) -> [Float] {
        let cells = activations.width * activations.height, k = channelCount
        var result = [Float](repeating: 0, count: cells)
        activations.features.withUnsafeBufferPointer { f in
            weights.withUnsafeBufferPointer { w in
                for (c, a) in zip(classes, classWeights) {
                    let row = w.baseAddress! + c * k
                    for p in 0..<cells {
                        let cell = f.baseAddress! + p * k
                        var sum: Float = 0
                        for i in 0..<k { sum += row[i] * cell[i] }
                        result[p] += a * (sum + bias[c])
                    }
                }
            }
        }
        return result
    }

    /// The feature-map tensor and the fully-connected operator of a pooled classifier head.
    private static func findHead(_ file: TFLiteModelFile, path: String) throws -> (feature: Int, fc: OperatorDescription) {
        let graph = file.subgraphs[0]
        func builtin(_ op: OperatorDescription) -> BuiltinOperator { file.operatorCodes[op.opcodeIndex].builtin }
        var producer: [Int: OperatorDescription] = [:]
        for op in graph.operators { for o in op.outputs { producer[o] = op } }
        guard let fc = graph.operators.last(where: { builtin($0) == .fullyConnected }), fc.inputs.count >= 2,
              graph.tensors.indices.contains(fc.inputs[1]), graph.tensors[fc.inputs[1]].shape.count == 2 else {
            throw ObjectDetectionError.unsupportedModel("\(path): no FULLY_CONNECTED head for activation maps")
        }
        var tensor = fc.inputs[0]
        while let op = producer[tensor], [.reshape, .squeeze].contains(builtin(op)) { tensor = op.inputs[0] }
        guard let pool = producer[tensor], [.averagePool2D, .mean].contains(builtin(pool)),
              let feature = pool.inputs.first, graph.tensors.indices.contains(feature) else {
            throw ObjectDetectionError.unsupportedModel("\(path): the FULLY_CONNECTED head is not fed by a global average pool")
        }
        let shape = graph.tensors[feature].shape, outShape = graph.tensors[pool.outputs[0]].shape
        guard shape.count == 4, shape[3] == graph.tensors[fc.inputs[1]].shape[1],
              outShape.count == 4 ? outShape[1] == 1 && outShape[2] == 1 : true else {
            throw ObjectDetectionError.unsupportedModel("\(path): the pooled feature map \(shape) does not match the head")
        }
        return (feature, fc)
    }

    /// A constant tensor's values as floats: float32 as is, int8/uint8/int32 dequantized per
    /// tensor or per row (per-channel quantization along dimension 0, `rowLength` values a row).
    private static func constantValues(_ t: TensorDescription, in file: TFLiteModelFile, path: String,
                                       perRowOf rowLength: Int) throws -> [Float] {
        let count = t.shape.reduce(1, *)
        let q = t.quantization
        func scale(_ i: Int) -> Float {
            guard let q, !q.scales.isEmpty else { return 1 }
            return q.scales.count == 1 ? q.scales[0] : q.scales[min(q.scales.count - 1, i / rowLength)]
        }
        func zero(_ i: Int) -> Float {
            guard let q, !q.zeroPoints.isEmpty else { return 0 }
            return Float(q.zeroPoints.count == 1 ? q.zeroPoints[0] : q.zeroPoints[min(q.zeroPoints.count - 1, i / rowLength)])
        }
        let values: [Float]? = try file.withBufferBytes(t.buffer) { raw in
            switch t.type {
            case .float32 where raw.count == count * 4:
                return (0..<count).map { raw.loadUnaligned(fromByteOffset: $0 * 4, as: Float.self) }
            case .int8 where raw.count == count:
                return (0..<count).map { (Float(Int8(bitPattern: raw[$0])) - zero($0)) * scale($0) }
            case .uint8 where raw.count == count:
                return (0..<count).map { (Float(raw[$0]) - zero($0)) * scale($0) }
            case .int32 where raw.count == count * 4:
                return (0..<count).map { (Float(raw.loadUnaligned(fromByteOffset: $0 * 4, as: Int32.self)) - zero($0)) * scale($0) }
            default:
                return nil
            }
        }
        guard let values else {
            throw ObjectDetectionError.unsupportedModel("\(path): head weights '\(t.name)' (\(t.type) \(t.shape)) are not constant 8-bit, int32 or float data")
        }
        return values
    }
}
