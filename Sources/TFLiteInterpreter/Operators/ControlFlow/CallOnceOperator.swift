import TFLiteSchema

/// CALL_ONCE: runs the `init` subgraph (`CallOnceOptions`; no inputs, no outputs) the first time
/// the operator is invoked in an interpreter, typically to assign resource variables that later
/// operators read; later invokes do nothing. "Once" is per interpreter (shared with its signature
/// runners, like the variables) and counts only a run that completed: after an error the next
/// invoke tries again.
final class CallOnceOperator: HostedKernel {
    private weak var host: ExecutionHost?
    /// The init subgraph's index (0 when absent, the schema's default), read at prepare.
    private var initIndex = 0

    func attach(_ host: ExecutionHost) { self.host = host }
    func hasInvokeTimeShapes(_ node: NodeContext) -> Bool { false }

    func prepare(_ node: NodeContext) throws {
        guard node.inputs.isEmpty, node.outputs.isEmpty else {
            throw InterpreterError.invalidModel("CALL_ONCE: takes no inputs and gives no outputs")
        }
        initIndex = Int(try node.options(CallOnceOptions.self).initSubgraphIndex)
        let callee = try SubgraphCall.callee(initIndex, host: host, "CALL_ONCE")
        guard callee.inputIndices.isEmpty, callee.outputIndices.isEmpty else {
            throw InterpreterError.invalidModel(
                "CALL_ONCE: init subgraph \(callee.blueprint.subgraphIndex) must have no inputs and no outputs")
        }
    }

    func invoke(_ node: NodeContext) throws {
        guard let calls = host?.subgraphCalls else { throw InterpreterError.invocationFailed("CALL_ONCE: no executor attached") }
        let index = initIndex
        let callee = try calls.executor(for: index)
        try calls.variables.runOnce(subgraph: index) {
            if !callee.isPrepared { try callee.prepare() }
            try callee.invoke()
        }
    }
}
