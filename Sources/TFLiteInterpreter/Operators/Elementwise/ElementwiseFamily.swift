import TFLiteSchema

extension OperatorRegistry {
    /// The Elementwise family's builtin operators.
    static let elementwiseFamily: [BuiltinOperator: OperatorFactory] = [:]
}
