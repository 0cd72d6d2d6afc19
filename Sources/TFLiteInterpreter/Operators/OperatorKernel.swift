// CONTRACT between the interpreter core and the operator families. Change only in agreement.
import TFLiteSchema

/// Run-time state of one tensor of the executing subgraph.
final class RuntimeTensor {
    /// Index in the subgraph's tensor table.
    let index: Int
    /// Tensor name from the model.
    let name: String
    /// Element type (an operator's `prepare` may set it on its outputs).
    var type: TensorType
    /// Current shape (`prepare` sets it on outputs).
    var shape: [Int]
    /// Quantization parameters (from the model; `prepare` may set them on outputs that lack them).
    var quantization: Quantization?
    /// Sparse storage description of a constant, if any.
    let sparsity: Sparsity?
    /// True for tensors backed by a model buffer, and for outputs folded at prepare time.
    var isConstant: Bool
    /// Start of the tensor's bytes; nil until the planner or the constant loader sets it.
    /// Constant data is read-only even though the pointer is mutable.
    var data: UnsafeMutableRawPointer?
    /// Bytes of data behind a constant (model buffer or folded output); nil for other tensors.
    /// Kernels reading a constant by its own metadata (sparse DENSIFY) check against it.
    var constantByteCount: Int?
    /// Weights the model file keeps until a prepare needs them (``NodeContext/preparing(with:_:readsRawWeights:)``):
    /// `data` is their place in the model's memory, zeros until they are read there.
    var deferred: DeferredWeights?
    /// Float32 weights a DEQUANTIZE of float16 constants would have folded, converted when a
    /// prepare needs them (``DeferredDequantization``): `data` is their home, zeros until
    /// materialized.
    var dequantization: DeferredDequantization?
    /// While a prepare reads deferred weights from a scratch copy (`data` points there): their
    /// place in the model's memory, which identifies them as the model's constant.
    var deferredHome: UnsafeMutableRawPointer?

    init(index: Int, name: String, type: TensorType, shape: [Int], quantization: Quantization?,
         sparsity: Sparsity?, isConstant: Bool) {
        self.index = index; self.name = name; self.type = type; self.shape = shape
        self.quantization = quantization; self.sparsity = sparsity; self.isConstant = isConstant
    }

    /// Number of elements (1 for a scalar).
    var elementCount: Int { shape.reduce(1, *) }
    /// Bytes the tensor occupies.
    var byteCount: Int { elementCount * (type.byteSize ?? 0) }

    /// The data as a typed pointer. Precondition: allocated, and `T` stores `type`, with
    /// ``byteCount`` aligned bytes (``TensorViewCheck/violation(_:_:as:)``); checked under
    /// `LITEVISION_INTERNAL_CHECKS`. Prefer ``view(as:_:)``, which throws for a missing allocation.
    func pointer<T>(as: T.Type) -> UnsafeMutablePointer<T> {
        #if LITEVISION_INTERNAL_CHECKS
        guard let checked = data else { preconditionFailure("tensor '\(name)' has no data") }
        if let problem = TensorViewCheck.violation(self, checked, as: T.self) { preconditionFailure(problem) }
        #endif
        return data!.assumingMemoryBound(to: T.self)
    }
    /// Per-tensor scale (first scale); 0 when unquantized.
    var scale: Float { quantization?.scales.first ?? 0 }
    /// Per-tensor zero point (first zero point); 0 when unquantized.
    var zeroPoint: Int32 { Int32(truncatingIfNeeded: quantization?.zeroPoints.first ?? 0) }
}

