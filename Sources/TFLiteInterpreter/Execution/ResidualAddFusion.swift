/// A prepared float kernel that can take a following ADD into its epilogue (CONV_2D on the
/// generated float tiles): `y = clamp_add(clamp_conv(conv(x)) + r)` in one pass.
protocol ResidualAddFusable: AnyObject {
    /// Adds `operand` (a tensor of the output's shape, ready before this node runs) to every
    /// output element after the node's own clamp, then clamps to `min ... max`, from now on
    /// (until the next prepare); false when the kernel cannot (it leaves itself unchanged).
    func fuseResidualAdd(_ operand: RuntimeTensor, min: Float, max: Float) -> Bool
}

/// A prepared float kernel that is an ADD of two same-shape operands with a clamp.
protocol FloatResidualAddKernel {
    /// The clamp of the ADD, or nil when the prepared kernel is something else.
    var floatResidualAdd: FloatClamp? { get }
}

/// Fuses a float ADD into the `ResidualAddFusable` node that produces one operand — the residual
/// connections of BlazeFace and MobileNetV2 blocks (23 in face_detection_full_range): the
/// convolution, run at the ADD's place, adds the other operand while its output is still in
/// registers, the ADD leaves the run order, and its output (with what already shared it, such as a fused RELU's) shares
/// the convolution's output memory. The values are the two nodes' one after the other (the same
/// additions, the same clamps); what goes is one write and two reads of the tensor.
struct ResidualAddFusion {
    /// Tensors each fusing node now also writes (the ADD's output and its aliases), by position.
    let aliases: [Int: [RuntimeTensor]]
    /// The ADD operand each fusing node reads, by position.
    let reads: [Int: RuntimeTensor]
    /// The run order after the fusions: each fusing node takes its ADD's place (it may move
    /// later, never earlier: its only output's only reader was the ADD).
    let order: [Int]

    /// Finds and applies the fusions among the nodes at positions `order` (after their prepare
    /// and `ClampFusion`, whose `clampAliases` are carried over). An ADD fuses into the producer
    /// of operand `t` when `t` is that node's only output with the ADD as its only reader and
    /// neither `t` nor the ADD's output is a graph input or output; the producer then runs at
    /// the ADD's place, where the other operand is ready (BlazeFace computes the shortcut's
    /// MAX_POOL_2D and PAD after the block's last convolution).
    static func apply(_ nodes: [SubgraphExecutor.Node], order: [Int], clampAliases: [Int: RuntimeTensor],
                      graphInputs: Set<Int>, graphOutputs: Set<Int>) -> ResidualAddFusion {
        let readers = SubgraphExecutor.readerCounts(nodes, order: order)
        var aliases = clampAliases.mapValues { [$0] }
        var producer: [Int: Int] = [:]
        for k in order {
            for output in nodes[k].context.outputs + (aliases[k] ?? []) { producer[output.index] = k }
        }
        let producedAnywhere = Set(nodes.flatMap { $0.context.outputs.map(\.index) })
        var reads: [Int: RuntimeTensor] = [:]
        /// The fusing node by the position of the ADD it replaces.
        var moved: [Int: Int] = [:]
        func boundary(_ t: RuntimeTensor) -> Bool { graphInputs.contains(t.index) || graphOutputs.contains(t.index) }
        for k in order {
            let node = nodes[k].context
            guard let clamp = nodes[k].kernel.roles.floatResidualAdd?.floatResidualAdd,
                  node.inputs.count == 2, node.outputs.count == 1,
                  let a = node.inputs[0], let b = node.inputs[1], a.index != b.index else { continue }
            let y = node.outputs[0]
            guard !boundary(y) else { continue }
            for (t, r) in [(a, b), (b, a)] {
                guard let p = producer[t.index], aliases[p] == nil, reads[p] == nil,
                      nodes[p].context.outputs.count == 1, nodes[p].context.outputs[0].index == t.index,
                      readers[t.index] == 1, !boundary(t), t.type == .float32, r.type == .float32,
                      t.shape == y.shape, r.shape == y.shape else { continue }
                // The other operand comes from a node that runs (or from no node at all).
                guard producer[r.index] != nil || !producedAnywhere.contains(r.index) else { continue }
                guard let fusable = nodes[p].kernel.roles.residualAddFusable,
                      fusable.fuseResidualAdd(r, min: clamp.min, max: clamp.max) else { continue }
                aliases[p] = [y] + (aliases[k] ?? [])
                aliases[k] = nil
                producer[y.index] = p
                for alias in aliases[p]! { producer[alias.index] = p }
                reads[p] = r
                moved[k] = p
                break
            }
        }
        let movedProducers = Set(moved.values)
        let fusedOrder = order.compactMap { k -> Int? in movedProducers.contains(k) ? nil : moved[k] ?? k }
        return ResidualAddFusion(aliases: aliases, reads: reads, order: fusedOrder)
    }
}
