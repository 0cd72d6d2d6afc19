// Decoded `TFLITE_METADATA` (metadata schema, file identifier `M001`).
// CONTRACT between the schema reader and the detection layer: extend, do not rename.

/// Model-level metadata (`ModelMetadata` table).
public struct ModelMetadata: Sendable {
    /// Model name.
    public var name: String?
    /// Free-text description.
    public var description: String?
    /// Model version string.
    public var version: String?
    /// Author.
    public var author: String?
    /// License text.
    public var license: String?
    /// Minimum metadata parser version the writer asked for.
    public var minParserVersion: String?
    /// Per-subgraph metadata, usually one.
    public var subgraphs: [SubgraphMetadata]
    /// Files attached to the whole model.
    public var associatedFiles: [AssociatedFile]
    /// Creates model metadata.
    public init(name: String? = nil, description: String? = nil, version: String? = nil,
                author: String? = nil, license: String? = nil, minParserVersion: String? = nil,
                subgraphs: [SubgraphMetadata] = [], associatedFiles: [AssociatedFile] = []) {
        self.name = name; self.description = description; self.version = version
        self.author = author; self.license = license; self.minParserVersion = minParserVersion
        self.subgraphs = subgraphs; self.associatedFiles = associatedFiles
    }
}

/// Metadata of one subgraph.
public struct SubgraphMetadata: Sendable {
    /// Name.
    public var name: String?
    /// Description.
    public var description: String?
    /// Metadata of each input tensor, in input order.
    public var inputTensors: [TensorMetadata]
    /// Metadata of each output tensor, in output order.
    public var outputTensors: [TensorMetadata]
    /// Process units applied to all inputs/outputs (rare).
    public var inputProcessUnits: [ProcessUnit]
    /// Output-wide process units (rare).
    public var outputProcessUnits: [ProcessUnit]
    /// Files attached to the subgraph.
    public var associatedFiles: [AssociatedFile]
    /// Creates subgraph metadata.
    public init(name: String? = nil, description: String? = nil, inputTensors: [TensorMetadata] = [],
                outputTensors: [TensorMetadata] = [], inputProcessUnits: [ProcessUnit] = [],
                outputProcessUnits: [ProcessUnit] = [], associatedFiles: [AssociatedFile] = []) {
        self.name = name; self.description = description; self.inputTensors = inputTensors
        self.outputTensors = outputTensors; self.inputProcessUnits = inputProcessUnits
        self.outputProcessUnits = outputProcessUnits; self.associatedFiles = associatedFiles
    }
}

/// Color space of an image tensor.
public enum ColorSpace: Int8, Sendable { case unknown = 0, rgb = 1, grayscale = 2 }

/// What a tensor contains (`ContentProperties` union).
public enum TensorContent: Sendable, Equatable {
    /// A feature vector.
    case feature
    /// An image with the given color space.
    case image(colorSpace: ColorSpace)
    /// Bounding boxes: the order of the four coordinates (`index`), box type
    /// (0 unknown, 1 boundaries, 2 upper-left, 3 center) and coordinate type (0 ratio, 1 pixel).
    case boundingBox(index: [Int], type: Int, coordinateType: Int)
    /// An audio signal.
    case audio(sampleRate: Int, channels: Int)
}

/// A processing step attached to a tensor.
public enum ProcessUnit: Sendable, Equatable {
    /// `(x - mean) / std`, per channel or broadcast from one value.
    case normalization(mean: [Float], std: [Float])
    /// Score calibration with the given `ScoreTransformationType` (0 identity, 1 log, 2 inverse logistic)
    /// and the default score for classes without parameters.
    case scoreCalibration(function: Int, defaultScore: Float)
    /// Results below `globalThreshold` should be dropped.
    case scoreThresholding(globalThreshold: Float)
    /// Text tokenizers and anything else this build does not use.
    case other(typeCode: UInt8)
}

/// Kinds of associated files (`AssociatedFileType`).
public enum AssociatedFileType: Int8, Sendable {
    case unknown = 0, descriptions = 1, tensorAxisLabels = 2, tensorValueLabels = 3
    case tensorAxisScoreCalibration = 4, vocabulary = 5, scannIndexFile = 6
}

/// A file described by the metadata; its bytes live in the ZIP archive appended to the model.
public struct AssociatedFile: Sendable, Equatable {
    /// File name, e.g. `labels.txt`.
    public var name: String
    /// Description.
    public var description: String?
    /// What the file holds.
    public var type: AssociatedFileType
    /// Locale of a label file, e.g. `en`.
    public var locale: String?
    /// Creates an associated file description.
    public init(name: String, description: String? = nil, type: AssociatedFileType, locale: String? = nil) {
        self.name = name; self.description = description; self.type = type; self.locale = locale
    }
}

/// Metadata of one tensor.
public struct TensorMetadata: Sendable {
    /// Name.
    public var name: String?
    /// Description.
    public var description: String?
    /// Names of dimensions, when given.
    public var dimensionNames: [String]
    /// What the tensor contains.
    public var content: TensorContent?
    /// Value range of the content (`range` min/max), when given.
    public var contentRange: ClosedRange<Int>?
    /// Processing steps (normalization, score calibration, thresholding).
    public var processUnits: [ProcessUnit]
    /// Statistics: per-channel maxima.
    public var statsMax: [Float]
    /// Statistics: per-channel minima.
    public var statsMin: [Float]
    /// Files attached to this tensor (label lists, calibration).
    public var associatedFiles: [AssociatedFile]
    /// Creates tensor metadata.
    public init(name: String? = nil, description: String? = nil, dimensionNames: [String] = [],
                content: TensorContent? = nil, contentRange: ClosedRange<Int>? = nil,
                processUnits: [ProcessUnit] = [], statsMax: [Float] = [], statsMin: [Float] = [],
                associatedFiles: [AssociatedFile] = []) {
        self.name = name; self.description = description; self.dimensionNames = dimensionNames
        self.content = content; self.contentRange = contentRange; self.processUnits = processUnits
        self.statsMax = statsMax; self.statsMin = statsMin; self.associatedFiles = associatedFiles
    }

    /// The normalization unit's mean and std, if any.
    public var normalization: (mean: [Float], std: [Float])? {
        for unit in processUnits { if case let .normalization(mean, std) = unit { return (mean, std) } }
        return nil
    }

    /// The score-thresholding unit's global threshold, if any.
    public var scoreThreshold: Float? {
        for unit in processUnits { if case let .scoreThresholding(t) = unit { return t } }
        return nil
    }
}

/// A list of labels, e.g. class names of a classifier's output axis.
public struct LabelList: Sendable, Equatable {
    /// Labels in index order.
    public var labels: [String]
    /// Locale of the labels, when known.
    public var locale: String?
    /// Creates a label list.
    public init(labels: [String], locale: String? = nil) { self.labels = labels; self.locale = locale }
}
