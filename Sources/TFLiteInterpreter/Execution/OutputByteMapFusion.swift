import TFLiteKernels

/// A prepared 8-bit kernel that can apply a byte table to its output as it writes it (CONV_2D
/// and FULLY_CONNECTED on the packed integer GEMMs).
protocol OutputByteMapFusable: AnyObject {
    /// Maps every output code through `table` from now on (until the next prepare); false when
    /// the kernel cannot (it leaves itself unchanged).
    func fuseOutputByteMap(_ table: ByteTableLookup) -> Bool
}

/// Moves a fused byte table (``ByteMapFusion``: YOLO's SiLU) into the 8-bit convolution that
/// produces its input: each of the convolution's chunks maps the output it has just written, in
/// place, while it is in its core's cache; the table's node leaves the run order, and its output
/// shares the convolution's output memory. The values are those of the two nodes one after the
/// other (the same table on the same codes); what goes is one pass over the tensor and one split
/// over the thread pool per pair (57 of them in yolov8n_int8_640).
struct OutputByteMapFusion {
    /// The table node's output, by the position of the node that now writes it.
    let aliases: [Int: RuntimeTensor]
    /// Positions of the table nodes that left the run order.
    let skipped: Set<Int>

    /// Finds and applies the fusions of `tables` (``ByteMapFusion/find(_:order:graphOutputs:)``'s,
    /// by the position of the node each replaces) among the nodes at positions `order` (the
    /// order before that fusion, its skipped nodes included). A table fuses into the producer of
    /// its input `x` when `x` is that node's only output, the table's two original nodes are
    /// `x`'s only readers, and neither `x` nor the table's output is a graph input or output or
    /// in `kept`.
    static func apply(_ nodes: [SubgraphExecutor.Node], order: [Int], tables: [Int: ByteMapFusion],
                      graphInputs: Set<Int>, kept: Set<Int>) -> OutputByteMapFusion {
        let readers = TensorTable.readerCounts(nodes, order: order)
        let producer = TensorTable.producerPositions(nodes, order: order)
        var aliases: [Int: RuntimeTensor] = [:], skipped = Set<Int>()
        for k in order {
            guard let fusion = tables[k] else { continue }
            let (x, y) = (fusion.input, fusion.output)
            guard let p = producer[x.index], aliases[p] == nil,
                  nodes[p].context.outputs.count == 1, readers[x.index] == 2,
                  ![x.index, y.index].contains(where: { graphInputs.contains($0) || kept.contains($0) }),
                  x.shape == y.shape, x.type == y.type,
                  let fusable = nodes[p].kernel.roles.outputByteMapFusable,
                  fusable.fuseOutputByteMap(fusion.table) else { continue }
            aliases[p] = y
            skipped.insert(k)
        }
        return OutputByteMapFusion(aliases: aliases, skipped: skipped)
    }
}
