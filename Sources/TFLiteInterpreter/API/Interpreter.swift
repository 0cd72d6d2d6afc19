import Foundation
import TFLiteSchema

/// Runs a TensorFlow Lite model. The API follows TensorFlowLiteSwift's `Interpreter`, so code
/// written against it ports by changing the import:
///
/// ```swift
/// let interpreter = try Interpreter(modelPath: path)
/// try interpreter.allocateTensors()
/// try interpreter.copy(inputData, toInputAt: 0)
/// try interpreter.invoke()
/// let output = try interpreter.output(at: 0)
/// ```
///
/// **Threading.** An interpreter is used from one thread at a time (it may move between
/// threads). Overlapping calls from two threads are detected and the later one throws
/// ``InterpreterError/concurrentUse`` instead of corrupting state. To run one model on
/// several threads, share a ``Model`` and create one interpreter per thread.
/// Kernels split their work over ``Options/threadCount`` persistent worker threads.
public final class Interpreter: @unchecked Sendable {
    /// The loaded model (shareable with other interpreters).
    public let model: Model
    /// The options this interpreter was created with.
    public let options: Options
    private let threads: ThreadPool
    private let executor: SubgraphExecutor
    private let access = ExclusiveAccess()
    private var signatureRunners: [String: SignatureRunner] = [:]
    /// Resource variables and CALL_ONCE state, shared with the signature runners.
    private let variables: ResourceVariables

    /// Loads the model at `modelPath`.
    /// - Throws: ``InterpreterError/invalidModel(_:)`` or ``InterpreterError/unsupportedOperator(name:)``.
    public convenience init(modelPath: String, options: Options? = nil) throws {
        try self.init(model: Model(path: modelPath, limits: options?.resourceLimits ?? .default), options: options)
    }

    /// Loads the model at `modelPath`, as TensorFlowLiteSwift's initializer of the same shape
    /// does, so ported code compiles unchanged.
    ///
    /// - Parameters:
    ///   - modelPath: the `.tflite` file.
    ///   - options: thread count and limits; nil means the defaults.
    ///   - delegates: **ignored** (see ``Delegate``): every operator runs on this engine's CPU
    ///     kernels, and the results are those of ``init(modelPath:options:)``.
    /// - Throws: ``InterpreterError/invalidModel(_:)`` or ``InterpreterError/unsupportedOperator(name:)``.
    public convenience init(modelPath: String, options: Options? = nil, delegates: [any Delegate]?) throws {
        try self.init(modelPath: modelPath, options: options)
    }

    /// Loads a model from the bytes of a `.tflite` file.
    public convenience init(modelData: Data, options: Options? = nil) throws {
        try self.init(model: Model(data: modelData, limits: options?.resourceLimits ?? .default), options: options)
    }

    /// Creates an interpreter for an already loaded (possibly shared) model.
    public init(model: Model, options: Options? = nil) throws {
        let options = options ?? Options()
        if let count = options.threadCount, count < 1 {
            throw InterpreterError.invalidArgument("threadCount must be at least 1, got \(count)")
        }
        self.model = model
        self.options = options
        threads = ThreadPool(threadCount: options.threadCount ?? ThreadPool.defaultThreadCount)
        variables = ResourceVariables(limits: options.resourceLimits)
        let fusesMultiplyAdd = options.floatArithmetic.fusesMultiplyAdd(for: model)
        executor = SubgraphExecutor(blueprint: model.subgraphs[0], threads: threads,
                                    budget: MemoryBudget(limits: options.resourceLimits,
                                                         alreadyUsed: model.derivedConstantByteCount),
                                    fusesMultiplyAdd: fusesMultiplyAdd,
                                    calls: SubgraphCalls(model: model, threads: threads, variables: variables,
                                                         fusesMultiplyAdd: fusesMultiplyAdd))
        executor.isProfiling = options.isProfilingEnabled
        let tensorCount = model.subgraphs[0].description.tensors.count
        if let bad = options.preservedTensorIndices.first(where: { !(0..<tensorCount).contains($0) }) {
            throw InterpreterError.invalidTensorIndex(index: bad, count: tensorCount)
        }
        executor.preservedIndices = options.preservedTensorIndices
    }

    // MARK: Graph shape

