// The decoded, validated view of a `.tflite` file that the interpreter consumes.
// CONTRACT between the schema reader and the interpreter: change only in agreement.

/// A TFLite builtin operator code (`BuiltinOperator` in the schema).
/// Open-ended: codes newer than this build are kept as raw values.
public struct BuiltinOperator: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The schema's integer code.
    public let rawValue: Int32
    /// Wraps a raw schema code.
    public init(rawValue: Int32) { self.rawValue = rawValue }
    /// The schema's name, e.g. `CONV_2D`, or `BUILTIN_<n>` for codes unknown to this build.
    public var description: String { Self.schemaName(rawValue) ?? "BUILTIN_\(rawValue)" }
}

/// Element type of a tensor (`TensorType` in the schema).
public enum TensorType: Int8, Sendable, CaseIterable, CustomStringConvertible {
    case float32 = 0, float16 = 1, int32 = 2, uint8 = 3, int64 = 4, string = 5, bool = 6, int16 = 7
    case complex64 = 8, int8 = 9, float64 = 10, complex128 = 11, uint64 = 12, resource = 13
    case variant = 14, uint32 = 15, uint16 = 16, int4 = 17, bfloat16 = 18

    /// Bytes per element, or nil for types without a fixed size (string, resource, variant, int4).
    public var byteSize: Int? {
        switch self {
        case .bool, .uint8, .int8: return 1
        case .float16, .int16, .uint16, .bfloat16: return 2
        case .float32, .int32, .uint32: return 4
        case .float64, .int64, .uint64, .complex64: return 8
        case .complex128: return 16
        case .string, .resource, .variant, .int4: return nil
        }
    }

    /// Lower-case schema name, e.g. `float32`, `uint8`.
    /// (Not `String(describing: self)`: that calls `description` again and recurses forever.)
    public var description: String { Self.names[Int(rawValue)] }

    private static let names = ["float32", "float16", "int32", "uint8", "int64", "string", "bool", "int16",
                                "complex64", "int8", "float64", "complex128", "uint64", "resource", "variant",
                                "uint32", "uint16", "int4", "bfloat16"]
}

/// Affine quantization of a tensor: `real = scale * (quantized - zeroPoint)`.
/// One scale/zero point per tensor, or one per slice along `quantizedDimension`.
public struct Quantization: Sendable, Equatable {
    /// Scales: one (per-tensor) or one per channel.
    public var scales: [Float]
    /// Zero points, same count as `scales`.
    public var zeroPoints: [Int64]
    /// The axis the per-channel parameters run along.
    public var quantizedDimension: Int
    /// Recorded float minima (informational).
    public var min: [Float]
    /// Recorded float maxima (informational).
    public var max: [Float]

    /// Creates quantization parameters.
    public init(scales: [Float], zeroPoints: [Int64], quantizedDimension: Int = 0,
                min: [Float] = [], max: [Float] = []) {
        self.scales = scales; self.zeroPoints = zeroPoints
        self.quantizedDimension = quantizedDimension; self.min = min; self.max = max
    }

    /// True when there is exactly one scale.
    public var isPerTensor: Bool { scales.count == 1 }
}

/// One dimension of a sparse tensor's storage (`DimensionMetadata`).
public struct SparseDimension: Sendable, Equatable {
    /// Dense or compressed (CSR) storage for this dimension.
    public enum Format: Int8, Sendable { case dense = 0, sparseCSR = 1 }
    /// Storage format.
    public var format: Format
    /// Size of a dense dimension.
    public var denseSize: Int
    /// CSR segment offsets (widened to Int32 from uint8/uint16/int32 vectors).
    public var arraySegments: [Int32]
    /// CSR indices (widened to Int32).
    public var arrayIndices: [Int32]
    /// Creates a dimension description.
    public init(format: Format, denseSize: Int, arraySegments: [Int32], arrayIndices: [Int32]) {
        self.format = format; self.denseSize = denseSize
        self.arraySegments = arraySegments; self.arrayIndices = arrayIndices
    }
}

/// Sparse storage of a constant tensor (`SparsityParameters`), consumed by DENSIFY.
public struct Sparsity: Sendable, Equatable {
    /// Order in which dimensions are traversed.
    public var traversalOrder: [Int32]
    /// Which original dimension each block dimension maps to.
    public var blockMap: [Int32]
    /// Per traversed dimension storage metadata.
    public var dimensions: [SparseDimension]
    /// Creates sparsity parameters.
    public init(traversalOrder: [Int32], blockMap: [Int32], dimensions: [SparseDimension]) {
        self.traversalOrder = traversalOrder; self.blockMap = blockMap; self.dimensions = dimensions
    }
}

