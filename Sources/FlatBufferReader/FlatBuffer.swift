/// A bounds-checked view of one FlatBuffer inside a `ByteStorage` (a whole file, or a
/// nested buffer such as the `TFLITE_METADATA` buffer of a model).
///
/// All offsets taken by this API are relative to the start of the view.
public struct FlatBuffer: Sendable {
    /// The backing bytes.
    public let storage: ByteStorage
    /// Where the view starts in `storage`.
    public let start: Int
    /// Length of the view in bytes.
    public let count: Int
    /// Limits and counters for this decode; nil for lazy reads after load.
    let budget: FlatBufferBudget?

    /// Creates a view of `count` bytes at `start` of `storage`.
    public init(storage: ByteStorage, start: Int = 0, count: Int? = nil,
                limits: FlatBufferLimits? = .verifierDefaults) throws {
        let length = count ?? (storage.count - start)
        guard start >= 0, length >= 0, start <= storage.count, length <= storage.count - start else {
            throw FlatBufferError.outOfBounds(what: "buffer view", offset: start, size: length,
                                              bufferSize: storage.count)
        }
        self.storage = storage; self.start = start; self.count = length
        budget = limits.map { FlatBufferBudget(limits: $0, bufferSize: length) }
    }

    init(storage: ByteStorage, start: Int, count: Int, budget: FlatBufferBudget?) {
        self.storage = storage; self.start = start; self.count = count; self.budget = budget
    }

    /// The same view without load-time limit counters, for lazy reads from any thread.
    public var detached: FlatBuffer { FlatBuffer(storage: storage, start: start, count: count, budget: nil) }

    /// Throws unless `size` bytes at `offset` lie inside the view.
    @inline(__always)
    public func check(_ offset: Int, _ size: Int, _ what: @autoclosure () -> String) throws {
        guard offset >= 0, size >= 0, offset <= count, size <= count - offset else {
            throw FlatBufferError.outOfBounds(what: what(), offset: offset, size: size, bufferSize: count)
        }
    }

    /// Reads a little-endian integer at `offset`.
    @inline(__always)
    public func read<T: FixedWidthInteger>(_ type: T.Type, at offset: Int,
                                          _ what: @autoclosure () -> String = "scalar") throws -> T {
        try check(offset, MemoryLayout<T>.size, what())
        return storage.load(T.self, at: start + offset)!
    }

    /// Reads a little-endian `Float` at `offset`.
    public func readFloat(at offset: Int, _ what: @autoclosure () -> String = "float") throws -> Float {
        Float(bitPattern: try read(UInt32.self, at: offset, what()))
    }

    /// Reads a little-endian `Double` at `offset`.
    public func readDouble(at offset: Int, _ what: @autoclosure () -> String = "double") throws -> Double {
        Double(bitPattern: try read(UInt64.self, at: offset, what()))
    }

    /// Follows the unsigned 32-bit offset stored at `offset` and returns the target position.
    public func followOffset(at offset: Int, _ what: @autoclosure () -> String) throws -> Int {
        let relative = Int(try read(UInt32.self, at: offset, what()))
        let target = offset + relative
        try check(target, 4, what())
        return target
    }

    /// The 4-character file identifier at bytes 4..<8, or nil when the buffer is too short.
    public var fileIdentifier: String? {
        guard count >= 8 else { return nil }
        let bytes = storage.copyBytes(in: (start + 4)..<(start + 8))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// True when bytes 4..<8 equal `identifier`.
    public func hasIdentifier(_ identifier: String) -> Bool {
        guard count >= 8 else { return false }
        return storage.copyBytes(in: (start + 4)..<(start + 8)) == Array(identifier.utf8)
    }

    /// The root table.
    public func rootTable() throws -> FlatTable {
        guard count >= 8 else {
            throw FlatBufferError.outOfBounds(what: "root offset", offset: 0, size: 8, bufferSize: count)
        }
        let position = try followOffset(at: 0, "root table offset")
        return try FlatTable(buffer: self, position: position, depth: 1)
    }

    /// Copies `size` bytes at `offset`.
    public func bytes(at offset: Int, count size: Int, _ what: @autoclosure () -> String = "bytes") throws -> [UInt8] {
        try check(offset, size, what())
        return storage.copyBytes(in: (start + offset)..<(start + offset + size))
    }

    func consume(_ bytes: Int) throws { try budget?.consume(bytes: bytes) }
    func visitTable(depth: Int) throws { try budget?.visitTable(depth: depth) }
}
