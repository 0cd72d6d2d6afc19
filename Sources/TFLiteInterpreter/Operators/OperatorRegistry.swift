import TFLiteSchema

/// Maps operator codes to kernels. Each operator family registers in its own file.
enum OperatorRegistry {
    /// Builtin operators by code.
    static let builtins: [BuiltinOperator: OperatorFactory] = {
        var all: [BuiltinOperator: OperatorFactory] = [:]
        for family in [convolutionFamily, elementwiseFamily, dataMovementFamily, detectionBuiltinFamily,
                       controlFlowFamily] {
            all.merge(family) { first, _ in first }
        }
        return all
    }()

    /// Custom operators by name.
    static let customs: [String: OperatorFactory] = detectionCustomFamily.merging(convolutionCustomFamily) { a, _ in a }
        .merging(landmarksCustomFamily) { a, _ in a }

    /// The factory for `code`, or nil when this engine does not implement it.
    static func factory(for code: OperatorCode) -> OperatorFactory? {
        if code.builtin == .custom { return code.customName.flatMap { customs[$0] } }
        return builtins[code.builtin]
    }
}
