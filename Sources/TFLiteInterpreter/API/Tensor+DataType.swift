import TFLiteSchema

extension Tensor {
    /// Element type of a tensor (the case names follow TensorFlowLiteSwift).
    public enum DataType: Equatable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// Boolean, one byte per element.
        case bool
        /// Unsigned 8-bit integer.
        case uInt8
        /// Signed 8-bit integer.
        case int8
        /// Signed 16-bit integer.
        case int16
        /// Unsigned 16-bit integer.
        case uInt16
        /// Signed 32-bit integer.
        case int32
        /// Unsigned 32-bit integer.
        case uInt32
        /// Signed 64-bit integer.
        case int64
        /// Unsigned 64-bit integer.
        case uInt64
        /// IEEE half precision.
        case float16
        /// IEEE single precision.
        case float32
        /// IEEE double precision.
        case float64

        /// Alias of ``uInt8``.
        public static var uint8: DataType { .uInt8 }

        /// Bytes per element.
        public var byteSize: Int {
            switch self {
            case .bool, .uInt8, .int8: return 1
            case .int16, .uInt16, .float16: return 2
            case .int32, .uInt32, .float32: return 4
            case .int64, .uInt64, .float64: return 8
            }
        }

        /// The schema name, e.g. `float32`, `uint8`.
        public var description: String { schemaType.description }

        /// The model-file element type this corresponds to.
        var schemaType: TensorType {
            switch self {
            case .bool: return .bool
            case .uInt8: return .uint8
            case .int8: return .int8
            case .int16: return .int16
            case .uInt16: return .uint16
            case .int32: return .int32
            case .uInt32: return .uint32
            case .int64: return .int64
            case .uInt64: return .uint64
            case .float16: return .float16
            case .float32: return .float32
            case .float64: return .float64
            }
        }

        /// The public type for a model-file element type; nil for types without a public
        /// equivalent (string, complex, resource, variant, int4, bfloat16).
        init?(_ type: TensorType) {
            guard let match = Self.allCases.first(where: { $0.schemaType == type }) else { return nil }
            self = match
        }
    }
}
