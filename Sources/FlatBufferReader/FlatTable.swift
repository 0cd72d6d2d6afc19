/// A bounds-checked view of one FlatBuffers table: fields are looked up by id (0-based,
/// in schema declaration order) through the table's vtable.
public struct FlatTable: Sendable {
    /// The buffer holding the table.
    public let buffer: FlatBuffer
    /// Position of the table (its vtable offset field) in `buffer`.
    public let position: Int
    /// Nesting depth (root = 1).
    public let depth: Int
    private let vtable: Int
    private let vtableSize: Int
    private let tableSize: Int

    /// Validates the table header and vtable at `position`.
    public init(buffer: FlatBuffer, position: Int, depth: Int) throws {
        try buffer.visitTable(depth: depth)
        let vtableOffset = Int(try buffer.read(Int32.self, at: position, "table vtable offset"))
        let vtable = position - vtableOffset
        let vtableSize = Int(try buffer.read(UInt16.self, at: vtable, "vtable header"))
        let tableSize = Int(try buffer.read(UInt16.self, at: vtable + 2, "vtable header"))
        guard vtableSize >= 4, vtableSize % 2 == 0 else {
            throw FlatBufferError.malformed("vtable at \(vtable) has invalid size \(vtableSize)")
        }
        try buffer.check(vtable, vtableSize, "vtable")
        guard tableSize >= 4 else {
            throw FlatBufferError.malformed("table at \(position) has invalid size \(tableSize)")
        }
        try buffer.check(position, tableSize, "table")
        self.buffer = buffer; self.position = position; self.depth = depth
        self.vtable = vtable; self.vtableSize = vtableSize; self.tableSize = tableSize
    }

    /// The same table without load-time limit counters, for lazy reads from any thread.
    public var detached: FlatTable {
        FlatTable(unchecked: buffer.detached, position: position, depth: depth,
                  vtable: vtable, vtableSize: vtableSize, tableSize: tableSize)
    }

    private init(unchecked buffer: FlatBuffer, position: Int, depth: Int, vtable: Int, vtableSize: Int,
                 tableSize: Int) {
        self.buffer = buffer; self.position = position; self.depth = depth
        self.vtable = vtable; self.vtableSize = vtableSize; self.tableSize = tableSize
    }

    /// Position of field `id` in the buffer, or nil when the field is absent.
    /// Throws when the vtable entry points outside the table.
    public func fieldPosition(_ id: Int, size: Int) throws -> Int? {
        guard id >= 0 else { return nil }
        let entry = 4 + 2 * id
        guard entry + 2 <= vtableSize else { return nil }
        let offset = Int(try buffer.read(UInt16.self, at: vtable + entry, "vtable entry"))
        guard offset != 0 else { return nil }
        guard offset + size <= tableSize else {
            throw FlatBufferError.malformed("field \(id) of table at \(position) lies outside the table")
        }
        return position + offset
    }

    /// True when field `id` is present.
    public func has(_ id: Int) -> Bool { ((try? fieldPosition(id, size: 1)) ?? nil) != nil }

    /// An integer field, or `defaultValue` when absent.
    public func scalar<T: FixedWidthInteger>(_ id: Int, default defaultValue: T) throws -> T {
        try integer(id, default: defaultValue)
    }

    // The concrete forms of `scalar`, which calls with a concrete type resolve to: called from
    // another module, the generic form runs unspecialized, a metadata lookup and witness calls
    // per field read, a visible part of every model load.
    public func scalar(_ id: Int, default defaultValue: Int8) throws -> Int8 { try integer(id, default: defaultValue) }
    public func scalar(_ id: Int, default defaultValue: UInt8) throws -> UInt8 { try integer(id, default: defaultValue) }
    public func scalar(_ id: Int, default defaultValue: Int16) throws -> Int16 { try integer(id, default: defaultValue) }
    public func scalar(_ id: Int, default defaultValue: UInt16) throws -> UInt16 { try integer(id, default: defaultValue) }
    public func scalar(_ id: Int, default defaultValue: Int32) throws -> Int32 { try integer(id, default: defaultValue) }
    public func scalar(_ id: Int, default defaultValue: UInt32) throws -> UInt32 { try integer(id, default: defaultValue) }
    public func scalar(_ id: Int, default defaultValue: Int64) throws -> Int64 { try integer(id, default: defaultValue) }
    public func scalar(_ id: Int, default defaultValue: UInt64) throws -> UInt64 { try integer(id, default: defaultValue) }

