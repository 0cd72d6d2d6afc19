import TFLiteKernels

/// The on-the-fly quantized input of a hybrid layer (float activations, int8 weights) and its
/// per-row scale and zero point: requested at prepare for `batches` rows of `rowSize` values as
/// arena scratch (``ScratchArray``), refilled by every invoke.
struct HybridInputScratch {
    /// Rows quantized per invoke (the batch rows of the layer).
    let batches: Int
    /// Values per row.
    let rowSize: Int
    /// Whether rows are quantized asymmetrically (a zero point per row) or symmetrically.
    let asymmetric: Bool
    private let quantizedInput: ScratchArray<Int8>
    private let scales: ScratchArray<Float>
    private let offsets: ScratchArray<Int32>

    /// Scratch for `batches` rows of `rowSize` values, requested from `node` (placed by the
    /// arena planner with the lifetime of the node's step).
    init(batches: Int, rowSize: Int, asymmetric: Bool, node: NodeContext) throws {
        self.batches = batches; self.rowSize = rowSize; self.asymmetric = asymmetric
        quantizedInput = try node.requestScratch(Int8.self, count: SharedMemoryBudget.bytes(batches, rowSize),
                                                 "the quantized input")
        scales = try node.requestScratch(Float.self, count: batches, "the quantized input's scales")
        offsets = try node.requestScratch(Int32.self, count: batches, "the quantized input's zero points")
    }

    /// Quantizes the `batches` rows of `input` (asymmetric or symmetric, as the reference does)
    /// and hands the quantized data, scales and offsets to `body`. Writes every row, scale and
    /// offset it hands over, so nothing depends on the scratch's earlier contents.
    func quantize<R>(_ input: UnsafePointer<Float>,
                     _ body: (UnsafePointer<Int8>, UnsafePointer<Float>, UnsafePointer<Int32>) -> R) -> R {
        let (batches, rowSize, asymmetric) = (self.batches, self.rowSize, self.asymmetric)
        let (q, s, o) = (quantizedInput.pointer, scales.pointer, offsets.pointer)
        for b in 0..<batches {
            let row = input + b * rowSize
            let out = q + b * rowSize
            if asymmetric {
                let r = HybridInputQuantizer.asymmetric(row, count: rowSize, into: out)
                s[b] = r.scale; o[b] = r.offset
            } else {
                s[b] = HybridInputQuantizer.symmetric(row, count: rowSize, into: out); o[b] = 0
            }
        }
        return body(UnsafePointer(q), UnsafePointer(s), UnsafePointer(o))
    }
}
