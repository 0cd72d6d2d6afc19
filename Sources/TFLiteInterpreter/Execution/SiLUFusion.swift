/// A prepared float LOGISTIC that can multiply each result by its input in the same pass.
protocol LogisticProductFusable: AnyObject {
    /// Computes `x · logistic(x)` into the output from now on (until the next prepare); false
    /// when the kernel cannot (not a float LOGISTIC).
    func fuseInputProduct() -> Bool
}

/// A prepared float kernel that is a MUL of two same-shape operands with no clamp.
protocol FloatProductKernel {
    /// True for such a MUL.
    var isUnclampedFloatProduct: Bool { get }
}

/// Fuses SiLU (swish), `y = x · LOGISTIC(x)`, which converters write as a LOGISTIC and a MUL
/// of its output by its input (YOLOv8 has 57 of them, after every convolution): the LOGISTIC
/// multiplies in its own pass, the MUL leaves the run order, and the MUL's output shares the
/// LOGISTIC's output memory. The values are the two nodes' one after the other (the same float
/// logistic, the same product); what goes is a write and two reads of the tensor per SiLU.
struct SiLUFusion {
    /// The skipped MUL's output, by the position of the LOGISTIC that now writes it.
    let aliases: [Int: RuntimeTensor]
    /// Positions of the skipped MULs.
    let skipped: Set<Int>

    /// Finds and applies the fusions among the nodes at positions `order` (after their prepare).
    /// A pair fuses when the MUL multiplies the LOGISTIC's output by the LOGISTIC's input (in
    /// either order), the LOGISTIC's output has no other reader, all three tensors have one shape,
    /// and neither the LOGISTIC's output nor the MUL's is a graph input or output.
    static func apply(_ nodes: [SubgraphExecutor.Node], order: [Int], graphInputs: Set<Int>,
                      graphOutputs: Set<Int>) -> SiLUFusion {
        let readers = TensorTable.readerCounts(nodes, order: order)
        let producer = TensorTable.producerPositions(nodes, order: order)
        var aliases: [Int: RuntimeTensor] = [:], skipped = Set<Int>()
        func boundary(_ t: RuntimeTensor) -> Bool { graphInputs.contains(t.index) || graphOutputs.contains(t.index) }
        for k in order {
            let mul = nodes[k].context
            guard nodes[k].kernel.roles.floatProduct?.isUnclampedFloatProduct == true,
                  mul.inputs.count == 2, mul.outputs.count == 1,
                  let a = mul.inputs[0], let b = mul.inputs[1] else { continue }
            let y = mul.outputs[0]
            for (sigmoid, x) in [(a, b), (b, a)] {
                guard let p = producer[sigmoid.index], aliases[p] == nil, !skipped.contains(p),
                      let logistic = nodes[p].kernel.roles.logisticProductFusable,
                      nodes[p].context.inputs.count == 1, nodes[p].context.outputs.count == 1,
                      nodes[p].context.inputs[0]?.index == x.index, readers[sigmoid.index] == 1,
                      !boundary(sigmoid), !boundary(y), sigmoid.shape == x.shape, y.shape == x.shape,
                      [sigmoid.type, y.type, x.type].allSatisfy({ $0 == .float32 }),
                      logistic.fuseInputProduct() else { continue }
                aliases[p] = y
                skipped.insert(k)
                break
            }
        }
        return SiLUFusion(aliases: aliases, skipped: skipped)
    }
}
