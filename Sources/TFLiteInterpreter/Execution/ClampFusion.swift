/// A prepared float kernel that is only a clamp of its one input (RELU, RELU6, RELU_N1_TO_1,
/// RELU_0_TO_1 on float32).
protocol FloatClampKernel {
    /// The clamp bounds, or nil when the prepared kernel computes something else.
    var floatClamp: (min: Float, max: Float)? { get }
}

/// A prepared float kernel whose output can be clamped in the same pass (ADD, SUB, MUL, DIV,
/// CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED with no fused activation of their own).
protocol FloatClampFusable: AnyObject {
    /// Clamps the output to `min...max` from now on (until the next prepare); false when the
    /// kernel cannot (not float, or it already has a fused activation).
    func fuseFloatClamp(min: Float, max: Float) -> Bool
}

/// Fuses `y = clamp(f(a, b))` where a float RELU-family node reads the only output of a
/// `FloatClampFusable` node and nothing else reads it: the producer applies the clamp as its
/// fused activation (the same values per element, NaN passing through; a convolution's epilogue
/// may keep a -0 that the RELU would have made +0), the clamp node is skipped, and its output
/// shares the producer's output memory. This is the fusion the reference's delegates perform; it
/// removes one pass over the tensor per activation (74 in face_detection_full_range: 47 after
/// ADD, 27 after convolutions).
struct ClampFusion {
    /// The skipped clamp node's output, by the position of the node that now writes it.
    let aliases: [Int: RuntimeTensor]
    /// Positions of the skipped clamp nodes.
    let skipped: Set<Int>

    /// Finds and applies the fusions among the nodes at positions `order` (after their prepare).
    /// A pair fuses only when the intermediate tensor has one reader and is not a graph input or
    /// output, the clamp's output is not a graph input or output, and both have the same size.
    static func apply(_ nodes: [SubgraphExecutor.Node], order: [Int], graphInputs: Set<Int>,
                      graphOutputs: Set<Int>) -> ClampFusion {
        let readers = TensorTable.readerCounts(nodes, order: order)
        let producer = TensorTable.producerPositions(nodes, order: order)
        var aliases: [Int: RuntimeTensor] = [:], skipped = Set<Int>()
        for k in order {
            let node = nodes[k]
            guard let bounds = node.kernel.roles.floatClamp?.floatClamp,
                  node.context.inputs.count == 1, node.context.outputs.count == 1,
                  let x = node.context.inputs[0], x.type == .float32 else { continue }
            let y = node.context.outputs[0]
            guard let p = producer[x.index], aliases[p] == nil, !skipped.contains(p),
                  nodes[p].context.outputs.count == 1, readers[x.index] == 1,
                  ![x.index, y.index].contains(where: { graphInputs.contains($0) || graphOutputs.contains($0) }),
                  x.shape == y.shape, y.type == .float32,
                  let fusable = nodes[p].kernel.roles.floatClampFusable,
                  fusable.fuseFloatClamp(min: bounds.min, max: bounds.max) else { continue }
            aliases[p] = y
            skipped.insert(k)
        }
        return ClampFusion(aliases: aliases, skipped: skipped)
    }
}
