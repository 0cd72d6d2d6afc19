import TFLiteSchema

/// IF: input 0 is a one-element bool condition; the other inputs are passed to the `then`
/// subgraph (`IfOptions.thenSubgraphIndex`) when it is true, else to the `else` subgraph, and that
/// subgraph's outputs become the operator's outputs.
///
/// Prepare shapes both branches with the inputs; the outputs take the types of the `then`
/// branch (the `else` branch must agree) and its shapes. When the branches' output shapes
/// differ, or either branch has shapes known only at invoke, the outputs are sized at invoke.
final class IfOperator: HostedKernel {
    private weak var host: ExecutionHost?
    private var dynamic = false
    /// Inputs 1... (the branch arguments), kept from prepare so invoke allocates nothing.
    private var arguments: [RuntimeTensor] = []

    func attach(_ host: ExecutionHost) { self.host = host }
    func hasInvokeTimeShapes(_ node: NodeContext) -> Bool { dynamic }

    private func branches(_ node: NodeContext) throws -> (then: SubgraphExecutor, else: SubgraphExecutor) {
        let options = try node.options(IfOptions.self)
        return (try SubgraphCall.callee(Int(options.thenSubgraphIndex), host: host, "IF"),
                try SubgraphCall.callee(Int(options.elseSubgraphIndex), host: host, "IF"))
    }

    func prepare(_ node: NodeContext) throws {
        let condition = try node.input(0)
        guard condition.type == .bool, condition.elementCount == 1 else {
            throw InterpreterError.invalidModel(
                "IF: condition '\(condition.name)' must be one bool, it is \(condition.type) \(condition.shape)")
        }
        arguments = try (1..<node.inputs.count).map { try node.input($0) }
        let (thenBranch, elseBranch) = try branches(node)
        try SubgraphCall.shapeInputs(thenBranch, like: arguments, "IF then")
        try SubgraphCall.shapeInputs(elseBranch, like: arguments, "IF else")
        for branch in [thenBranch, elseBranch] where branch.outputIndices.count != node.outputs.count {
            throw InterpreterError.invalidModel(
                "IF: subgraph \(branch.blueprint.subgraphIndex) has \(branch.outputIndices.count) outputs, "
                + "the operator \(node.outputs.count)")
        }
        dynamic = thenBranch.hasInvokeTimeShapes || elseBranch.hasInvokeTimeShapes
        for (k, output) in node.outputs.enumerated() {
            let a = thenBranch.tensors[thenBranch.outputIndices[k]], b = elseBranch.tensors[elseBranch.outputIndices[k]]
            guard a.type == b.type else {
                throw InterpreterError.invalidModel("IF: output \(k) is \(a.type) in one branch and \(b.type) in the other")
            }
            if a.shape != b.shape { dynamic = true }
            output.type = a.type
            output.shape = a.shape
            if output.quantization == nil { output.quantization = a.quantization }
        }
    }

    func invoke(_ node: NodeContext) throws {
        guard let host else { throw InterpreterError.invocationFailed("IF: no executor attached") }
        let branch = try SubgraphCall.condition(node.input(0), "IF") ? branches(node).then : branches(node).else
        try SubgraphCall.feed(branch, from: arguments, "IF")
        try branch.invoke()
        try SubgraphCall.collect(branch, into: node.outputs, host: host, "IF")
    }
}
