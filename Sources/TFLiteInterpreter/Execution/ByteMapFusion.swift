import TFLiteKernels

/// A kernel whose whole effect, once prepared, is a 256-entry table from its one 8-bit input
/// to its 8-bit output (quantized LOGISTIC, TANH).
protocol ByteMapKernel {
    /// The prepared table, or nil when the kernel computes another way.
    var byteMap: ByteTableLookup? { get }
}

/// A kernel that, once prepared, maps each pair of same-shape 8-bit input codes to an output
/// code on its own (quantized elementwise MUL).
protocol CodePairKernel {
    /// The output code for input codes `(a, b)` (already clamped), or nil when not applicable.
    var codePairFunction: ((Int32, Int32) -> Int32)? { get }
}

/// Fuses `y = MUL(x, f(x))` where `f` is a byte-table node (YOLO's SiLU: LOGISTIC then MUL on
/// the same int8 input): `y` depends only on `x`'s 256 codes, so the pair becomes one table from
/// `x` to `y`, each entry the MUL's own element function of the code and the code's `f` entry —
/// bit-exact with running both nodes. The `f` node is then skipped, its output never written.
struct ByteMapFusion {
    /// The shared input `x`.
    let input: RuntimeTensor
    /// The MUL's output `y`.
    let output: RuntimeTensor
    /// `y` by `x` code.
    let table: ByteTableLookup

    /// The fusable pairs among the nodes at positions `order` (after their prepare): the fused
    /// MUL by node position, and the positions of the table nodes to skip. A table node fuses
    /// only when its output has no other reader and is not a graph output.
    static func find(_ nodes: [SubgraphExecutor.Node], order: [Int], graphOutputs: Set<Int>)
        -> (fused: [Int: ByteMapFusion], skipped: Set<Int>) {
        let readers = TensorTable.readerCounts(nodes, order: order)
        var producer = TensorTable<Int?>(fallback: nil)
        for k in order {
            let node = nodes[k]
            guard node.kernel.roles.byteMap?.byteMap != nil,
                  node.context.inputs.count == 1, node.context.outputs.count == 1 else { continue }
            producer[node.context.outputs[0].index] = k
        }
        var fused: [Int: ByteMapFusion] = [:], skipped = Set<Int>()
        for k in order {
            let node = nodes[k]
            guard node.context.code.builtin == .mul, let function = node.kernel.roles.codePair?.codePairFunction,
                  node.context.inputs.count == 2, node.context.outputs.count == 1,
                  let a = node.context.inputs[0], let b = node.context.inputs[1] else { continue }
            // One input is the table node's output, the other that node's input.
            for (mapped, other, mappedFirst) in [(a, b, true), (b, a, false)] {
                guard let f = producer[mapped.index], !skipped.contains(f),
                      readers[mapped.index] == 1, !graphOutputs.contains(mapped.index),
                      let x = nodes[f].context.inputs[0], x.index == other.index,
                      let map = nodes[f].kernel.roles.byteMap?.byteMap,
                      x.type == .int8 || x.type == .uint8, node.context.outputs[0].type == x.type,
                      x.shape == node.context.outputs[0].shape else { continue }
                let signed = x.type == .int8
                let entries = (0..<256).map { byte -> UInt8 in
                    let code = signed ? Int32(Int8(truncatingIfNeeded: byte)) : Int32(byte)
                    let fByte = map.entries[byte]
                    let fCode = signed ? Int32(Int8(bitPattern: fByte)) : Int32(fByte)
                    return UInt8(truncatingIfNeeded: mappedFirst ? function(fCode, code) : function(code, fCode))
                }
                fused[k] = ByteMapFusion(input: x, output: node.context.outputs[0], table: ByteTableLookup(entries))
                skipped.insert(f)
                break
            }
        }
        return (fused, skipped)
    }

    /// Maps the input to the output through the table, split over `threads`.
    func run(_ threads: ThreadPool) throws {
        guard input.data != nil, output.data != nil else { throw InterpreterError.allocateTensorsRequired }
        let px = try input.byteView("byte map").base, py = try output.mutableByteView("byte map").base
        threads.parallelFor(input.elementCount, minChunk: WorkSplitPolicy.byteTableElements) { r in table.apply(range: r, px, py) }
    }
}
