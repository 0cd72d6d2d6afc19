import Foundation
import TFLiteSchema

/// One executable instance of a subgraph: its run-time tensors, one kernel per live operator,
/// the arena, and the prepare → plan → invoke cycle.
///
/// - `prepare()` calls every kernel's `prepare` in order (output shapes, types, quantization,
///   packed weights), then places every non-constant tensor in one arena planned from
///   tensor lifetimes. Graph inputs and outputs are live for the whole run, so they stay
///   valid between invokes.
/// - `invoke()` calls every kernel's `invoke`; it allocates nothing.
/// Not thread-safe: the owner (``Interpreter`` or ``SignatureRunner``) serialises access.
final class SubgraphExecutor {
    /// One node: its kernel and the tensors it sees.
    struct Node {
        /// Operator position in the subgraph.
        let position: Int
        /// The kernel instance (owns prepared state).
        let kernel: any OperatorKernel
        /// Tensors, options and threads of the node.
        let context: NodeContext
    }

    /// The shared, load-time part.
    let blueprint: SubgraphBlueprint
    /// All tensors of the subgraph, by index.
    let tensors: [RuntimeTensor]
    /// Live nodes in execution order.
    let nodes: [Node]
    /// Graph input tensor indices.
    var inputIndices: [Int] { blueprint.description.inputs }
    /// Graph output tensor indices.
    var outputIndices: [Int] { blueprint.description.outputs }
    /// True after a successful `prepare()` with no resize since.
    private(set) var isPrepared = false
    /// Bytes of the arena the last plan needs.
    private(set) var arenaByteCount = 0
    /// The arena (grows, never shrinks).
    private var arena: AlignedBuffer?
    /// Persistent storage of variable tensors, by tensor index.
    private var variableStorage: [Int: AlignedBuffer] = [:]
    /// When true, `invoke()` accumulates per-node wall time in `nodeNanoseconds`.
    var isProfiling = false
    /// Accumulated nanoseconds per node (same order as `nodes`).
    private(set) var nodeNanoseconds: [UInt64]
    /// Number of profiled invokes since the last reset.
    private(set) var profiledInvocations = 0

    /// Creates kernels for the live operators of `blueprint`, splitting work over `threads`.
    init(blueprint: SubgraphBlueprint, threads: ThreadPool) {
        self.blueprint = blueprint
        let tensors = blueprint.makeRuntimeTensors()
        self.tensors = tensors
        let operators = blueprint.description.operators
        nodes = blueprint.liveOperators.map { position in
            let op = operators[position]
            // The model resolved every used operator code before building blueprints.
            let factory = blueprint.factories[op.opcodeIndex]!
            return Node(position: position, kernel: factory(),
                        context: SubgraphBlueprint.makeContext(op, codes: blueprint.codes, tensors: tensors,
                                                               threads: threads))
        }
        nodeNanoseconds = [UInt64](repeating: 0, count: nodes.count)
    }

    /// Clears the accumulated profile.
    func resetProfile() {
        for i in nodeNanoseconds.indices { nodeNanoseconds[i] = 0 }
        profiledInvocations = 0
    }

    /// Sets the shape of graph input `tensorIndex`; the next `prepare()` re-plans.
    func resize(tensorIndex: Int, to shape: [Int]) throws {
        let tensor = tensors[tensorIndex]
        guard TensorLayout.byteCount(shape, tensor.type) != nil else {
            throw InterpreterError.invalidShape("\(shape) for input '\(tensor.name)' (\(tensor.type))")
        }
        guard !tensor.isConstant else {
            throw InterpreterError.invalidShape("input '\(tensor.name)' is constant and cannot be resized")
        }
        if tensor.shape != shape {
            tensor.shape = shape
            isPrepared = false
        }
    }

    /// Prepares every node and plans the arena.
    func prepare() throws {
        isPrepared = false
        for node in nodes {
            try KernelErrors.preparing(node.context.code.displayName) { try node.kernel.prepare(node.context) }
        }
        try planMemory()
        isPrepared = true
    }

    /// Runs every node once. Requires `prepare()`.
    func invoke() throws {
        guard isPrepared else { throw InterpreterError.allocateTensorsRequired }
        if isProfiling {
            for (k, node) in nodes.enumerated() {
                let start = DispatchTime.now().uptimeNanoseconds
                try KernelErrors.invoking(node.context.code.displayName) { try node.kernel.invoke(node.context) }
                nodeNanoseconds[k] &+= DispatchTime.now().uptimeNanoseconds &- start
            }
            profiledInvocations += 1
            return
        }
        for node in nodes {
            try KernelErrors.invoking(node.context.code.displayName) { try node.kernel.invoke(node.context) }
        }
    }

    /// Lifetime of every arena tensor in steps (node positions in `nodes`).
    /// Graph inputs and outputs span the whole run.
    func arenaRequests() throws -> (tensorIndices: [Int], requests: [ArenaPlanner.Request]) {
        let lastStep = max(0, nodes.count - 1)
        var first: [Int: Int] = [:], last: [Int: Int] = [:]
        func use(_ index: Int, at step: Int) {
            let t = tensors[index]
            guard !t.isConstant, !blueprint.description.tensors[index].isVariable else { return }
            first[index] = min(first[index] ?? step, step)
            last[index] = max(last[index] ?? step, step)
        }
        var produced = Set<Int>(inputIndices)
        for index in inputIndices { use(index, at: 0); use(index, at: lastStep) }
        for (step, node) in nodes.enumerated() {
            for input in node.context.inputs { if let input { use(input.index, at: step) } }
            for output in node.context.outputs { use(output.index, at: step); produced.insert(output.index) }
        }
        for index in outputIndices { use(index, at: lastStep) }
        // Tensors nobody writes (malformed but harmless) are kept for the whole run.
        for index in first.keys where !produced.contains(index) { first[index] = 0; last[index] = lastStep }
        let indices = first.keys.sorted()
        var requests: [ArenaPlanner.Request] = []
        for index in indices {
            let t = tensors[index]
            guard let bytes = TensorLayout.byteCount(t.shape, t.type) else {
                throw InterpreterError.invalidModel("tensor '\(t.name)' has no fixed size (\(t.type) \(t.shape))")
            }
            requests.append(ArenaPlanner.Request(byteCount: bytes, firstUse: first[index]!, lastUse: last[index]!))
        }
        return (indices, requests)
    }

    /// Plans the arena and points every non-constant tensor into it.
    private func planMemory() throws {
        let (indices, requests) = try arenaRequests()
        let plan = ArenaPlanner.plan(requests)
        if arena == nil || arena!.byteCount < plan.arenaByteCount {
            arena = AlignedBuffer(byteCount: plan.arenaByteCount)
        }
        let base = arena!.pointer
        for (k, index) in indices.enumerated() { tensors[index].data = base + plan.offsets[k] }
        arenaByteCount = plan.arenaByteCount
        for (index, t) in blueprint.description.tensors.enumerated() where t.isVariable {
            let tensor = tensors[index]
            guard let bytes = TensorLayout.byteCount(tensor.shape, tensor.type) else {
                throw InterpreterError.invalidModel("variable tensor '\(tensor.name)' has no fixed size")
            }
            if variableStorage[index]?.byteCount != bytes { variableStorage[index] = AlignedBuffer(byteCount: bytes) }
            tensor.data = variableStorage[index]!.pointer
        }
    }
}
