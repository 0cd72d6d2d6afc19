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
///
/// Where the other operand is a channel PAD's output (float +0.0 channels appended, read only
/// by the ADD: BlazeFace's shortcuts into wider blocks, 8 in face_detection_full_range), the
/// convolution reads the PAD's input instead, its missing channels adding +0.0 as the padded
/// ones would, and the PAD leaves the run order: the padded tensor is never written.
struct ResidualAddFusion {
    /// Tensors each fusing node now also writes (the ADD's output and its aliases), by position.
    let aliases: [Int: [RuntimeTensor]]
    /// The ADD operand each fusing node reads, by position.
    let reads: [Int: RuntimeTensor]
    /// The run order after the fusions: each fusing node takes its ADD's place (it may move
    /// later, never earlier: its only output's only reader was the ADD); channel PADs read in
    /// place leave it.
    let order: [Int]
    /// The channel PADs whose input a fusing node reads in place of their output, by position:
    /// they no longer run, and nothing reads their outputs.
    let skipped: Set<Int>

    /// Finds and applies the fusions among the nodes at positions `order` (after their prepare
    /// and `ClampFusion`, whose `clampAliases` are carried over). An ADD fuses into the producer
    /// of operand `t` when `t` is that node's only output with the ADD as its only reader and
    /// neither `t` nor the ADD's output is a graph input or output; the producer then runs at
    /// the ADD's place, where the other operand is ready (BlazeFace computes the shortcut's
    /// MAX_POOL_2D and PAD after the block's last convolution).
    static func apply(_ nodes: [SubgraphExecutor.Node], order: [Int], clampAliases: [Int: RuntimeTensor],
                      graphInputs: Set<Int>, graphOutputs: Set<Int>) -> ResidualAddFusion {
        let readers = TensorTable.readerCounts(nodes, order: order)
        var aliases = clampAliases.mapValues { [$0] }
        var producer = TensorTable<Int?>(fallback: nil)
        for k in order {
            for output in nodes[k].context.outputs + (aliases[k] ?? []) { producer[output.index] = k }
        }
        var producedAnywhere = TensorTable(fallback: false)
        for node in nodes { for output in node.context.outputs { producedAnywhere[output.index] = true } }
        var reads: [Int: RuntimeTensor] = [:]
        var skipped = Set<Int>()
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
                      t.shape == y.shape, r.shape == y.shape,
                      let fusable = nodes[p].kernel.roles.residualAddFusable else { continue }
                // The channel PAD's input where the convolution takes it, else the operand itself;
                // either comes from a node that runs (or from no node at all).
                var candidates: [(pad: Int?, operand: RuntimeTensor)] = []
                if let q = producer[r.index], aliases[q] == nil, readers[r.index] == 1, !boundary(r),
                   let input = channelPadInput(nodes[q], padding: r) {
                    candidates.append((q, input))
                }
                candidates.append((nil, r))
                guard let (pad, operand) = candidates.first(where: { _, operand in
                    (producer[operand.index] != nil || !producedAnywhere[operand.index])
                        && fusable.fuseResidualAdd(operand, min: clamp.min, max: clamp.max)
                }) else { continue }
                if let pad { skipped.insert(pad) }
                aliases[p] = [y] + (aliases[k] ?? [])
                aliases[k] = nil
                producer[y.index] = p
                for alias in aliases[p]! { producer[alias.index] = p }
                reads[p] = operand
                moved[k] = p
                break
            }
        }
        let movedProducers = Set(moved.values)
        let fusedOrder = order.compactMap { k -> Int? in
            movedProducers.contains(k) || skipped.contains(k) ? nil : moved[k] ?? k
        }
        return ResidualAddFusion(aliases: aliases, reads: reads, order: fusedOrder, skipped: skipped)
    }

    /// The input of `node` when it is a PAD of float +0.0 that only appends channels (the last
    /// dimension, after its end) to a float tensor, giving `padding` (its one output); else nil.
    static func channelPadInput(_ node: SubgraphExecutor.Node, padding: RuntimeTensor) -> RuntimeTensor? {
        guard let pad = node.kernel.roles.constantPad?.constantPad, pad.padsFloatZeros,
              node.context.outputs.count == 1, node.context.outputs[0].index == padding.index,
              let input = node.context.inputs.first ?? nil, input.type == .float32 else { return nil }
        let rank = input.shape.count
        guard rank >= 1, padding.shape.count == rank, pad.before.count == rank, pad.after.count == rank,
              pad.before.allSatisfy({ $0 == 0 }), pad.after.dropLast().allSatisfy({ $0 == 0 }), pad.after[rank - 1] > 0,
              input.shape.dropLast() == padding.shape.dropLast() else { return nil }
        return input
    }
}
