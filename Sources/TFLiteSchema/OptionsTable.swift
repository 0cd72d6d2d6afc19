// CONTRACT (public API). Bodies are placeholders until the FlatBuffers reader lands.

/// A builtin-options table of one operator, read by field id (0-based, in `schema.fbs`
/// declaration order). Every accessor is bounds-checked and returns the default when the
/// field is absent or malformed.
public struct OptionsTable: Sendable {
    /// The `BuiltinOptions` union type code, e.g. 1 = `Conv2DOptions`.
    public let typeCode: UInt8

    /// A `byte` (int8) field, e.g. `Padding`, `ActivationFunctionType`.
    public func int8(_ field: Int, default value: Int8 = 0) -> Int8 { value }
    /// A `ubyte` field.
    public func uint8(_ field: Int, default value: UInt8 = 0) -> UInt8 { value }
    /// A `short` field.
    public func int16(_ field: Int, default value: Int16 = 0) -> Int16 { value }
    /// An `int` field.
    public func int32(_ field: Int, default value: Int32 = 0) -> Int32 { value }
    /// A `long` field.
    public func int64(_ field: Int, default value: Int64 = 0) -> Int64 { value }
    /// A `float` field.
    public func float(_ field: Int, default value: Float = 0) -> Float { value }
    /// A `bool` field.
    public func bool(_ field: Int, default value: Bool = false) -> Bool { value }
    /// A `[int]` field; empty when absent.
    public func int32Array(_ field: Int) -> [Int32] { [] }
}
