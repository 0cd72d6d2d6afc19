/// Why a `.npy` file could not be read or written.
public enum NumPyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file does not start with the `\x93NUMPY` magic.
    case notNumPyFile
    /// A format version other than 1, 2 or 3.
    case unsupportedVersion(major: UInt8, minor: UInt8)
    /// The header dictionary is truncated or malformed.
    case malformedHeader(String)
    /// A `descr` this reader does not support (big-endian, objects, strings, ...).
    case unsupportedDataType(String)
    /// Fortran-order (column-major) arrays are not supported.
    case fortranOrder
    /// A negative or overflowing shape.
    case invalidShape([Int])
    /// The data after the header does not match the shape and type.
    case dataSizeMismatch(expected: Int, actual: Int)
    /// The file could not be read.
    case unreadable(String)
    /// The file could not be written.
    case unwritable(String)

    /// A readable message.
    public var description: String {
        switch self {
        case .notNumPyFile: return "not a .npy file (missing \\x93NUMPY magic)"
        case let .unsupportedVersion(major, minor): return "unsupported .npy format version \(major).\(minor)"
        case let .malformedHeader(m): return "malformed .npy header: \(m)"
        case let .unsupportedDataType(d): return "unsupported .npy dtype '\(d)' (little-endian f2/f4/f8/i1/u1/i2/u2/i4/u4/i8/u8/b1 only)"
        case .fortranOrder: return "Fortran-order .npy arrays are not supported; save with C order"
        case let .invalidShape(s): return "invalid .npy shape \(Self.abbreviated(s))"
        case let .dataSizeMismatch(e, a): return "the .npy data has \(a) bytes, the shape and dtype need \(e)"
        case let .unreadable(m): return "cannot read \(m)"
        case let .unwritable(m): return "cannot write \(m)"
        }
    }

    /// A shape for messages: up to 8 dimensions, then the count of the rest.
    static func abbreviated(_ shape: [Int]) -> String {
        guard shape.count > 8 else { return "\(shape)" }
        return "[" + shape.prefix(8).map(String.init).joined(separator: ", ") + ", … (\(shape.count) dimensions)]"
    }
}
