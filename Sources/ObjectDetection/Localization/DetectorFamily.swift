import TFLiteSchema

/// A kind of detector model (SSD with post-processing, BlazeFace anchors, a YOLO variant, ...):
/// how to recognise it from its outputs and metadata, how to feed it, and how to turn its
/// outputs into boxes.
///
/// The detector asks the families of a ``DetectorFamilyRegistry`` in order and uses the first
/// whose ``matches(_:)`` is true. Conform to add a family the package does not know, then
/// register it (``DetectorFamilyRegistry/register(_:)``). Families are values without
/// per-image state; one instance may serve several detectors at once.
public protocol DetectorFamily: Sendable {
    /// A short name for messages and listings (`"yolov8"`, `"ssd-postprocess"`).
    var name: String { get }
    /// Score threshold used when the caller gives none (see ``defaultScoreThreshold(for:)``).
    var defaultScoreThreshold: Float { get }
    /// Score threshold used for `model` when the caller gives none: by default
    /// ``defaultScoreThreshold``; a family whose models come with different thresholds returns
    /// the model's (MediaPipe's face graphs: 0.5 short range, 0.6 full range).
    func defaultScoreThreshold(for model: DetectorModelInfo) -> Float
    /// Normalization of a float input when the model's metadata states none (metadata wins).
    var defaultNormalization: InputNormalization { get }
    /// How the image is fitted into the model input.
    var resizeMode: ResizeMode { get }
    /// True when `model` has this family's output layout.
    func matches(_ model: DetectorModelInfo) -> Bool
    /// Names of the candidates' class indices: by default the side-car label file or the
    /// model's packed label map (``DetectorModelInfo/labels``).
    func labels(for model: DetectorModelInfo) -> LabelList?
    /// Decodes one invocation's outputs into candidates whose rects are normalized to the
    /// model input (0...1 across its width and height), best first, at most the family's
    /// own detection cap, none below `scoreThreshold`.
    func decode(_ outputs: DetectorOutputs, model: DetectorModelInfo, scoreThreshold: Float) throws -> [DetectionCandidate]
}

extension DetectorFamily {
    /// ``defaultScoreThreshold``, whatever the model.
    public func defaultScoreThreshold(for model: DetectorModelInfo) -> Float { defaultScoreThreshold }

    /// The model's labels (side-car file, else packed in the model).
    public func labels(for model: DetectorModelInfo) -> LabelList? { model.labels }
}

/// What a family may look at to recognise a detector model.
public struct DetectorModelInfo: Sendable {
    /// Where the model was loaded from (for messages).
    public var path: String
    /// Model input width in pixels.
    public var inputWidth: Int
    /// Model input height in pixels.
    public var inputHeight: Int
    /// Shapes of the outputs, in the model's output order.
    public var outputShapes: [[Int]]
    /// The model file: operators, tensors, metadata, associated files.
    public var file: TFLiteModelFile
    /// Class names: the side-car label file when one was given, else the model's packed
    /// labels (value labels of output 1, as SSD exports pack them, else axis labels).
    public var labels: LabelList?

    /// Describes a model from its file and output shapes.
    public init(path: String, inputWidth: Int, inputHeight: Int, outputShapes: [[Int]], file: TFLiteModelFile,
                labels: LabelList?) {
        self.path = path; self.inputWidth = inputWidth; self.inputHeight = inputHeight
        self.outputShapes = outputShapes; self.file = file; self.labels = labels
    }

    /// Names of the operators the model uses (`CONV_2D`, custom names such as
    /// `TFLite_Detection_PostProcess`).
    public var operatorNames: Set<String> { Set(file.operatorCodes.map(\.displayName)) }

    /// Cells of a feature pyramid over the input with the given strides: `Σ ⌈W/s⌉·⌈H/s⌉`
    /// (8400 for a 640×640 input with YOLO's strides 8, 16, 32).
    public func gridCellCount(strides: [Int] = [8, 16, 32]) -> Int {
        strides.reduce(0) { $0 + ((inputWidth + $1 - 1) / $1) * ((inputHeight + $1 - 1) / $1) }
    }
}

/// One invocation's outputs, dequantized to floats on first use.
public struct DetectorOutputs {
    /// Output shapes, in the model's output order.
    public let shapes: [[Int]]
    private let read: (Int) throws -> [Float]

    /// Outputs read on demand by `values` (index → dequantized values).
    public init(shapes: [[Int]], values: @escaping (Int) throws -> [Float]) {
        self.shapes = shapes
        read = values
    }

    /// Outputs given as arrays (tests, precomputed outputs).
    public init(shapes: [[Int]], arrays: [[Float]]) {
        self.init(shapes: shapes) { arrays[$0] }
    }

    /// Values of output `index`, row-major; throws when the model has no such output or the
    /// values do not fill the shape.
    public func values(at index: Int) throws -> [Float] {
        guard shapes.indices.contains(index) else {
            throw ObjectDetectionError.unsupportedModel("detector output \(index) does not exist (\(shapes.count) outputs)")
        }
        let values = try read(index)
        let expected = shapes[index].reduce(1, *)
        guard values.count == expected else {
            throw ObjectDetectionError.unsupportedModel("detector output \(index) holds \(values.count) values, shape \(shapes[index]) needs \(expected)")
        }
        return values
    }
}
