import TFLiteSchema

extension OperatorRegistry {
    /// Builtin detection operators: NON_MAX_SUPPRESSION_V4 (hard) and V5 (soft).
    static let detectionBuiltinFamily: [BuiltinOperator: OperatorFactory] = [
        .nonMaxSuppressionV4: { NonMaxSuppressionOperator(soft: false) },
        .nonMaxSuppressionV5: { NonMaxSuppressionOperator(soft: true) },
    ]
    /// Custom detection operators (`TFLite_Detection_PostProcess`).
    static let detectionCustomFamily: [String: OperatorFactory] = [
        "TFLite_Detection_PostProcess": { DetectionPostProcessOperator() },
    ]
}
