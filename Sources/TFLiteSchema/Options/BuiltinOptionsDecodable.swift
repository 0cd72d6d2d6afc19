/// A typed `BuiltinOptions` table (generated from the schema, one struct per table, e.g.
/// ``Conv2DOptions``). Operators read their options only through these types, never by
/// FlatBuffers field number.
///
///     let options = try Conv2DOptions(op.builtinOptions, operator: "CONV_2D")
public protocol BuiltinOptionsDecodable: Sendable, Equatable {
    /// The union member this table is.
    static var optionsType: BuiltinOptionsType { get }
    /// Every field at the schema's default (what an operator without options means).
    init()
    /// Reads the fields of `table`, which the caller has checked to be ``optionsType``.
    /// - Throws: ``TFLiteSchemaError/unknownEnumValue(operator:field:enumeration:value:)``.
    init(fields table: OptionsTable, operator name: String) throws
}

extension BuiltinOptionsDecodable {
    /// Decodes an operator's options table after checking the union's type code; an operator
    /// without options gets every field at the schema's default.
    /// - Parameters:
    ///   - table: `OperatorDescription.builtinOptions`.
    ///   - name: the operator, e.g. `CONV_2D`, named by the errors.
    /// - Throws: ``TFLiteSchemaError/wrongOptionsType(operator:expected:found:)`` when the
    ///   table is another union member; ``TFLiteSchemaError/unknownEnumValue(operator:field:enumeration:value:)``
    ///   for an enum code the schema does not define.
    public init(_ table: OptionsTable?, operator name: String) throws {
        guard let table else { self.init(); return }
        guard table.typeCode == Self.optionsType.rawValue else {
            throw TFLiteSchemaError.wrongOptionsType(operator: name, expected: Self.optionsType.description,
                                                     found: BuiltinOptionsType(rawValue: table.typeCode).description)
        }
        try self.init(fields: table, operator: name)
    }
}

extension OperatorDescription {
    /// This operator's builtin options as `type`, checked and decoded (see
    /// ``BuiltinOptionsDecodable/init(_:operator:)``); `name` is the operator for errors.
    public func options<Options: BuiltinOptionsDecodable>(_ type: Options.Type, operator name: String) throws -> Options {
        try Options(builtinOptions, operator: name)
    }
}

/// A schema enum stored as a `byte` field of an options table (the generated enums, and
/// ``TensorType``).
public protocol OptionsEnumeration: RawRepresentable, Sendable where RawValue == Int8 {}

extension TensorType: OptionsEnumeration {}

extension OptionsTable {
    /// An enum field: `default` when absent, the case for a known code.
    /// - Throws: ``TFLiteSchemaError/unknownEnumValue(operator:field:enumeration:value:)``
    ///   naming `name`, `field` and the enum for any other code.
    public func enumeration<Value: OptionsEnumeration>(_ id: Int, default value: Value, field: String,
                                                       operator name: String) throws -> Value {
        let code = int8(id, default: value.rawValue)
        guard let decoded = Value(rawValue: code) else {
            throw TFLiteSchemaError.unknownEnumValue(operator: name, field: field,
                                                     enumeration: String(describing: Value.self), value: Int(code))
        }
        return decoded
    }
}
