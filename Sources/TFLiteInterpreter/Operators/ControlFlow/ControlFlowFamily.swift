import TFLiteSchema

extension OperatorRegistry {
    /// The ControlFlow family's builtin operators: subgraph calls and resource variables.
    static let controlFlowFamily: [BuiltinOperator: OperatorFactory] = [
        .if: { IfOperator() },
        .while: { WhileOperator() },
        .callOnce: { CallOnceOperator() },
        .varHandle: { VarHandleOperator() },
        .readVariable: { ReadVariableOperator() },
        .assignVariable: { AssignVariableOperator() },
    ]
}
