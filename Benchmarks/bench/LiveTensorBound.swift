import TFLiteSchema

/// The most activation bytes alive at once when the main subgraph runs in file order: a lower
/// bound for any arena holding its non-constant tensors (an operator's inputs and outputs are
/// alive together; a tensor lives from its producer, or the start for graph inputs, to its last
/// consumer, or the end for graph outputs). Constant and variable tensors are not counted;
/// unknown (negative) dimensions count as 1. Reported beside the arena size to show how much
/// the planner adds over this bound.
enum LiveTensorBound {
    /// Peak live activation bytes of `file`'s main subgraph (0 when it has none).
    static func peakLiveBytes(of file: TFLiteModelFile) -> Int {
        guard let subgraph = file.subgraphs.first else { return 0 }
        let tensorCount = subgraph.tensors.count
        let stepCount = subgraph.operators.count
        var first = Array(repeating: Int.max, count: tensorCount)
        var last = Array(repeating: Int.min, count: tensorCount)
        func use(_ tensor: Int, at step: Int) {
            guard subgraph.tensors.indices.contains(tensor) else { return }
            first[tensor] = min(first[tensor], step)
            last[tensor] = max(last[tensor], step)
        }
        for tensor in subgraph.inputs { use(tensor, at: 0) }
        for (step, op) in subgraph.operators.enumerated() {
            for tensor in op.inputs + op.outputs { use(tensor, at: step) }
        }
        for tensor in subgraph.outputs { use(tensor, at: max(0, stepCount - 1)) }
        var delta = Array(repeating: 0, count: max(1, stepCount) + 1)
        for (index, tensor) in subgraph.tensors.enumerated() where first[index] <= last[index] {
            let isConstant = tensor.buffer > 0 && tensor.buffer < file.bufferCount && file.bufferByteCount(tensor.buffer) > 0
            guard !isConstant, !tensor.isVariable, let elementSize = tensor.type.byteSize else { continue }
            // Saturating, so absurd shapes in a malformed file cannot trap.
            let bytes = tensor.shape.reduce(elementSize) { product, dimension in
                let (value, overflow) = product.multipliedReportingOverflow(by: max(dimension, 1))
                return overflow ? Int.max >> 8 : min(value, Int.max >> 8)
            }
            delta[first[index]] += bytes
            delta[last[index] + 1] -= bytes
        }
        var live = 0, peak = 0
        for change in delta {
            live = live.addingReportingOverflow(change).partialValue
            peak = max(peak, live)
        }
        return peak
    }
}
