import TFLiteSchema
import TFLiteKernels

/// The one rule for running an operator ahead of time instead of at invoke (constant folding),
/// shared by the three passes that do it: loading (`SubgraphBlueprint`, operators whose inputs
/// are constants of the file), allocation (`SubgraphExecutor.prepare()`, which also evaluates
/// `SHAPE` and what depends only on shapes) and ``Model/checkSupport(_:limits:)``, which mirrors
/// allocation so later operators see the same constants.
///
/// A node is evaluated ahead of time when
/// - it does not call subgraphs or touch resource variables (``SubgraphBlueprint/runsOnlyAtInvoke(_:)``),
/// - it has inputs, and they are all constant — or, at prepare, it is `SHAPE`, whose value needs
///   only shapes (not at load: graph inputs may still be resized),
/// - none of its outputs is a graph input, a variable or already constant, and
/// - (after `prepare`) its outputs stay proportional to its inputs
///   (``SubgraphBlueprint/foldsWithoutAmplifying(_:budget:)``; `SHAPE` always is).
/// Its outputs then get their own buffers and become constants.
enum AheadOfTimeEvaluation {
    /// When the evaluation happens, for the messages of the memory it reserves.
    enum Phase {
        /// While loading the model: the outputs become constants of the ``Model``.
        case load
        /// While preparing (allocation, or the support check): redone after every resize.
        case prepare

        func subject(_ output: RuntimeTensor) -> String {
            switch self {
            case .load: return "constant output '\(output.name)'"
            case .prepare: return "output '\(output.name)' computed at prepare"
            }
        }
    }

    /// The part of the rule known before `prepare`: operator kind, constant inputs, outputs.
    static func isCandidate(_ node: NodeContext, graphInputs: Set<Int>, subgraph: SubgraphDescription,
                            phase: Phase) -> Bool {
        guard !SubgraphBlueprint.runsOnlyAtInvoke(node.code.builtin) else { return false }
        let inputs = node.inputs.compactMap { $0 }
        let shapeOnly = phase == .prepare && node.code.builtin == .shape
        guard !inputs.isEmpty, shapeOnly || inputs.allSatisfy(\.isConstant) else { return false }
        return node.outputs.allSatisfy {
            !graphInputs.contains($0.index) && !$0.isConstant && !subgraph.tensors[$0.index].isVariable
        }
    }

    /// The whole rule, for a node whose kernel has been prepared (output shapes known).
    /// - Throws: when an output's size breaks `budget`'s per-tensor limit.
    static func evaluatesNow(_ node: NodeContext, graphInputs: Set<Int>, subgraph: SubgraphDescription,
                             phase: Phase, budget: MemoryBudget) throws -> Bool {
        guard isCandidate(node, graphInputs: graphInputs, subgraph: subgraph, phase: phase) else { return false }
        if phase == .prepare && node.code.builtin == .shape { return true }
        return try SubgraphBlueprint.foldsWithoutAmplifying(node, budget: budget)
    }

    /// Runs the prepared `kernel` of `node` (operator `position`) now: each output, and the
    /// scratch the kernel requested (``NodeScratch``), gets a buffer of its own, reserved through
    /// `reserve` (with a message naming the operator, the output and the `phase`) before it is
    /// allocated, the outputs carved from `region` while it has room; afterwards the outputs are
    /// constants.
    /// - Returns: the buffers, which the caller keeps alive as long as the outputs are used.
    static func evaluate(_ kernel: OperatorKernel, _ node: NodeContext, position: Int, budget: MemoryBudget,
                         phase: Phase, region: PackingRegion? = nil,
                         reserve: (Int, String) throws -> Void) throws -> [AlignedBuffer] {
        let name = node.code.displayName
        // A kernel folding on deferred float16 weights reads their float32 values in place.
        for case let input? in node.inputs { input.dequantization?.materialize() }
        var buffers: [AlignedBuffer] = []
        for output in node.outputs {
            let bytes = try TensorLayout.checkedByteCount(output, name, budget: budget)
            try reserve(bytes, "\(name) (operator \(position)): \(phase.subject(output))")
            let buffer = try region.flatMap { AlignedBuffer(carvedFrom: $0, byteCount: bytes) } ?? AlignedBuffer(byteCount: bytes)
            buffers.append(buffer)
            output.data = buffer.pointer
        }
        try node.scratch?.allocateOwn("\(name) (operator \(position))", reserve: reserve)
        try KernelErrors.preparing(name) {
            try kernel.roles.planFinishing?.finishPlan(node)
            try kernel.invoke(node)
        }
        for output in node.outputs { output.isConstant = true }
        return buffers
    }
}
