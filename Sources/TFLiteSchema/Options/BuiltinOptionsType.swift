/// A member of the schema's `BuiltinOptions` union: the type code an operator's
/// `builtin_options_type` holds (1 = `Conv2DOptions`, ..., 0 = none). Open-ended: codes
/// newer than this build are kept as raw values. The named codes are generated
/// (`BuiltinOptionsType+Codes.swift`).
public struct BuiltinOptionsType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The union's type code.
    public let rawValue: UInt8
    /// Wraps a raw type code.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// The schema's name, e.g. `Conv2DOptions`, or `BuiltinOptions(<n>)` for codes unknown to this build.
    public var description: String { Self.schemaName(rawValue) ?? "BuiltinOptions(\(rawValue))" }
}
