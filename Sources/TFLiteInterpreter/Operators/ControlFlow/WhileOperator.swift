import TFLiteSchema

/// WHILE: the loop state starts as the operator's inputs; while the `cond` subgraph
/// (`WhileOptions.condSubgraphIndex`) returns true on the state, the `body` subgraph maps the
/// state to the next state. The final state is the operator's outputs (the inputs themselves if `cond` is false
/// at once). The state is kept in the operator's output tensors between iterations.
///
/// The outputs have the inputs' types and shapes when the body, prepared on the input shapes,
/// returns the same shapes and has no shapes known only at invoke; otherwise (a tensor that
/// grows each iteration) they are sized at invoke and the body re-plans when its input shapes
/// change. Every body run counts against ``ResourceLimits/maximumWhileIterations``.
final class WhileOperator: HostedKernel {
    private weak var host: ExecutionHost?
    private var dynamic = false

    func attach(_ host: ExecutionHost) { self.host = host }
    func hasInvokeTimeShapes(_ node: NodeContext) -> Bool { dynamic }

    private func subgraphs(_ node: NodeContext) throws -> (cond: SubgraphExecutor, body: SubgraphExecutor) {
        let options = try node.options(WhileOptions.self)
        return (try SubgraphCall.callee(Int(options.condSubgraphIndex), host: host, "WHILE"),
                try SubgraphCall.callee(Int(options.bodySubgraphIndex), host: host, "WHILE"))
    }

    func prepare(_ node: NodeContext) throws {
        let inputs = try node.inputs.indices.map { try node.input($0) }
        guard node.outputs.count == inputs.count else {
            throw InterpreterError.invalidModel("WHILE: \(inputs.count) inputs but \(node.outputs.count) outputs")
        }
        let (cond, body) = try subgraphs(node)
        try SubgraphCall.shapeInputs(cond, like: inputs, "WHILE cond")
        guard cond.outputIndices.count == 1 else {
            throw InterpreterError.invalidModel("WHILE: cond subgraph \(cond.blueprint.subgraphIndex) must have one output")
        }
        let flag = cond.tensors[cond.outputIndices[0]]
        guard flag.type == .bool, flag.elementCount == 1 else {
            throw InterpreterError.invalidModel("WHILE: cond output '\(flag.name)' must be one bool, it is \(flag.type) \(flag.shape)")
        }
        try SubgraphCall.shapeInputs(body, like: inputs, "WHILE body")
        guard body.outputIndices.count == inputs.count else {
            throw InterpreterError.invalidModel(
                "WHILE: body subgraph \(body.blueprint.subgraphIndex) has \(body.outputIndices.count) outputs, "
                + "the loop state \(inputs.count) tensors")
        }
        dynamic = body.hasInvokeTimeShapes
        for (k, output) in node.outputs.enumerated() {
            let result = body.tensors[body.outputIndices[k]]
            guard result.type == inputs[k].type else {
                throw InterpreterError.invalidModel(
                    "WHILE: body output \(k) is \(result.type), the loop state is \(inputs[k].type)")
            }
            if result.shape != inputs[k].shape { dynamic = true }
            output.type = inputs[k].type
            output.shape = inputs[k].shape
            if output.quantization == nil { output.quantization = inputs[k].quantization }
        }
    }

    func invoke(_ node: NodeContext) throws {
        guard let host, let calls = host.subgraphCalls else {
            throw InterpreterError.invocationFailed("WHILE: no executor attached")
        }
        let (cond, body) = try subgraphs(node)
        for (k, output) in node.outputs.enumerated() {
            let input = try node.input(k)
            try host.resizeOutput(output, to: input.shape)
            try SubgraphCall.copy(input, to: output, "WHILE")
        }
        while true {
            try SubgraphCall.feed(cond, from: node.outputs, "WHILE cond")
            try cond.invoke()
            guard try SubgraphCall.condition(cond.tensors[cond.outputIndices[0]], "WHILE cond") else { return }
            try calls.countWhileIteration("WHILE (body subgraph \(body.blueprint.subgraphIndex))")
            try SubgraphCall.feed(body, from: node.outputs, "WHILE body")
            try body.invoke()
            try SubgraphCall.collect(body, into: node.outputs, host: host, "WHILE body")
        }
    }
}
