/// A FlexBuffers map (e.g. the custom options of `TFLite_Detection_PostProcess`):
/// sorted keys with one value each. Lookups are bounds-checked and return nil when the key
/// is absent or the value has an incompatible type.
public struct FlexBufferMap: Sendable {
    /// The map's values as a vector.
    private let values: FlexBufferVector
    /// The map's keys, in stored (sorted) order.
    public let keys: [String]

    /// Parses a FlexBuffer whose root is a map.
    public init(bytes: [UInt8]) throws {
        try self.init(FlexBufferReference(root: bytes))
    }

    /// Interprets `reference` as a map.
    public init(_ reference: FlexBufferReference) throws {
        guard reference.type == .map else {
            throw FlatBufferError.malformed("FlexBuffer root is \(reference.type), not a map")
        }
        values = try FlexBufferVector(reference)
        // Before the values: keys offset (at -3w), keys width (at -2w), count (at -w).
        let start = try reference.indirect()
        let width = reference.byteWidth
        let keysSlot = start - 3 * width
        let keysWidth = Int(clamping: try FlexBufferReference.readUInt(reference.bytes, start - 2 * width, width: width))
        let keysReference = FlexBufferReference(bytes: reference.bytes, position: keysSlot, parentWidth: width,
                                                byteWidth: keysWidth, type: .vectorKey)
        let keyVector = try FlexBufferVector(keysReference)
        guard keyVector.count == values.count else {
            throw FlatBufferError.malformed("FlexBuffer map has \(keyVector.count) keys for \(values.count) values")
        }
        // Keys are zero-terminated: bound the total bytes scanned so a hostile map with many
        // unterminated keys costs linear, not quadratic, time.
        var scanBudget = Swift.max(4 * reference.bytes.count, 1 << 16)
        var keys: [String] = []
        keys.reserveCapacity(keyVector.count)
        for index in 0..<keyVector.count {
            guard let slot = keyVector[index], let key = try? slot.keyString(scanBudget: &scanBudget) else {
                throw FlatBufferError.malformed("FlexBuffer map key \(index) is unreadable")
            }
            keys.append(key)
        }
        self.keys = keys
    }

    /// Number of entries.
    public var count: Int { keys.count }

    /// The value stored under `key`.
    public subscript(key: String) -> FlexBufferReference? {
        guard let index = keys.firstIndex(of: key) else { return nil }
        return values[index]
    }

    /// An integer value (ints, uints, bools; floats truncated).
    public func int(_ key: String) -> Int? { self[key]?.int.map { Int(truncatingIfNeeded: $0) } }

    /// A float value (floats and integers).
    public func float(_ key: String) -> Float? { self[key]?.double.map(Float.init) }

    /// A double value (floats and integers).
    public func double(_ key: String) -> Double? { self[key]?.double }

    /// A bool value (bools and integers).
    public func bool(_ key: String) -> Bool? { self[key]?.bool }

    /// A string value.
    public func string(_ key: String) -> String? { self[key]?.string }

    /// A vector value.
    public func vector(_ key: String) -> FlexBufferVector? { self[key]?.vector }
}
