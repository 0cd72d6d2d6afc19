import TFLiteSchema

extension OperatorRegistry {
    /// The DataMovement family's builtin operators.
    static let dataMovementFamily: [BuiltinOperator: OperatorFactory] = [:]
}