    /// Number of graph inputs.
    public var inputTensorCount: Int { executor.inputIndices.count }
    /// Number of graph outputs.
    public var outputTensorCount: Int { executor.outputIndices.count }
    /// Names of the graph inputs, in order.
    public var inputNames: [String] { executor.inputIndices.map { executor.tensors[$0].name } }
    /// Names of the graph outputs, in order.
    public var outputNames: [String] { executor.outputIndices.map { executor.tensors[$0].name } }
    /// Bytes of the activation arena after ``allocateTensors()`` (0 before).
    public var arenaByteCount: Int { (try? access.run { executor.arenaByteCount }) ?? 0 }
    /// The arena and the lower bound it is measured against, after ``allocateTensors()``
    /// (zeros before); see ``ArenaUsage``.
    public var arenaUsage: ArenaUsage {
        (try? access.run {
            ArenaUsage(arenaByteCount: executor.arenaByteCount, peakLiveByteCount: executor.peakLiveByteCount)
        }) ?? ArenaUsage(arenaByteCount: 0, peakLiveByteCount: 0)
    }
    /// Number of operators that run at invoke: the model's, minus those evaluated once at load
    /// (constant inputs) or at allocation (shape-only values). Known after ``allocateTensors()``.
    public var operatorCount: Int { (try? access.run { executor.runOrder.count }) ?? 0 }

    // MARK: Lifecycle

    /// Prepares every operator and plans memory. Call after creating the interpreter and
    /// after ``resizeInput(at:to:)``. Cheap when nothing changed.
    public func allocateTensors() throws {
        try access.run { if !executor.isPrepared { try executor.prepare() } }
    }

    /// Changes the shape of input `index`; call ``allocateTensors()`` before the next use.
    public func resizeInput(at index: Int, to shape: Tensor.Shape) throws {
        try access.run {
            try executor.resize(tensorIndex: inputTensorIndex(index), to: shape.dimensions)
        }
    }

    /// Runs the model once on the current inputs.
    public func invoke() throws {
        try access.run { try executor.invoke() }
    }

    // MARK: Tensors

    /// Graph input `index`.
    public func input(at index: Int) throws -> Tensor {
        try access.run { try executor.snapshot(of: inputTensorIndex(index)) }
    }

    /// The current shape of input `index` (the model's, or the last resize); works before
    /// ``allocateTensors()``.
    public func inputShape(at index: Int) throws -> Tensor.Shape {
        try access.run { Tensor.Shape(executor.tensors[try inputTensorIndex(index)].shape) }
    }

    /// The element type of input `index`, without copying its values (``input(at:)`` copies
    /// them); works before ``allocateTensors()``.
    /// - Throws: ``InterpreterError/invalidTensorDataType(expected:got:)`` for a type that
    ///   ``Tensor`` does not represent.
    public func inputDataType(at index: Int) throws -> Tensor.DataType {
        try access.run { try SubgraphExecutor.dataType(of: executor.tensors[try inputTensorIndex(index)]) }
    }

    /// The current shape of output `index` (as the last ``allocateTensors()`` or ``invoke()``
    /// left it), without copying its values (``output(at:)`` copies them).
    public func outputShape(at index: Int) throws -> Tensor.Shape {
        try access.run { Tensor.Shape(executor.tensors[try outputTensorIndex(index)].shape) }
    }

    /// Graph output `index` (its values after the last ``invoke()``).
    public func output(at index: Int) throws -> Tensor {
        try access.run { try executor.snapshot(of: outputTensorIndex(index)) }
    }

    /// The type and current shape of output `index` (no copy of its data).
    func outputTypeAndShape(at index: Int) throws -> (Tensor.DataType, [Int]) {
        try access.run {
            let tensor = executor.tensors[try outputTensorIndex(index)]
            guard let type = Tensor.DataType(tensor.type) else {
                throw InterpreterError.invalidTensorDataType(expected: "a numeric or bool type", got: "\(tensor.type)")
            }
            return (type, tensor.shape)
        }
    }

    /// Tensor `tensorIndex` of the main subgraph (its values after the last ``invoke()``), for a
    /// tensor listed in ``Options/preservedTensorIndices``; other intermediate tensors share
    /// memory with later ones and are not readable.
    /// - Throws: ``InterpreterError/notFound(_:)`` for a tensor that is not preserved.
    public func preservedTensor(at tensorIndex: Int) throws -> Tensor {
        try access.run {
            guard executor.preservedIndices.contains(tensorIndex) else {
                throw InterpreterError.notFound("tensor \(tensorIndex) is not in Options.preservedTensorIndices")
            }
            return try executor.snapshot(of: tensorIndex)
        }
    }

    /// The graph input named `name`.
    public func input(named name: String) throws -> Tensor {
        try input(at: inputIndex(named: name))
    }

    /// The graph output named `name`.
    public func output(named name: String) throws -> Tensor {
        try output(at: outputIndex(named: name))
    }