/// A tensor declaration in a subgraph.
public struct TensorDescription: Sendable {
    /// Tensor name (may be empty).
    public var name: String
    /// Static shape; `[]` for scalars.
    public var shape: [Int]
    /// Shape with -1 for dynamic dimensions, when the model records one.
    public var shapeSignature: [Int]?
    /// Element type.
    public var type: TensorType
    /// Index into `TFLiteModelFile.buffers`; buffer 0 is the empty sentinel.
    public var buffer: Int
    /// Quantization parameters, nil when absent or empty.
    public var quantization: Quantization?
    /// Sparse storage, nil for dense tensors.
    public var sparsity: Sparsity?
    /// True for variable (stateful) tensors.
    public var isVariable: Bool
    /// Creates a tensor description.
    public init(name: String, shape: [Int], shapeSignature: [Int]? = nil, type: TensorType, buffer: Int,
                quantization: Quantization? = nil, sparsity: Sparsity? = nil, isVariable: Bool = false) {
        self.name = name; self.shape = shape; self.shapeSignature = shapeSignature; self.type = type
        self.buffer = buffer; self.quantization = quantization; self.sparsity = sparsity
        self.isVariable = isVariable
    }
}

/// An entry of the model's operator-code table.
public struct OperatorCode: Sendable, Equatable {
    /// The builtin code: max(deprecated_builtin_code, builtin_code) as the reference does.
    public var builtin: BuiltinOperator
    /// Custom operator name when `builtin == .custom`.
    public var customName: String?
    /// Operator version.
    public var version: Int
    /// Creates an operator code.
    public init(builtin: BuiltinOperator, customName: String?, version: Int) {
        self.builtin = builtin; self.customName = customName; self.version = version
    }
    /// `CONV_2D`, or the custom name for custom operators.
    public var displayName: String { builtin == .custom ? (customName ?? "CUSTOM") : builtin.description }
}

/// One operator (node) of a subgraph.
public struct OperatorDescription: Sendable {
    /// Index into `TFLiteModelFile.operatorCodes`.
    public var opcodeIndex: Int
    /// Input tensor indices; -1 marks an omitted optional input.
    public var inputs: [Int]
    /// Output tensor indices.
    public var outputs: [Int]
    /// Intermediate tensor indices (rarely used).
    public var intermediates: [Int]
    /// The `builtin_options` union table, nil when absent.
    public var builtinOptions: OptionsTable?
    /// FlexBuffer bytes of `custom_options` (empty when absent).
    public var customOptions: [UInt8]
    /// Creates an operator description.
    public init(opcodeIndex: Int, inputs: [Int], outputs: [Int], intermediates: [Int] = [],
                builtinOptions: OptionsTable?, customOptions: [UInt8]) {
        self.opcodeIndex = opcodeIndex; self.inputs = inputs; self.outputs = outputs
        self.intermediates = intermediates; self.builtinOptions = builtinOptions
        self.customOptions = customOptions
    }
}

/// A named input or output of a signature.
public struct SignatureTensor: Sendable, Equatable {
    /// The signature's name for the tensor.
    public var name: String
    /// Tensor index in the signature's subgraph.
    public var tensorIndex: Int
    /// Creates a signature tensor entry.
    public init(name: String, tensorIndex: Int) { self.name = name; self.tensorIndex = tensorIndex }
}

/// A signature definition (`SignatureDef`).
public struct SignatureDescription: Sendable, Equatable {
    /// Signature key, e.g. `serving_default`.
    public var key: String
    /// Subgraph that implements it.
    public var subgraphIndex: Int
    /// Named inputs.
    public var inputs: [SignatureTensor]
    /// Named outputs.
    public var outputs: [SignatureTensor]
    /// Creates a signature description.
    public init(key: String, subgraphIndex: Int, inputs: [SignatureTensor], outputs: [SignatureTensor]) {
        self.key = key; self.subgraphIndex = subgraphIndex; self.inputs = inputs; self.outputs = outputs
    }
}

/// A subgraph: tensors, graph inputs/outputs, and operators in execution order.
public struct SubgraphDescription: Sendable {
    /// Subgraph name (may be empty).
    public var name: String
    /// All tensors.
    public var tensors: [TensorDescription]
    /// Graph input tensor indices.
    public var inputs: [Int]
    /// Graph output tensor indices.
    public var outputs: [Int]
    /// Operators in execution order.
    public var operators: [OperatorDescription]
    /// Creates a subgraph description.
    public init(name: String, tensors: [TensorDescription], inputs: [Int], outputs: [Int],
                operators: [OperatorDescription]) {
        self.name = name; self.tensors = tensors; self.inputs = inputs; self.outputs = outputs
        self.operators = operators
    }
}