    @inline(__always)
    private func integer<T: FixedWidthInteger>(_ id: Int, default defaultValue: T) throws -> T {
        guard let at = try fieldPosition(id, size: MemoryLayout<T>.size) else { return defaultValue }
        return try buffer.read(T.self, at: at, "field \(id)")
    }

    /// A `float` field, or `defaultValue` when absent.
    public func float(_ id: Int, default defaultValue: Float) throws -> Float {
        guard let at = try fieldPosition(id, size: 4) else { return defaultValue }
        return try buffer.readFloat(at: at, "field \(id)")
    }

    /// A `double` field, or `defaultValue` when absent.
    public func double(_ id: Int, default defaultValue: Double) throws -> Double {
        guard let at = try fieldPosition(id, size: 8) else { return defaultValue }
        return try buffer.readDouble(at: at, "field \(id)")
    }

    /// A `bool` field, or `defaultValue` when absent.
    public func bool(_ id: Int, default defaultValue: Bool) throws -> Bool {
        try scalar(id, default: UInt8(defaultValue ? 1 : 0)) != 0
    }

    /// A string field (UTF-8; invalid sequences are repaired), nil when absent.
    public func string(_ id: Int) throws -> String? {
        guard let at = try fieldPosition(id, size: 4) else { return nil }
        return try FlatString.read(buffer: buffer, at: try buffer.followOffset(at: at, "string field \(id)"))
    }

    /// A sub-table field, nil when absent.
    public func table(_ id: Int) throws -> FlatTable? {
        guard let at = try fieldPosition(id, size: 4) else { return nil }
        let target = try buffer.followOffset(at: at, "table field \(id)")
        return try FlatTable(buffer: buffer, position: target, depth: depth + 1)
    }

    /// A vector field, nil when absent. `elementSize` is the byte size of one element
    /// (4 for vectors of tables, strings and offsets).
    public func vector(_ id: Int, elementSize: Int) throws -> FlatVector? {
        guard let at = try fieldPosition(id, size: 4) else { return nil }
        let target = try buffer.followOffset(at: at, "vector field \(id)")
        return try FlatVector(buffer: buffer, position: target, elementSize: elementSize, depth: depth)
    }

    /// A union field: the type code from field `typeId` and the table from field `valueId`.
    /// Nil when the type is 0 (NONE) or the value is absent.
    public func union(typeId: Int, valueId: Int) throws -> (type: UInt8, table: FlatTable)? {
        let type: UInt8 = try scalar(typeId, default: 0)
        guard type != 0, let table = try table(valueId) else { return nil }
        return (type, table)
    }

    /// Convenience: a `[ushort]` vector field, empty when absent.
    public func uint16Array(_ id: Int) throws -> [UInt16] { try vector(id, elementSize: 2)?.integers() ?? [] }
    /// Convenience: an `[int]` vector field, empty when absent.
    public func int32Array(_ id: Int) throws -> [Int32] { try vector(id, elementSize: 4)?.integers() ?? [] }
    /// Convenience: a `[long]` vector field, empty when absent.
    public func int64Array(_ id: Int) throws -> [Int64] { try vector(id, elementSize: 8)?.integers() ?? [] }
    /// Convenience: a `[float]` vector field, empty when absent.
    public func floatArray(_ id: Int) throws -> [Float] { try vector(id, elementSize: 4)?.floats() ?? [] }
    /// Convenience: a `[ubyte]` vector field, empty when absent.
    public func byteArray(_ id: Int) throws -> [UInt8] { try vector(id, elementSize: 1)?.bytes() ?? [] }
    /// Convenience: a `[string]` vector field, empty when absent.
    public func stringArray(_ id: Int) throws -> [String] { try vector(id, elementSize: 4)?.strings() ?? [] }
    /// Convenience: a vector of tables, empty when absent.
    public func tableArray(_ id: Int) throws -> [FlatTable] { try vector(id, elementSize: 4)?.tables() ?? [] }
}

/// FlatBuffers strings: a 32-bit length, the UTF-8 bytes, and a terminating zero.
enum FlatString {
    static func read(buffer: FlatBuffer, at position: Int) throws -> String {
        let length = Int(try buffer.read(UInt32.self, at: position, "string length"))
        try buffer.check(position + 4, length, "string bytes")
        try buffer.consume(length)
        let bytes = buffer.storage.unsafeBytes(in: (buffer.start + position + 4)..<(buffer.start + position + 4 + length))
        return String(decoding: bytes, as: UTF8.self)
    }
}
