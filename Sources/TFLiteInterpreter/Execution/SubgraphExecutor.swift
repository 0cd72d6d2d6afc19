import Foundation
import TFLiteSchema

/// One executable instance of a subgraph: its run-time tensors, one kernel per live operator,
/// the arena, and the prepare → plan → invoke cycle.
///
/// - `prepare()` calls every kernel's `prepare` in order (output shapes, types, quantization,
///   packed weights, scratch requests), then places every non-constant tensor, the scratch
///   each running node requested (live only at that node's step), and one kernel workspace
///   block per pool thread that every node shares (live for the whole run, as large as the
///   largest request: ``ThreadWorkspaceSlot``), in one arena planned from their lifetimes.
///   Graph inputs and outputs are live for the whole run, so they stay valid between invokes.
/// - `invoke()` calls every kernel's `invoke`; it allocates nothing. 8-bit `x · f(x)` pairs
///   (YOLO's SiLU: LOGISTIC then MUL) run as one byte table (`ByteMapFusion`), bit-exact, which
///   an 8-bit convolution producing `x` applies as it writes it (`OutputByteMapFusion`); a
///   float SiLU's MUL in its LOGISTIC's pass (`SiLUFusion`); a float RELU after the node it
///   clamps (`ClampFusion`) and a float ADD after the convolution
///   producing one operand (`ResidualAddFusion`) run inside that node's pass; an 8-bit PAD
///   read only by a convolution is applied by that convolution as explicit padding
///   (`PadFusion`), the padded tensor never written.
/// - Shapes known only at invoke: a node whose kernel reports invoke-time shapes
///   (``HostedKernel/hasInvokeTimeShapes(_:)``: WHERE on a computed input, IF or WHILE over
///   subgraphs whose shapes change) makes its outputs, and everything computed from them,
///   "dynamic". Those nodes are never evaluated at prepare nor fused; at invoke each is
///   re-prepared only when its input shapes differ from those it was last prepared with, and an
///   output that outgrows its arena slot moves to a buffer of its own, kept and reused by later
///   invokes. Graphs without such nodes invoke exactly as before and allocate nothing.
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
    /// Memory the nodes' prepares read deferred model weights into (``WeightScratch``).
    private let weightScratch = WeightScratch()
    /// Graph input tensor indices.
    var inputIndices: [Int] { blueprint.description.inputs }
    /// Graph output tensor indices.
    var outputIndices: [Int] { blueprint.description.outputs }
    /// Intermediate tensors kept live for the whole run and never fused away, like graph
    /// outputs, so their values can be read after `invoke()`. Set before `prepare()`.
    var preservedIndices: Set<Int> = [] { didSet { isPrepared = false } }
    /// Graph outputs and preserved tensors: what `invoke()` must leave readable.
    private var keptIndices: Set<Int> { Set(outputIndices).union(preservedIndices) }
    /// True after a successful `prepare()` with no resize since.
    private(set) var isPrepared = false
    /// Bytes of the arena the last plan needs.
    private(set) var arenaByteCount = 0
    /// Most arena bytes live at one step of the last plan (`ArenaPlanner.peakLiveByteCount`).
    private(set) var peakLiveByteCount = 0
    /// The arena (grows, never shrinks).
    private var arena: AlignedBuffer?
    /// Persistent storage of variable tensors, by tensor index.
    private var variableStorage: [Int: AlignedBuffer] = [:]
    /// Positions (in `nodes`) of the nodes `invoke()` runs: all but those evaluated at prepare.
    private(set) var runOrder: [Int] = []
    /// Fused 8-bit `x · f(x)` pairs by MUL node position (`ByteMapFusion`), from the last `prepare()`.
    private(set) var fusedNodes: [ByteMapFusion?] = []
    /// The outputs of skipped table, MUL, clamp and ADD nodes by the position of the node that
    /// writes them (`OutputByteMapFusion`, `SiLUFusion`, `ClampFusion`, `ResidualAddFusion`), from the last
    /// `prepare()`: each shares that node's output memory.
    private var fusedAliases: [Int: [RuntimeTensor]] = [:]
    /// The fused ADD operand each node also reads (`ResidualAddFusion`), by node position.
    private(set) var fusedReads: [Int: RuntimeTensor] = [:]
    /// The input of the folded PAD each convolution reads instead of its input 0 (`PadFusion`),
    /// by the convolution's position, from the last `prepare()`.
    private(set) var foldedInputs: [Int: RuntimeTensor] = [:]
    /// Whether `prepare()` fuses nodes (`PadFusion`, `ByteMapFusion`, `OutputByteMapFusion`, `SiLUFusion`,
    /// `ClampFusion`, `ResidualAddFusion`);
    /// off only to check that fused and unfused runs agree.
    var fusesNodes = true
    /// Tensors made constant by the last `prepare()` (outputs of nodes evaluated there).
    private var preparedConstants: [Int] = []
    /// Memory of the tensors in `preparedConstants`.
    private var preparedStorage: [AlignedBuffer] = []
    /// When true, `invoke()` accumulates per-node wall time in `nodeNanoseconds`.
    var isProfiling = false
    /// Accumulated nanoseconds per node (same order as `nodes`).
    private(set) var nodeNanoseconds: [UInt64]
    /// Number of profiled invokes since the last reset.
    private(set) var profiledInvocations = 0

    /// The limits and the bytes the model's constants already take; each `prepare()` counts
    /// its own allocations on top of this.
    let baseBudget: MemoryBudget
    /// The budget of the current prepare pass, shared with the nodes' kernels for their scratch.
    private let memory: SharedMemoryBudget

    /// The called subgraphs and resource variables of the interpreter (nil: control flow unavailable).
    let calls: SubgraphCalls?
    /// Whether this executor runs a subgraph called by a control-flow operator (not the root).
    let isCallee: Bool
    /// Tensors whose shape may change at invoke (outputs of dynamic nodes), from the last `prepare()`.
    private var dynamicTensors: Set<Int> = []
    /// Per node: whether it is re-prepared and sized at invoke (it reads or writes a dynamic tensor).
    private var dynamicNodes: [Bool] = []
    /// Per dynamic node: the input shapes it was last prepared with.
    private var preparedInputShapes: [Int: [[Int]]] = [:]
    /// Bytes available at `data` for each dynamic tensor (its arena slot, or its own buffer).
    private var capacity: [Int: Int] = [:]
    /// Own buffers of dynamic tensors that outgrew their arena slot (kept across invokes).
    private var ownBuffers: [Int: AlignedBuffer] = [:]
    /// The budget as the last `prepare()` left it; each invoke of a dynamic graph starts from it.
    private var preparedBudget: MemoryBudget
    /// Whether some output of the graph may change shape at invoke (callers then size theirs at invoke).
    var hasInvokeTimeShapes: Bool { outputIndices.contains { dynamicTensors.contains($0) } }

    /// Creates kernels for the live operators of `blueprint`, splitting work over `threads`,
    /// allocating within `budget`; float convolutions use fused multiply-adds when `fusesMultiplyAdd`.
    /// `calls` gives control-flow operators the model's other subgraphs; `isCallee` marks an
    /// executor created by ``SubgraphCalls`` for a called subgraph.
    init(blueprint: SubgraphBlueprint, threads: ThreadPool, budget: MemoryBudget = MemoryBudget(limits: .default),
         fusesMultiplyAdd: Bool = false, calls: SubgraphCalls? = nil, isCallee: Bool = false) {
        self.blueprint = blueprint
        self.baseBudget = budget
        self.preparedBudget = budget
        self.calls = calls
        self.isCallee = isCallee
        let memory = SharedMemoryBudget(budget)
        self.memory = memory
        let tensors = blueprint.makeRuntimeTensors()
        self.tensors = tensors
        let operators = blueprint.description.operators
        let weightScratch = self.weightScratch
        nodes = blueprint.liveOperators.map { position in
            let op = operators[position]
            // The model resolved every used operator code before building blueprints.
            let factory = blueprint.factories[op.opcodeIndex]!
            var context = SubgraphBlueprint.makeContext(op, codes: blueprint.codes, tensors: tensors,
                                                        threads: threads, memory: memory)
            context.fusesMultiplyAdd = fusesMultiplyAdd
            context.packedWeights = PackedWeightSlot(cache: blueprint.packedWeights, position: position)
            context.weightScratch = weightScratch
            return Node(position: position, kernel: factory(), context: context)
        }
        nodeNanoseconds = [UInt64](repeating: 0, count: nodes.count)
        for node in nodes { node.kernel.roles.hosted?.attach(self) }
    }

    /// Throws when a copy of `bytes` handed out to the caller (a tensor snapshot) would take
    /// the interpreter's memory — constants, scratch and arena as reserved by the last
    /// `prepare()` — past ``ResourceLimits/maximumTotalByteCount``. The copy is the caller's and
    /// is not reserved: each copy is checked on its own against what the interpreter holds.
    func checkCopyOut(_ bytes: Int, _ subject: @autoclosure () -> String) throws {
        var budget = memory.budget
        try budget.reserve(bytes, subject())
    }

    /// Bytes the last `prepare()` (and the invoke-time shapes since) reserved in the budget:
    /// the model's constants, its shared packed weights, kernel scratch, the arena, variables.
    var reservedByteCount: Int { memory.budget.used }

    /// Overwrites every byte of the arena with `byte` (tensor values and kernel scratch alike), as
    /// other nodes' writes would: for tests that show an invoke reads nothing a previous invoke or
    /// prepare left in its scratch. Graph inputs must be written again afterwards.
    func overwriteArena(with byte: UInt8) {
        guard let arena else { return }
        arena.pointer.initializeMemory(as: UInt8.self, repeating: byte, count: arena.byteCount)
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
    ///
    /// Nodes whose values depend only on shapes and constants (`SHAPE`, and anything computed
    /// from constants and `SHAPE` outputs, e.g. the `SHAPE → STRIDED_SLICE → PACK → RESHAPE`
    /// chains of dynamic-batch exports) are evaluated right here, so later nodes see their
    /// outputs as constants; they are re-evaluated after every resize.
    func prepare() throws {
        defer {
            weightScratch.release()                     // deferred weights are read into it by the prepares only
            blueprint.packedWeights.releaseUnusedMemory()  // the rest of the last huge page packing wrote
        }
        isPrepared = false
        for index in preparedConstants { tensors[index].isConstant = false; tensors[index].data = nil }
        preparedConstants = []
        preparedStorage = []
        var order: [Int] = []
        dynamicTensors = []
        dynamicNodes = [Bool](repeating: false, count: nodes.count)
        preparedInputShapes = [:]
        capacity = [:]
        ownBuffers = [:]
        // Kernels reserve their scratch in `memory` during `prepare`; folded outputs and the arena follow.
        memory.budget = baseBudget
        // The model's packed weights, shared by its interpreters, count once, as its constants do.
        try memory.reserve(blueprint.packedWeights.byteCount, "the weights packed for the model's kernels")
        let graphInputs = Set(inputIndices)
        for index in inputIndices { _ = try TensorLayout.checkedByteCount(tensors[index], "graph input", budget: memory.budget) }
        // Folding a PAD (`PadFusion`) changes how its convolution prepares, so it is decided here,
        // from the nodes already found to run at invoke with fixed shapes (by output tensor).
        let allReaders = TensorTable.readerCounts(nodes, order: Array(nodes.indices))
        let boundary = keptIndices.union(graphInputs)
        var staticProducers = TensorTable<Int?>(count: tensors.count, fallback: nil)
        var foldedPads = Set<Int>()
        foldedInputs = [:]
        for (k, node) in nodes.enumerated() {
            let name = node.context.code.displayName
            node.context.scratch?.removeAll()
            let fold = self.fusesNodes
                ? PadFusion.fold(into: k, nodes, producers: staticProducers, readers: allReaders, kept: boundary) : nil
            node.kernel.roles.padFoldable?.padFold = fold?.fold
            try KernelErrors.preparing(name) { try node.kernel.prepare(node.context) }
            // The layer may have declined a float fold (``PadFoldable/dropInexactFloatFold(_:)``).
            if let fold, node.kernel.roles.padFoldable?.padFold != nil {
                foldedPads.insert(fold.pad)
                foldedInputs[k] = fold.fold.input
            }
            for output in node.context.outputs { _ = try TensorLayout.checkedByteCount(output, name, budget: memory.budget) }
            let inputs = node.context.inputs.compactMap { $0 }
            let hosted = node.kernel.roles.hosted
            if hosted?.hasInvokeTimeShapes(node.context) == true || inputs.contains(where: { dynamicTensors.contains($0.index) }) {
                dynamicNodes[k] = true
                preparedInputShapes[k] = node.context.inputs.map { $0?.shape ?? [] }
                for output in node.context.outputs { dynamicTensors.insert(output.index) }
                // Re-prepared at invoke, possibly with other sizes: its scratch is its own, not the arena's.
                try node.context.scratch?.allocateOwn(name) { try memory.reserve($0, $1) }
                order.append(k)
                continue
            }
            // Values that depend only on constants and shapes are computed now (control flow and
            // resource variables run at invoke, whatever their inputs).
            guard try AheadOfTimeEvaluation.evaluatesNow(node.context, graphInputs: graphInputs,
                                                         subgraph: blueprint.description,
                                                         phase: .prepare, budget: memory.budget) else {
                order.append(k)
                for output in node.context.outputs { staticProducers[output.index] = k }
                continue
            }
            preparedStorage += try AheadOfTimeEvaluation.evaluate(node.kernel, node.context, position: node.position,
                                                                  budget: memory.budget, phase: .prepare) {
                try memory.reserve($0, $1)
            }
            preparedConstants += node.context.outputs.map(\.index)
        }
        // Fusions assume fixed shapes and memory; a graph with invoke-time shapes runs unfused.
        let fusesNodes = self.fusesNodes && dynamicTensors.isEmpty
        let fusion = fusesNodes ? ByteMapFusion.find(nodes, order: order, graphOutputs: keptIndices) : (fused: [:], skipped: [])
        let maps = fusesNodes ? OutputByteMapFusion.apply(nodes, order: order, tables: fusion.fused,
                                                          graphInputs: graphInputs, kept: keptIndices)
            : OutputByteMapFusion(aliases: [:], skipped: [])
        fusedNodes = nodes.indices.map { maps.skipped.contains($0) ? nil : fusion.fused[$0] }
        for k in fusion.skipped { for output in nodes[k].context.outputs { output.data = nil } }
        let unfused = order.filter { !fusion.skipped.contains($0) && !maps.skipped.contains($0) }
        let silus = fusesNodes ? SiLUFusion.apply(nodes, order: unfused, graphInputs: graphInputs, graphOutputs: keptIndices)
            : SiLUFusion(aliases: [:], skipped: [])
        let multiplied = unfused.filter { !silus.skipped.contains($0) }
        let clamps = fusesNodes ? ClampFusion.apply(nodes, order: multiplied, graphInputs: graphInputs, graphOutputs: keptIndices)
            : ClampFusion(aliases: [:], skipped: [])
        let clamped = multiplied.filter { !clamps.skipped.contains($0) }
        // A producer has at most one alias from these three passes (8-bit tables, float clamps,
        // SiLU products: a table's producer is 8-bit, a clamp's is no LOGISTIC).
        let producerAliases = clamps.aliases.merging(maps.aliases) { clamp, _ in clamp }.merging(silus.aliases) { other, _ in other }
        let adds = fusesNodes ? ResidualAddFusion.apply(nodes, order: clamped, clampAliases: producerAliases,
                                                        graphInputs: graphInputs, graphOutputs: keptIndices)
            : ResidualAddFusion(aliases: producerAliases.mapValues { [$0] }, reads: [:], order: clamped, skipped: [])
        fusedAliases = adds.aliases
        fusedReads = adds.reads
        // Folded PADs stood in the passes above for their convolutions' reads; they run no more,
        // nor do the channel PADs whose inputs fused ADDs read in place.
        for k in foldedPads.union(adds.skipped) { for output in nodes[k].context.outputs { output.data = nil } }
        runOrder = adds.order.filter { !foldedPads.contains($0) }
        // Fusion has decided which kernels run: only theirs finish their plans (`PlanFinishingKernel`).
        for k in runOrder where fusedNodes[k] == nil {
            let node = nodes[k]
            try KernelErrors.preparing(node.context.code.displayName) { try node.kernel.roles.planFinishing?.finishPlan(node.context) }
        }
        try planMemory(budget: &memory.budget)
        preparedBudget = memory.budget
        isPrepared = true
    }

    /// Runs every node once. Requires `prepare()`.
    func invoke() throws {
        guard isPrepared else { throw InterpreterError.allocateTensorsRequired }
        if !isCallee { calls?.beginInvoke() }
        if !dynamicTensors.isEmpty { return try invokeWithDynamicShapes() }
        if isProfiling {
            for k in runOrder {
                let node = nodes[k]
                let start = DispatchTime.now().uptimeNanoseconds
                try run(node, fused: fusedNodes[k])
                nodeNanoseconds[k] &+= DispatchTime.now().uptimeNanoseconds &- start
            }
            profiledInvocations += 1
            return
        }
        for k in runOrder { try run(nodes[k], fused: fusedNodes[k]) }
    }

    /// `invoke()` for a graph with dynamic tensors: each dynamic node is re-prepared when its input
    /// shapes changed since it was last prepared, and its outputs get memory for their new shapes.
    private func invokeWithDynamicShapes() throws {
        memory.budget = preparedBudget
        for buffer in ownBuffers.values { try memory.reserve(buffer.byteCount, "tensors sized at invoke") }
        for k in runOrder {
            let node = nodes[k]
            let start = isProfiling ? DispatchTime.now().uptimeNanoseconds : 0
            if dynamicNodes[k] {
                // Compared in place: an unchanged graph allocates nothing here.
                let prepared = preparedInputShapes[k] ?? []
                var changed = prepared.count != node.context.inputs.count
                for (i, input) in node.context.inputs.enumerated() where !changed && (input?.shape ?? []) != prepared[i] {
                    changed = true
                }
                if changed {
                    let name = node.context.code.displayName
                    node.context.scratch?.removeAll()
                    try KernelErrors.preparing(name) {
                        try node.kernel.prepare(node.context)
                        try node.kernel.roles.planFinishing?.finishPlan(node.context)
                    }
                    try node.context.scratch?.allocateOwn(name) { try memory.reserve($0, $1) }
                    preparedInputShapes[k] = node.context.inputs.map { $0?.shape ?? [] }
                    for output in node.context.outputs { try ensureMemory(output) }
                }
            }
            try run(node, fused: nil)
            if isProfiling { nodeNanoseconds[k] &+= DispatchTime.now().uptimeNanoseconds &- start }
        }
        if isProfiling { profiledInvocations += 1 }
    }

    /// Points dynamic tensor `tensor` at memory for its current shape: its slot while that is
    /// large enough, else an own buffer (reused while large enough).
    private func ensureMemory(_ tensor: RuntimeTensor) throws {
        let bytes = try TensorLayout.checkedByteCount(tensor, "a tensor sized at invoke", budget: memory.budget)
        if let available = capacity[tensor.index], available >= bytes, tensor.data != nil { return }
        try memory.reserve(bytes, "tensor '\(tensor.name)' sized at invoke")
        let buffer = try AlignedBuffer(byteCount: bytes)
        ownBuffers[tensor.index] = buffer
        capacity[tensor.index] = bytes
        tensor.data = buffer.pointer
    }

    /// Runs one node: its kernel, or the fused table that replaces it.
    @inline(__always)
    private func run(_ node: Node, fused: ByteMapFusion?) throws {
        try KernelErrors.invoking(node.context.code.displayName) {
            if let fused { try fused.run(node.context.threads) } else { try node.kernel.invoke(node.context) }
        }
    }

    /// Arena requests: lifetimes in steps (node positions in `nodes`) of groups of tensors
    /// that share memory (usually one tensor; input and output of shape-only operators), then
    /// the scratch slots of the nodes that run (``ScratchSlot``), each live only at its node's
    /// step (`requests[groups.count + i]` is `scratch[i]`'s). Graph inputs and outputs span the
    /// whole run; preserved tensors from their first use on. Nodes sized at invoke keep their
    /// own scratch.
    func arenaRequests() throws -> (groups: [[Int]], requests: [ArenaPlanner.Request], scratch: [ScratchSlot]) {
        let lastStep = max(0, runOrder.count - 1)
        var first = TensorTable<Int?>(count: tensors.count, fallback: nil), last = first
        func use(_ index: Int, at step: Int) {
            let t = tensors[index]
            guard !t.isConstant, !blueprint.description.tensors[index].isVariable else { return }
            first[index] = min(first[index] ?? step, step)
            last[index] = max(last[index] ?? step, step)
        }
        var produced = TensorTable(count: tensors.count, fallback: false)
        for index in inputIndices { use(index, at: 0); use(index, at: lastStep); produced[index] = true }
        for (step, k) in runOrder.enumerated() {
            let node = nodes[k]
            // A fused node reads only the fusion's input (the skipped node's output gets no memory),
            // a convolution with a folded PAD the PAD's input in place of its input 0.
            let inputs = fusedNodes[k].map { [$0.input] }
                ?? node.context.inputs.enumerated().compactMap { i, input in i == 0 ? foldedInputs[k] ?? input : input }
            for input in inputs { use(input.index, at: step) }
            for output in node.context.outputs { use(output.index, at: step); produced[output.index] = true }
            for alias in fusedAliases[k] ?? [] { use(alias.index, at: step); produced[alias.index] = true }
            if let operand = fusedReads[k] { use(operand.index, at: step) }
        }
        for index in outputIndices { use(index, at: lastStep) }
        for index in preservedIndices where first[index] != nil { use(index, at: lastStep) }
        // Tensors nobody writes (malformed but harmless) are kept for the whole run.
        let used = tensors.indices.filter { first[$0] != nil }
        for index in used where !produced[index] { first[index] = 0; last[index] = lastStep }
        // Shape-only operators share memory between input 0 and output 0: one request per group.
        var root = TensorTable<Int?>(count: tensors.count, fallback: nil)
        func find(_ i: Int) -> Int { var r = i; while let p = root[r], p != r { r = p }; return r }
        for node in runOrder.map({ nodes[$0] }) where Self.forwardsInput0(node.context.code.builtin) {
            guard let input = node.context.inputs.first ?? nil, let output = node.context.outputs.first,
                  first[input.index] != nil, first[output.index] != nil,
                  !inputIndices.contains(input.index), !outputIndices.contains(output.index),
                  let inBytes = TensorLayout.byteCount(input.shape, input.type),
                  inBytes == TensorLayout.byteCount(output.shape, output.type) else { continue }
            root[find(output.index)] = find(input.index)
        }
        // A fused table's, clamp's or ADD's output is its producer's output, written in place.
        for (k, aliases) in fusedAliases {
            for alias in aliases { root[find(alias.index)] = find(nodes[k].context.outputs[0].index) }
        }
        var groups = TensorTable<[Int]>(count: tensors.count, fallback: [])
        for index in used { groups[find(index)].append(index) }
        var members: [[Int]] = []
        var requests: [ArenaPlanner.Request] = []
        for group in tensors.indices.lazy.map({ groups[$0] }) where !group.isEmpty {
            var bytes = 0, from = Int.max, to = Int.min
            for index in group {
                let t = tensors[index]
                guard let size = TensorLayout.byteCount(t.shape, t.type) else {
                    throw InterpreterError.invalidModel("tensor '\(t.name)' has no fixed size (\(t.type) \(t.shape))")
                }
                bytes = max(bytes, size); from = min(from, first[index]!); to = max(to, last[index]!)
            }
            members.append(group)
            requests.append(ArenaPlanner.Request(byteCount: bytes, firstUse: from, lastUse: to))
        }
        var scratch: [ScratchSlot] = []
        for (step, k) in runOrder.enumerated() where fusedNodes[k] == nil && !dynamicNodes[k] {
            for slot in nodes[k].context.scratch?.slots ?? [] where !slot.hasOwnMemory {
                scratch.append(slot)
                requests.append(ArenaPlanner.Request(byteCount: slot.byteCount, firstUse: step, lastUse: step))
            }
        }
        let workspaces = workspaceRegion()
        if !workspaces.slots.isEmpty {
            requests.append(ArenaPlanner.Request(byteCount: workspaces.threadCount * workspaces.blockStride,
                                                 firstUse: 0, lastUse: lastStep))
        }
        return (members, requests, scratch)
    }

    /// The per-thread kernel workspaces of the nodes that run (``ThreadWorkspaceSlot``), which
    /// share one region of the arena: `threadCount` blocks of `blockStride` bytes (the largest
    /// request, aligned), live for the whole run so every node finds them at the same addresses.
    /// When there are slots, the region is the last of ``arenaRequests()``'s requests. Nodes
    /// sized at invoke keep their own.
    func workspaceRegion() -> (slots: [ThreadWorkspaceSlot], threadCount: Int, blockStride: Int) {
        let slots = runOrder.compactMap { k -> ThreadWorkspaceSlot? in
            guard fusedNodes[k] == nil, !dynamicNodes[k], let slot = nodes[k].context.scratch?.threadWorkspace,
                  !slot.hasOwnMemory else { return nil }
            return slot
        }
        let stride = max(AlignedBuffer.alignment, slots.map(\.alignedBytesPerThread).max() ?? 0)
        return (slots, slots.map(\.threadCount).max() ?? 0, stride)
    }

    /// Operators whose output 0 holds exactly the bytes of input 0, so both may share memory.
    /// Their kernels must skip the copy when `input.data == output.data`.
    static func forwardsInput0(_ op: BuiltinOperator) -> Bool {
        op == .reshape || op == .squeeze || op == .expandDims
    }

    /// Plans the arena and points every non-constant tensor into it, after checking that the
    /// arena and the variable tensors fit in `budget`.
    private func planMemory(budget: inout MemoryBudget) throws {
        let (groups, requests, scratch) = try arenaRequests()
        let plan = ArenaPlanner.plan(requests)
        try budget.reserve(max(plan.arenaByteCount, arena?.byteCount ?? 0), "the activation arena")
        for (index, t) in blueprint.description.tensors.enumerated() where t.isVariable {
            try budget.reserve(TensorLayout.byteCount(tensors[index].shape, tensors[index].type) ?? 0,
                               "variable tensor '\(t.name)'")
        }
        if arena == nil || arena!.byteCount < plan.arenaByteCount {
            // Written whole by the first invoke: on huge pages, those the weights were read into if they fit.
            arena = try weightScratch.takeMemory(asZeroed: plan.arenaByteCount)
                ?? AlignedBuffer(byteCount: plan.arenaByteCount, onHugePages: true)
        }
        let base = arena!.pointer
        for (k, group) in groups.enumerated() {
            for index in group {
                tensors[index].data = base + plan.offsets[k]
                if dynamicTensors.contains(index) { capacity[index] = requests[k].byteCount }
            }
        }
        for (i, slot) in scratch.enumerated() { slot.place(at: base + plan.offsets[groups.count + i]) }
        let workspaces = workspaceRegion()
        if let region = plan.offsets.last, !workspaces.slots.isEmpty {
            for slot in workspaces.slots { slot.place(at: base + region, stride: workspaces.blockStride) }
        }
        arenaByteCount = plan.arenaByteCount
        peakLiveByteCount = ArenaPlanner.peakLiveByteCount(requests)
        for (index, t) in blueprint.description.tensors.enumerated() where t.isVariable {
            let tensor = tensors[index]
            guard let bytes = TensorLayout.byteCount(tensor.shape, tensor.type) else {
                throw InterpreterError.invalidModel("variable tensor '\(tensor.name)' has no fixed size")
            }
            if variableStorage[index]?.byteCount != bytes { variableStorage[index] = try AlignedBuffer(byteCount: bytes) }
            tensor.data = variableStorage[index]!.pointer
        }
    }
}

extension SubgraphExecutor: ExecutionHost {
    var subgraphCalls: SubgraphCalls? { calls }

    func resizeOutput(_ tensor: RuntimeTensor, to shape: [Int]) throws {
        guard tensor.shape != shape else { return }
        guard dynamicTensors.contains(tensor.index) else {
            throw InterpreterError.invocationFailed(
                "tensor '\(tensor.name)' was planned as \(tensor.shape) and came out \(shape) at invoke")
        }
        tensor.shape = shape
        try ensureMemory(tensor)
    }
}
