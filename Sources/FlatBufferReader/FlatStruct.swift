/// A bounds-checked view of a FlatBuffers struct: fixed-size inline data stored directly in
/// a table field or a vector of structs. Fields are read by byte offset within the struct.
public struct FlatStruct: Sendable {
    /// The buffer holding the struct.
    public let buffer: FlatBuffer
    /// Position of the struct's first byte.
    public let position: Int
    /// Size of the struct in bytes.
    public let size: Int

    /// Checks that `size` bytes at `position` lie in `buffer`.
    public init(buffer: FlatBuffer, position: Int, size: Int) throws {
        try buffer.check(position, size, "struct of \(size) bytes")
        self.buffer = buffer; self.position = position; self.size = size
    }

    /// An integer at byte `offset` of the struct.
    public func scalar<T: FixedWidthInteger>(at offset: Int, as type: T.Type = T.self) throws -> T {
        guard offset >= 0, offset + MemoryLayout<T>.size <= size else {
            throw FlatBufferError.outOfBounds(what: "struct field", offset: offset, size: MemoryLayout<T>.size,
                                              bufferSize: size)
        }
        return try buffer.read(T.self, at: position + offset, "struct field")
    }

    /// A `float` at byte `offset` of the struct.
    public func float(at offset: Int) throws -> Float { Float(bitPattern: try scalar(at: offset, as: UInt32.self)) }

    /// A `double` at byte `offset` of the struct.
    public func double(at offset: Int) throws -> Double { Double(bitPattern: try scalar(at: offset, as: UInt64.self)) }
}

extension FlatTable {
    /// An inline struct field of `size` bytes, nil when absent.
    public func structField(_ id: Int, size: Int) throws -> FlatStruct? {
        guard let at = try fieldPosition(id, size: size) else { return nil }
        return try FlatStruct(buffer: buffer, position: at, size: size)
    }
}

extension FlatVector {
    /// Element `index` of a vector of structs (the vector's element size is the struct size).
    public func structElement(at index: Int) throws -> FlatStruct {
        try FlatStruct(buffer: buffer, position: try position(of: index), size: elementSize)
    }
}
