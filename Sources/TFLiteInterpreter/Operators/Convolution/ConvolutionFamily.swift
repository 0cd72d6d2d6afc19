import TFLiteSchema

extension OperatorRegistry {
    /// The Convolution family's builtin operators.
    static let convolutionFamily: [BuiltinOperator: OperatorFactory] = [:]
}

extension OperatorRegistry {
    /// Custom convolution operators (`Convolution2DTransposeBias`).
    static let convolutionCustomFamily: [String: OperatorFactory] = [:]
}
