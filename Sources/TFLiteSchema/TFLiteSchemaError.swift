import FlatBufferReader

/// Why a model file was rejected. Every case names the offending element.
public enum TFLiteSchemaError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The data ends before a read.
    case truncated(String)
    /// The file could not be read from disk.
    case unreadableFile(path: String, reason: String)
    /// The FlatBuffer structure is broken (offsets, vtables, limits).
    case malformedFlatBuffer(element: String, reason: String)
    /// The file identifier is not the expected one.
    case wrongIdentifier(expected: String, found: String)
    /// An index refers outside its table, e.g. `subgraph 0 operator 3 input 1`.
    case indexOutOfRange(element: String, index: Int, count: Int)
    /// A tensor shape is invalid (negative dimension, overflowing element count).
    case invalidShape(tensor: String, shape: [Int], reason: String)
    /// A constant tensor's buffer holds a different number of bytes than its shape needs.
    case bufferSizeMismatch(tensor: String, expected: Int, actual: Int)
    /// A buffer's external `offset`/`size` lies outside the file.
    case bufferOutOfFile(buffer: Int, offset: UInt64, size: UInt64, fileSize: Int)
    /// Quantization arrays are inconsistent.
    case invalidQuantization(tensor: String, reason: String)
    /// The operator graph is inconsistent (an op writes a constant or a graph input,
    /// a tensor is produced twice, ...).
    case invalidGraph(element: String, reason: String)
    /// The `TFLITE_METADATA` buffer is malformed.
    case invalidMetadata(String)
    /// The ZIP archive of associated files appended to the model is malformed.
    case invalidArchive(String)
    /// An operator's `builtin_options` is another member of the `BuiltinOptions` union than
    /// the one its operator reads, e.g. `CONV_2D` with `Pool2DOptions`.
    case wrongOptionsType(operator: String, expected: String, found: String)
    /// An options field holds a code its schema enum does not define, e.g. padding 7.
    case unknownEnumValue(operator: String, field: String, enumeration: String, value: Int)
    /// A custom operator's `custom_options` cannot be read (not the expected layout, or a
    /// required key missing).
    case invalidCustomOptions(operator: String, reason: String)

    /// A one-line explanation naming the offending element.
    public var description: String {
        switch self {
        case let .truncated(message): return "truncated model: \(message)"
        case let .unreadableFile(path, reason): return "cannot read \(path): \(reason)"
        case let .malformedFlatBuffer(element, reason): return "malformed \(element): \(reason)"
        case let .wrongIdentifier(expected, found):
            return "wrong file identifier: expected \"\(expected)\", found \"\(found)\""
        case let .indexOutOfRange(element, index, count):
            return "\(element): index \(index) out of range 0..<\(count)"
        case let .invalidShape(tensor, shape, reason): return "tensor \(tensor) shape \(shape): \(reason)"
        case let .bufferSizeMismatch(tensor, expected, actual):
            return "tensor \(tensor): constant buffer has \(actual) bytes, shape and type need \(expected)"
        case let .bufferOutOfFile(buffer, offset, size, fileSize):
            return "buffer \(buffer): \(size) bytes at offset \(offset) lie outside the \(fileSize)-byte file"
        case let .invalidQuantization(tensor, reason): return "tensor \(tensor) quantization: \(reason)"
        case let .invalidGraph(element, reason): return "\(element): \(reason)"
        case let .invalidMetadata(message): return "invalid metadata: \(message)"
        case let .invalidArchive(message): return "invalid associated-file archive: \(message)"
        case let .wrongOptionsType(op, expected, found):
            return "\(op): builtin options are \(found), expected \(expected)"
        case let .unknownEnumValue(op, field, enumeration, value):
            return "\(op): option \(field) has \(value), not a \(enumeration) value"
        case let .invalidCustomOptions(op, reason): return "\(op): custom options: \(reason)"
        }
    }

    /// Wraps a reader error with the element being decoded.
    static func wrapping(_ error: Error, element: String) -> TFLiteSchemaError {
        if let schemaError = error as? TFLiteSchemaError { return schemaError }
        if let flatError = error as? FlatBufferError {
            if case .outOfBounds = flatError { return .truncated("\(element): \(flatError)") }
            return .malformedFlatBuffer(element: element, reason: flatError.description)
        }
        return .malformedFlatBuffer(element: element, reason: String(describing: error))
    }
}
