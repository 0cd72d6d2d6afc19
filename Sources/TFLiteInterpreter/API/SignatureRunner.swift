import Foundation
import TFLiteSchema

/// Runs one signature of a model with named inputs and outputs (TensorFlowLiteSwift's
/// `SignatureRunner`). Obtained from ``Interpreter/signatureRunner(with:)``; it has its own
/// tensors and arena and shares the model's constants and the interpreter's threads.
/// Used from one thread at a time, like ``Interpreter``.
public final class SignatureRunner: @unchecked Sendable {
    /// The signature key, e.g. `serving_default`.
    public let signatureKey: String
    /// Input names, in signature order.
    public let inputs: [String]
    /// Output names, in signature order.
    public let outputs: [String]
    private let inputTensors: [String: Int]
    private let outputTensors: [String: Int]
    private let executor: SubgraphExecutor
    private let access = ExclusiveAccess()

    /// `variables`: the interpreter's resource variables and CALL_ONCE state (a fresh set when nil).
    init(model: Model, signature: SignatureDescription, threads: ThreadPool, fusesMultiplyAdd: Bool = false,
         variables: ResourceVariables? = nil) throws {
        guard model.subgraphs.indices.contains(signature.subgraphIndex) else {
            throw InterpreterError.invalidModel(
                "signature '\(signature.key)' refers to subgraph \(signature.subgraphIndex)")
        }
        let blueprint = model.subgraphs[signature.subgraphIndex]
        let tensorCount = blueprint.description.tensors.count
        for entry in signature.inputs + signature.outputs where !(0..<tensorCount).contains(entry.tensorIndex) {
            throw InterpreterError.invalidModel(
                "signature '\(signature.key)': '\(entry.name)' refers to tensor \(entry.tensorIndex)")
        }
        signatureKey = signature.key
        inputs = signature.inputs.map(\.name)
        outputs = signature.outputs.map(\.name)
        inputTensors = Dictionary(signature.inputs.map { ($0.name, $0.tensorIndex) }) { a, _ in a }
        outputTensors = Dictionary(signature.outputs.map { ($0.name, $0.tensorIndex) }) { a, _ in a }
        executor = SubgraphExecutor(blueprint: blueprint, threads: threads,
                                    budget: MemoryBudget(limits: model.resourceLimits,
                                                         alreadyUsed: model.derivedConstantByteCount),
                                    fusesMultiplyAdd: fusesMultiplyAdd,
                                    calls: SubgraphCalls(model: model, threads: threads,
                                                         variables: variables ?? ResourceVariables(limits: model.resourceLimits),
                                                         fusesMultiplyAdd: fusesMultiplyAdd))
    }

    /// Number of inputs.
    public var inputCount: Int { inputs.count }
    /// Number of outputs.
    public var outputCount: Int { outputs.count }
    /// Bytes of this runner's arena after allocation.
    public var arenaByteCount: Int { (try? access.run { executor.arenaByteCount }) ?? 0 }

    /// Changes the shape of input `name`; allocate again before the next use.
    public func resizeInput(named name: String, toShape shape: Tensor.Shape) throws {
        try access.run { try executor.resize(tensorIndex: inputTensor(name), to: shape.dimensions) }
    }

    /// Prepares the operators and plans memory (cheap when nothing changed).
    public func allocateTensors() throws {
        try access.run { if !executor.isPrepared { try executor.prepare() } }
    }

    /// Copies `data` into input `name`; the byte count must match.
    public func copy(_ data: Data, toInputNamed name: String) throws {
        try access.run { try executor.copy(data, into: inputTensor(name)) }
    }

    /// Copies each named input, allocating first if needed, then runs the signature.
    public func invoke(with inputs: [String: Data] = [:]) throws {
        try access.run {
            if !executor.isPrepared { try executor.prepare() }
            for (name, data) in inputs { try executor.copy(data, into: inputTensor(name)) }
            try executor.invoke()
        }
    }

    /// Input `name`.
    public func input(named name: String) throws -> Tensor {
        try access.run { try executor.snapshot(of: inputTensor(name)) }
    }

    /// Output `name` (after the last invoke).
    public func output(named name: String) throws -> Tensor {
        try access.run { try executor.snapshot(of: outputTensor(name)) }
    }

    /// Calls `body` with the memory of input `name` to fill it in place.
    public func withUnsafeMutableInputBytes<R>(named name: String,
                                               _ body: (UnsafeMutableRawBufferPointer) throws -> R) throws -> R {
        try access.run { try executor.withMutableBytes(of: inputTensor(name), body) }
    }

    /// Calls `body` with the memory of output `name`.
    public func withUnsafeOutputBytes<R>(named name: String, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        try access.run { try executor.withBytes(of: outputTensor(name), body) }
    }

    private func inputTensor(_ name: String) throws -> Int {
        guard let index = inputTensors[name] else {
            throw InterpreterError.notFound("signature '\(signatureKey)' has no input '\(name)' (inputs: \(inputs.joined(separator: ", ")))")
        }
        return index
    }

    private func outputTensor(_ name: String) throws -> Int {
        guard let index = outputTensors[name] else {
            throw InterpreterError.notFound("signature '\(signatureKey)' has no output '\(name)' (outputs: \(outputs.joined(separator: ", ")))")
        }
        return index
    }
}