/// What an operator sees of its node: tensors, options and the thread pool.
struct NodeContext {
    /// The operator code (builtin or custom name, version).
    let code: OperatorCode
    /// Inputs in order; nil where the model omitted an optional input (index -1).
    let inputs: [RuntimeTensor?]
    /// Outputs in order.
    let outputs: [RuntimeTensor]
    /// `builtin_options` table, nil when absent.
    let options: OptionsTable?
    /// `custom_options` FlexBuffer bytes.
    let customOptions: [UInt8]
    /// Worker threads for kernels that split work.
    let threads: ThreadPool
    /// Where kernel scratch is counted (nil: uncounted, for kernels run outside an interpreter).
    var memory: SharedMemoryBudget? = nil
    /// Whether float convolution kernels may round each multiply-add once (see `FloatArithmetic`);
    /// false: the reference's separate roundings.
    var fusesMultiplyAdd = false
    /// Where packed weights are shared with the other interpreters of the model (nil: not shared,
    /// for kernels run outside an interpreter or at load).
    var packedWeights: PackedWeightSlot? = nil
    /// Where the scratch this node's kernel requests at prepare is recorded for placement (nil:
    /// kernels run outside an interpreter, whose scratch gets memory of its own at once).
    var scratch: NodeScratch? = nil
    /// Memory the subgraph's prepares read deferred weights into (``WeightScratch``).
    var weightScratch: WeightScratch? = nil

    /// Reserves `bytes` of scratch that this node's kernel is about to allocate, against the
    /// interpreter's total budget; call it before allocating, on every `prepare`.
    /// - Throws: ``InterpreterError/resourceLimitExceeded(_:)`` naming the operator and `what`.
    func reserveScratch(_ bytes: Int, _ what: @autoclosure () -> String) throws {
        try memory?.reserve(bytes, "\(code.displayName): scratch for \(what())")
    }

    /// Requests `count` elements of `Element` scratch that only this node's invoke uses, 64-byte
    /// aligned; call it in `prepare`, on every prepare. In an interpreter the arena planner places
    /// it with the lifetime of this node's step (counted in the arena, so not reserved here), so
    /// its contents do not survive from one invoke to the next (see ``ScratchSlot``). Outside
    /// one (``scratch`` nil) it gets memory of its own now, reserved in ``memory`` first.
    /// - Throws: ``InterpreterError/resourceLimitExceeded(_:)`` naming the operator and `what`
    ///   when the size is above what the interpreter allocates at once, or the budget is exceeded.
    func requestScratch<Element>(_ type: Element.Type, count: Int, _ what: @autoclosure () -> String) throws
        -> ScratchArray<Element> {
        let bytes = SharedMemoryBudget.bytes(count, MemoryLayout<Element>.stride)
        guard bytes <= AlignedBuffer.maximumByteCount else {
            throw InterpreterError.resourceLimitExceeded(
                "\(code.displayName): scratch for \(what()) needs \(bytes) bytes, more than the "
                + "\(AlignedBuffer.maximumByteCount >> 30) GiB the interpreter allocates at once")
        }
        let slot = ScratchSlot(byteCount: bytes)
        if let scratch {
            scratch.add(slot)
        } else {
            try reserveScratch(bytes, what())
            try slot.allocateOwn()
        }
        return ScratchArray(slot: slot, count: max(0, count))
    }

    /// Requests `bytesPerThread` bytes of per-thread kernel workspace for this node's invoke
    /// (what the kernels it calls state in their `workspaceBytes` functions; see
    /// ``ThreadWorkspaceSlot`` and `KernelWorkspace`); call it in `prepare`, on every prepare. At
    /// invoke, a chunk run by pool thread `worker` passes `slot.workspace(worker)` to its kernel.
    /// In an interpreter every node's request shares one block per thread of the arena, as
    /// large as the largest request, live for the whole run (counted in the arena, so not
    /// reserved here). Outside one (``scratch`` nil) it gets memory of its own now, reserved in
    /// ``memory`` first. A node's requests all return the same slot, raised to the largest.
    /// - Throws: ``InterpreterError/resourceLimitExceeded(_:)`` naming the operator and `what`
    ///   when the size is above what the interpreter allocates at once, or the budget is exceeded.
    func requestWorkspace(bytesPerThread: Int, _ what: @autoclosure () -> String) throws -> ThreadWorkspaceSlot {
        let threadCount = threads.threadCount
        guard SharedMemoryBudget.bytes(threadCount, bytesPerThread) <= AlignedBuffer.maximumByteCount else {
            throw InterpreterError.resourceLimitExceeded(
                "\(code.displayName): workspace for \(what()) needs \(bytesPerThread) bytes per thread, more than the "
                + "\(AlignedBuffer.maximumByteCount >> 30) GiB the interpreter allocates at once")
        }
        if let scratch { return scratch.requireWorkspace(bytesPerThread, threadCount: threadCount) }
        let slot = ThreadWorkspaceSlot(threadCount: threadCount)
        slot.require(bytesPerThread)
        try reserveScratch(slot.ownByteCount, what())
        try slot.allocateOwn()
        return slot
    }

