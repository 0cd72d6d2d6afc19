/// One FlexBuffers value: a position in the bytes plus the widths and type that describe it.
/// Every read is bounds-checked; conversions return nil when the value has another type.
public struct FlexBufferReference: Sendable {
    /// The whole FlexBuffer.
    let bytes: [UInt8]
    /// Where the value (or, for offset types, the offset to it) is stored.
    let position: Int
    /// Width of the slot at `position`.
    let parentWidth: Int
    /// Width of the elements of the pointed-to data.
    let byteWidth: Int
    /// The value type.
    public let type: FlexBufferType

    /// Reads an unsigned integer of `width` bytes at `offset`.
    static func readUInt(_ bytes: [UInt8], _ offset: Int, width: Int) throws -> UInt64 {
        guard width == 1 || width == 2 || width == 4 || width == 8 else {
            throw FlatBufferError.malformed("FlexBuffer width \(width)")
        }
        guard offset >= 0, offset <= bytes.count - width else {
            throw FlatBufferError.outOfBounds(what: "FlexBuffer value", offset: offset, size: width,
                                              bufferSize: bytes.count)
        }
        var value: UInt64 = 0
        for index in 0..<width { value |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
        return value
    }

    /// Reads a signed integer of `width` bytes at `offset`.
    static func readInt(_ bytes: [UInt8], _ offset: Int, width: Int) throws -> Int64 {
        let raw = try readUInt(bytes, offset, width: width)
        let shift = UInt64(64 - 8 * width)
        return Int64(bitPattern: raw << shift) >> Int64(shift)
    }

    /// Reads a float of `width` (4 or 8) bytes at `offset`.
    static func readFloat(_ bytes: [UInt8], _ offset: Int, width: Int) throws -> Double {
        let raw = try readUInt(bytes, offset, width: width)
        switch width {
        case 4: return Double(Float(bitPattern: UInt32(raw)))
        case 8: return Double(bitPattern: raw)
        default: throw FlatBufferError.malformed("FlexBuffer float of width \(width)")
        }
    }

    /// Decodes a packed type byte (type << 2 | log2 width).
    static func unpack(_ packed: UInt8) throws -> (FlexBufferType, Int) {
        guard let type = FlexBufferType(rawValue: packed >> 2) else {
            throw FlatBufferError.malformed("unknown FlexBuffer type \(packed >> 2)")
        }
        return (type, 1 << Int(packed & 3))
    }

    /// The root value of a FlexBuffer: the last byte is the root width, the one before the
    /// packed root type, and the root slot precedes them.
    public init(root bytes: [UInt8]) throws {
        guard bytes.count >= 3 else {
            throw FlatBufferError.outOfBounds(what: "FlexBuffer root", offset: 0, size: 3, bufferSize: bytes.count)
        }
        let width = Int(bytes[bytes.count - 1])
        let (type, byteWidth) = try Self.unpack(bytes[bytes.count - 2])
        let position = bytes.count - 2 - width
        _ = try Self.readUInt(bytes, position, width: width)
        self.init(bytes: bytes, position: position, parentWidth: width, byteWidth: byteWidth, type: type)
    }

    init(bytes: [UInt8], position: Int, parentWidth: Int, byteWidth: Int, type: FlexBufferType) {
        self.bytes = bytes; self.position = position; self.parentWidth = parentWidth
        self.byteWidth = byteWidth; self.type = type
    }

    /// Position of the pointed-to data for offset types.
    func indirect() throws -> Int {
        let offset = try Self.readUInt(bytes, position, width: parentWidth)
        guard offset <= UInt64(position) else {
            throw FlatBufferError.outOfBounds(what: "FlexBuffer offset", offset: position, size: Int(clamping: offset),
                                              bufferSize: bytes.count)
        }
        return position - Int(offset)
    }

    /// True for `null`.
    public var isNull: Bool { type == .null }

    /// The value as a signed integer (ints, uints, floats truncated, bools, and their indirect forms).
    public var int: Int64? {
        switch type {
        case .int: return try? Self.readInt(bytes, position, width: parentWidth)
        case .uint, .bool: return (try? Self.readUInt(bytes, position, width: parentWidth)).map { Int64(truncatingIfNeeded: $0) }
        case .indirectInt: return try? Self.readInt(bytes, indirect(), width: byteWidth)
        case .indirectUInt: return (try? Self.readUInt(bytes, indirect(), width: byteWidth)).map { Int64(truncatingIfNeeded: $0) }
        case .float, .indirectFloat:
            guard let value = double, value.isFinite, abs(value) < 9.2e18 else { return nil }
            return Int64(value)
        default: return nil
        }
    }

    /// The value as a floating-point number (floats, ints and uints, and their indirect forms).
    public var double: Double? {
        switch type {
        case .float: return try? Self.readFloat(bytes, position, width: parentWidth)
        case .indirectFloat: return try? Self.readFloat(bytes, indirect(), width: byteWidth)
        case .int, .uint, .bool, .indirectInt, .indirectUInt: return int.map(Double.init)
        default: return nil
        }
    }

    /// The value as a `Bool` (bools, and integers compared with zero).
    public var bool: Bool? {
        switch type {
        case .bool, .int, .uint, .indirectInt, .indirectUInt: return int.map { $0 != 0 }
        default: return nil
        }
    }

    /// The value as a string (strings and keys).
    public var string: String? {
        switch type {
        case .string:
            guard let data = try? sizedData(elementWidth: 1) else { return nil }
            return String(decoding: bytes[data.start..<(data.start + data.count)], as: UTF8.self)
        case .key:
            var unlimited = Int.max
            return try? keyString(scanBudget: &unlimited)
        default: return nil
        }
    }

    /// The zero-terminated key this reference points to, scanning at most `scanBudget` bytes
    /// (the budget is reduced by the bytes scanned).
    func keyString(scanBudget: inout Int) throws -> String {
        guard type == .key else { throw FlatBufferError.malformed("FlexBuffer \(type) is not a key") }
        let start = try indirect()
        var end = start
        while end < bytes.count, bytes[end] != 0 {
            end += 1
            scanBudget -= 1
            guard scanBudget > 0 else { throw FlatBufferError.malformed("FlexBuffer keys exceed the scan limit") }
        }
        guard end < bytes.count else { throw FlatBufferError.malformed("FlexBuffer key at \(start) is not terminated") }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// The value's bytes as a blob (blobs and strings).
    public var blob: [UInt8]? {
        guard type == .blob || type == .string, let data = try? sizedData(elementWidth: 1) else { return nil }
        return Array(bytes[data.start..<(data.start + data.count)])
    }

    /// The value as a vector (untyped, typed, fixed-length typed and maps' values).
    public var vector: FlexBufferVector? { try? FlexBufferVector(self) }

    /// The value as a map.
    public var map: FlexBufferMap? { try? FlexBufferMap(self) }

    /// Start and element count of length-prefixed data (the length precedes the data).
    func sizedData(elementWidth: Int) throws -> (start: Int, count: Int) {
        let start = try indirect()
        let count = try Self.readUInt(bytes, start - byteWidth, width: byteWidth)
        guard count <= UInt64(bytes.count), start + Int(count) * elementWidth <= bytes.count else {
            throw FlatBufferError.outOfBounds(what: "FlexBuffer data", offset: start, size: Int(clamping: count),
                                              bufferSize: bytes.count)
        }
        return (start, Int(count))
    }
}
