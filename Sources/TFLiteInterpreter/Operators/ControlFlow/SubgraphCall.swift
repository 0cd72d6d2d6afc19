import TFLiteSchema

/// Moving tensors into and out of a called subgraph, shared by IF and WHILE. Values are copied
/// (the caller's and the callee's tensors live in different arenas, and the callee may re-plan
/// its arena between calls); a callee re-plans only when the shapes it is given change.
enum SubgraphCall {
    /// The executor of subgraph `index`, through `host`.
    /// - Throws: ``InterpreterError/invalidModel(_:)`` when the executor has no subgraphs to call.
    static func callee(_ index: Int, host: ExecutionHost?, _ op: String) throws -> SubgraphExecutor {
        guard let calls = host?.subgraphCalls else {
            throw InterpreterError.invalidModel("\(op): this executor cannot call subgraphs")
        }
        return try calls.executor(for: index)
    }

    /// Gives `callee`'s graph inputs the types' check and the shapes of `sources`, and prepares it
    /// when that changed its shapes (or it was never prepared).
    /// - Throws: ``InterpreterError/invalidModel(_:)`` when a count or type differs.
    static func shapeInputs(_ callee: SubgraphExecutor, like sources: [RuntimeTensor], _ op: String) throws {
        let inputs = callee.inputIndices
        guard inputs.count == sources.count else {
            throw InterpreterError.invalidModel(
                "\(op): subgraph \(callee.blueprint.subgraphIndex) has \(inputs.count) inputs, given \(sources.count)")
        }
        for (index, source) in zip(inputs, sources) {
            let input = callee.tensors[index]
            guard input.type == source.type else {
                throw InterpreterError.invalidModel(
                    "\(op): subgraph \(callee.blueprint.subgraphIndex) input '\(input.name)' is \(input.type), "
                    + "given '\(source.name)' of type \(source.type)")
            }
            try callee.resize(tensorIndex: index, to: source.shape)
        }
        if !callee.isPrepared { try callee.prepare() }
    }

    /// ``shapeInputs(_:like:_:)``, then copies the values of `sources` into the callee's inputs.
    static func feed(_ callee: SubgraphExecutor, from sources: [RuntimeTensor], _ op: String) throws {
        try shapeInputs(callee, like: sources, op)
        for (index, source) in zip(callee.inputIndices, sources) {
            try copy(source, to: callee.tensors[index], op)
        }
    }

    /// Sizes `outputs` (through `host`) like the callee's graph outputs and copies their values.
    static func collect(_ callee: SubgraphExecutor, into outputs: [RuntimeTensor], host: ExecutionHost, _ op: String) throws {
        for (index, output) in zip(callee.outputIndices, outputs) {
            let result = callee.tensors[index]
            try host.resizeOutput(output, to: result.shape)
            try copy(result, to: output, op)
        }
    }

    /// Copies the bytes of `source` to `destination`, of the same type and byte count.
    static func copy(_ source: RuntimeTensor, to destination: RuntimeTensor, _ op: String) throws {
        let bytes = source.byteCount
        guard destination.type == source.type, destination.byteCount == bytes else {
            throw InterpreterError.invocationFailed(
                "\(op): cannot copy '\(source.name)' (\(source.type) \(source.shape)) to '\(destination.name)' "
                + "(\(destination.type) \(destination.shape))")
        }
        guard bytes > 0, source.data != destination.data else { return }
        guard let from = source.data, let to = destination.data else {
            throw InterpreterError.invocationFailed("\(op): tensor '\(source.name)' or '\(destination.name)' is not allocated")
        }
        to.copyMemory(from: from, byteCount: bytes)
    }

    /// Reads the single boolean of a condition tensor (bool, one element).
    static func condition(_ tensor: RuntimeTensor, _ op: String) throws -> Bool {
        guard tensor.type == .bool, tensor.elementCount == 1 else {
            throw InterpreterError.invalidModel(
                "\(op): condition '\(tensor.name)' must be one bool, it is \(tensor.type) \(tensor.shape)")
        }
        guard let data = tensor.data else {
            throw InterpreterError.invocationFailed("\(op): condition '\(tensor.name)' is not allocated")
        }
        return data.load(as: UInt8.self) != 0
    }
}