    /// The node's builtin options as `type` (e.g. `try node.options(Conv2DOptions.self)`):
    /// the union's type code checked, absent fields (or absent options) at the schema's defaults.
    /// - Throws: ``InterpreterError/invalidModel(_:)`` carrying the ``TFLiteSchemaError``'s
    ///   message (wrong union member, unknown enum code).
    func options<Options: BuiltinOptionsDecodable>(_ type: Options.Type) throws -> Options {
        do { return try Options(options, operator: code.displayName) } catch let error as TFLiteSchemaError {
            throw InterpreterError.invalidModel(error.description)
        }
    }

    /// Input `i`, or `InterpreterError.invalidModel` when it is missing.
    func input(_ i: Int) throws -> RuntimeTensor {
        guard i < inputs.count, let t = inputs[i] else {
            throw InterpreterError.invalidModel("\(code.displayName): missing input \(i)")
        }
        return t
    }
    /// Output `i`, or `InterpreterError.invalidModel` when it is missing.
    func output(_ i: Int) throws -> RuntimeTensor {
        guard i < outputs.count else {
            throw InterpreterError.invalidModel("\(code.displayName): missing output \(i)")
        }
        return outputs[i]
    }
}

/// One operator instance in a graph (one per node; may hold prepared state).
///
/// `prepare` checks types, reads options, sets the outputs' shape, type and quantization,
/// and computes everything that depends only on shapes, quantization and constant data
/// (padding, multipliers and shifts, packed weights, scratch buffers). It is called after
/// load and again after any input resize, and may allocate.
/// `invoke` computes the outputs and must not allocate. Scratch used only during the node's own
/// invoke (GEMM activation copies, quantized hybrid rows) is requested at prepare with
/// `NodeContext.requestScratch` and placed in the arena by the planner; memory a kernel keeps
/// across invokes (packed weights, accumulators it owns) is reserved with
/// `NodeContext.reserveScratch` before it is allocated. Both count against
/// `ResourceLimits.maximumTotalByteCount`.
///
/// Memory: the planner may give output 0 of RESHAPE, SQUEEZE and EXPAND_DIMS the same bytes as
/// input 0 (see `SubgraphExecutor.forwardsInput0`); their `invoke` must skip the copy when
/// `input.data == output.data`. Kernels whose inputs are all constant run once, at load.
///
/// Optimized kernels drop in without touching the interpreter: a family's factory returns one
/// kernel object per node, and that object's `prepare` chooses the implementation (reference or
/// optimized, packed weights) for the node's types and shapes; `invoke` dispatches to it.
protocol OperatorKernel: AnyObject {
    /// Validates and precomputes; sets output shapes and types.
    func prepare(_ node: NodeContext) throws
    /// Computes the outputs.
    func invoke(_ node: NodeContext) throws
    /// The parts the kernel plays in the executor's passes (default: none; see ``KernelRoles``).
    var roles: KernelRoles { get }
}

/// Creates a fresh kernel instance for one node.
typealias OperatorFactory = @Sendable () -> any OperatorKernel
