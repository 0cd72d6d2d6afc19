/// A bounds-checked view of a FlatBuffers vector: a 32-bit element count followed by
/// `count` elements of `elementSize` bytes. The whole vector is checked at creation.
public struct FlatVector: Sendable {
    /// The buffer holding the vector.
    public let buffer: FlatBuffer
    /// Position of the first element in `buffer`.
    public let elementsStart: Int
    /// Number of elements.
    public let count: Int
    /// Bytes per element.
    public let elementSize: Int
    /// Depth of the table that holds the vector (tables inside are one deeper).
    let depth: Int

    /// Validates the vector header at `position`.
    public init(buffer: FlatBuffer, position: Int, elementSize: Int, depth: Int) throws {
        let count = Int(try buffer.read(UInt32.self, at: position, "vector length"))
        let (byteCount, overflow) = count.multipliedReportingOverflow(by: elementSize)
        guard !overflow else {
            throw FlatBufferError.malformed("vector at \(position) with \(count) elements is too large")
        }
        try buffer.check(position + 4, byteCount, "vector of \(count) elements")
        try buffer.consume(byteCount)
        self.buffer = buffer; elementsStart = position + 4; self.count = count
        self.elementSize = elementSize; self.depth = depth
    }

    /// Range of the element bytes relative to the start of the buffer view.
    public var byteRange: Range<Int> { elementsStart..<(elementsStart + count * elementSize) }

    /// Range of the element bytes in the backing `ByteStorage`.
    public var storageRange: Range<Int> { (buffer.start + elementsStart)..<(buffer.start + elementsStart + count * elementSize) }

    /// Position of element `index`.
    public func position(of index: Int) throws -> Int {
        guard index >= 0, index < count else {
            throw FlatBufferError.outOfBounds(what: "vector element \(index) of \(count)", offset: index,
                                              size: 1, bufferSize: count)
        }
        return elementsStart + index * elementSize
    }

    /// All elements as integers of type `T` (element size must match).
    public func integers<T: FixedWidthInteger>(_ type: T.Type = T.self) throws -> [T] { try elements(T.self) { $0 } }

    /// All elements as `Float`s (element size 4).
    public func floats() throws -> [Float] { try elements(UInt32.self, Float.init(bitPattern:)) }

    /// All elements as `Double`s (element size 8).
    public func doubles() throws -> [Double] { try elements(UInt64.self, Double.init(bitPattern:)) }

    /// All elements read as little-endian `Bits` (element size must match), each made a `Value`
    /// by `make`, in one pass into the result (no intermediate array).
    @inline(__always)
    private func elements<Bits: FixedWidthInteger, Value>(_ bits: Bits.Type, _ make: (Bits) -> Value) throws -> [Value] {
        guard MemoryLayout<Bits>.size == elementSize else {
            throw FlatBufferError.malformed("vector element size \(elementSize) read as \(Bits.self)")
        }
        // The vector's bytes were checked at creation: one view of them, no check per element
        // (model loading reads about a thousand of these small vectors).
        guard count > 0 else { return [] }
        let bytes = buffer.storage.unsafeBytes(in: storageRange)
        guard bytes.count == count &* elementSize, let base = bytes.baseAddress else {
            throw FlatBufferError.malformed("vector of \(count) elements outside its storage")
        }
        return [Value](unsafeUninitializedCapacity: count) { elements, initialized in
            for index in 0..<count {
                elements[index] = make(Bits(littleEndian: base.loadUnaligned(fromByteOffset: index &* elementSize, as: Bits.self)))
            }
            initialized = count
        }
    }

    /// All elements as bytes (element size 1).
    public func bytes() throws -> [UInt8] { try integers(UInt8.self) }

    /// Element `index` as a table (vector of offsets).
    public func table(at index: Int) throws -> FlatTable {
        let at = try position(of: index)
        return try FlatTable(buffer: buffer, position: try buffer.followOffset(at: at, "table element \(index)"),
                             depth: depth + 1)
    }

    /// All elements as tables.
    public func tables() throws -> [FlatTable] { try (0..<count).map { try table(at: $0) } }

    /// Element `index` as a string (vector of offsets).
    public func string(at index: Int) throws -> String {
        let at = try position(of: index)
        return try FlatString.read(buffer: buffer, at: try buffer.followOffset(at: at, "string element \(index)"))
    }

    /// All elements as strings.
    public func strings() throws -> [String] { try (0..<count).map { try string(at: $0) } }
}
