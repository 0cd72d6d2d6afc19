import FlatBufferReader

/// A builtin-options table of one operator, read by field id (0-based, in `schema.fbs`
/// declaration order). Every accessor is bounds-checked and returns the default when the
/// field is absent or malformed.
public struct OptionsTable: Sendable {
    /// The `BuiltinOptions` union type code, e.g. 1 = `Conv2DOptions`.
    public let typeCode: UInt8
    /// The table, detached from load-time counters so it can be read from any thread.
    private let table: FlatTable

    /// Wraps a decoded union table.
    public init(typeCode: UInt8, table: FlatTable) {
        self.typeCode = typeCode
        self.table = table.detached
    }

    /// True when field `field` is present in the table.
    public func has(_ field: Int) -> Bool { table.has(field) }

    /// A `byte` (int8) field, e.g. `Padding`, `ActivationFunctionType`.
    public func int8(_ field: Int, default value: Int8 = 0) -> Int8 {
        (try? table.scalar(field, default: value)) ?? value
    }
    /// A `ubyte` field.
    public func uint8(_ field: Int, default value: UInt8 = 0) -> UInt8 {
        (try? table.scalar(field, default: value)) ?? value
    }
    /// A `short` field.
    public func int16(_ field: Int, default value: Int16 = 0) -> Int16 {
        (try? table.scalar(field, default: value)) ?? value
    }
    /// An `int` field.
    public func int32(_ field: Int, default value: Int32 = 0) -> Int32 {
        (try? table.scalar(field, default: value)) ?? value
    }
    /// A `long` field.
    public func int64(_ field: Int, default value: Int64 = 0) -> Int64 {
        (try? table.scalar(field, default: value)) ?? value
    }
    /// A `float` field.
    public func float(_ field: Int, default value: Float = 0) -> Float {
        (try? table.float(field, default: value)) ?? value
    }
    /// A `bool` field.
    public func bool(_ field: Int, default value: Bool = false) -> Bool {
        (try? table.bool(field, default: value)) ?? value
    }
    /// A `string` field; nil when absent or malformed (e.g. `VarHandleOptions.shared_name`).
    public func string(_ field: Int) -> String? {
        (try? table.string(field)) ?? nil
    }
    /// A `[int]` field; empty when absent.
    public func int32Array(_ field: Int) -> [Int32] {
        (try? table.int32Array(field)) ?? []
    }
}
