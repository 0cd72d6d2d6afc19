import TFLiteSchema

extension OperatorRegistry {
    /// Builtin detection operators (NON_MAX_SUPPRESSION_V4/V5, ...).
    static let detectionBuiltinFamily: [BuiltinOperator: OperatorFactory] = [:]
    /// Custom detection operators (`TFLite_Detection_PostProcess`).
    static let detectionCustomFamily: [String: OperatorFactory] = [:]
}
