/// Why a FlatBuffer or FlexBuffer read was refused. Every case says what was being read.
public enum FlatBufferError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A read of `size` bytes at `offset` does not fit in a buffer of `bufferSize` bytes.
    case outOfBounds(what: String, offset: Int, size: Int, bufferSize: Int)
    /// A structural value is impossible (misaligned vtable, negative size, bad width, ...).
    case malformed(String)
    /// Tables nest deeper than the verifier limit.
    case depthLimitExceeded(limit: Int)
    /// More tables were visited than the verifier limit allows.
    case tableLimitExceeded(limit: Int)
    /// The sum of all decoded vector and string sizes exceeds the allowed apparent size.
    case apparentSizeExceeded(limit: Int)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case let .outOfBounds(what, offset, size, bufferSize):
            return "\(what): \(size) bytes at offset \(offset) do not fit in \(bufferSize) bytes"
        case let .malformed(message): return message
        case let .depthLimitExceeded(limit): return "tables nest deeper than \(limit) levels"
        case let .tableLimitExceeded(limit): return "more than \(limit) tables"
        case let .apparentSizeExceeded(limit): return "decoded data would exceed \(limit) bytes"
        }
    }
}