    /// The position of the graph input named `name`.
    public func inputIndex(named name: String) throws -> Int {
        guard let index = inputNames.firstIndex(of: name) else {
            throw InterpreterError.notFound("no input named '\(name)' (inputs: \(inputNames.joined(separator: ", ")))")
        }
        return index
    }

    /// The position of the graph output named `name`.
    public func outputIndex(named name: String) throws -> Int {
        guard let index = outputNames.firstIndex(of: name) else {
            throw InterpreterError.notFound("no output named '\(name)' (outputs: \(outputNames.joined(separator: ", ")))")
        }
        return index
    }

    /// Copies `data` into input `index`. The byte count must equal the tensor's.
    /// Returns the input tensor, as TensorFlowLiteSwift does; its `data` shares `data`'s
    /// storage (no second copy).
    @discardableResult
    public func copy(_ data: Data, toInputAt index: Int) throws -> Tensor {
        try access.run {
            let tensorIndex = try inputTensorIndex(index)
            try executor.copy(data, into: tensorIndex)
            return try executor.snapshot(of: tensorIndex, holding: data)
        }
    }

    /// Copies `data` into the input named `name`.
    public func copy(_ data: Data, toInputNamed name: String) throws {
        let index = try inputIndex(named: name)
        try access.run { try executor.copy(data, into: inputTensorIndex(index)) }
    }

    /// Calls `body` with the memory of input `index` to fill it in place (zero copy).
    /// The pointer is valid only inside `body`; don't call the interpreter from `body`.
    public func withUnsafeMutableInputBytes<R>(at index: Int,
                                               _ body: (UnsafeMutableRawBufferPointer) throws -> R) throws -> R {
        try access.run { try executor.withMutableBytes(of: inputTensorIndex(index), body) }
    }

    /// Calls `body` with the memory of input `index` (zero copy, read-only).
    public func withUnsafeInputBytes<R>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        try access.run { try executor.withBytes(of: inputTensorIndex(index), body) }
    }

    /// Calls `body` with the memory of output `index` (zero copy, read-only).
    /// The pointer is valid only inside `body`; don't call the interpreter from `body`.
    public func withUnsafeOutputBytes<R>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        try access.run { try executor.withBytes(of: outputTensorIndex(index), body) }
    }

    // MARK: Profiling

    /// Time per operator accumulated over the invokes since creation or
    /// ``resetOperatorProfile()``, in execution order; empty unless
    /// ``Options/isProfilingEnabled``.
    public var operatorProfile: [OperatorProfile] {
        guard options.isProfilingEnabled, let profile = try? access.run({ () -> [OperatorProfile] in
            executor.runOrder.map { k in
                let node = executor.nodes[k], context = node.context
                return OperatorProfile(position: node.position, name: context.code.displayName,
                                       outputShape: context.outputs.first?.shape ?? [],
                                       invocations: executor.profiledInvocations,
                                       totalNanoseconds: executor.nodeNanoseconds[k])
            }
        }) else { return [] }
        return profile
    }

    /// Clears ``operatorProfile``.
    public func resetOperatorProfile() throws {
        try access.run { executor.resetProfile() }
    }

    // MARK: Signatures

    /// Keys of the model's signatures, e.g. `["serving_default"]`.
    public var signatureKeys: [String] { model.file.signatures.map(\.key) }

    /// The runner of the signature `key` (one per key per interpreter, with its own memory).
    public func signatureRunner(with key: String) throws -> SignatureRunner {
        try access.run {
            if let runner = signatureRunners[key] { return runner }
            guard let signature = model.file.signatures.first(where: { $0.key == key }) else {
                throw InterpreterError.notFound("no signature '\(key)' (keys: \(signatureKeys.joined(separator: ", ")))")
            }
            let runner = try SignatureRunner(model: model, signature: signature, threads: threads,
                                             fusesMultiplyAdd: options.floatArithmetic.fusesMultiplyAdd(for: model),
                                             variables: variables)
            signatureRunners[key] = runner
            return runner
        }
    }

    // MARK: Helpers

    private func inputTensorIndex(_ index: Int) throws -> Int {
        guard executor.inputIndices.indices.contains(index) else {
            throw InterpreterError.invalidTensorIndex(index: index, count: inputTensorCount)
        }
        return executor.inputIndices[index]
    }

    private func outputTensorIndex(_ index: Int) throws -> Int {
        guard executor.outputIndices.indices.contains(index) else {
            throw InterpreterError.invalidTensorIndex(index: index, count: outputTensorCount)
        }
        return executor.outputIndices[index]
    }
}
