import TFLiteKernels

/// The on-the-fly quantized input of a hybrid layer (float activations, int8 weights) and its
/// per-row scale and zero point: allocated at prepare for `batches` rows of `rowSize` values,
/// refilled by every invoke. A class, so a plan value can hold it and invoke can write it.
final class HybridInputScratch {
    /// Rows quantized per invoke (the batch rows of the layer).
    let batches: Int
    /// Values per row.
    let rowSize: Int
    /// Whether rows are quantized asymmetrically (a zero point per row) or symmetrically.
    let asymmetric: Bool
    private var quantizedInput: [Int8]
    private var scales: [Float]
    private var offsets: [Int32]

    /// Scratch for `batches` rows of `rowSize` values, its bytes reserved in `node`'s budget
    /// before they are allocated.
    init(batches: Int, rowSize: Int, asymmetric: Bool, node: NodeContext) throws {
        try node.reserveScratch(SharedMemoryBudget.bytes(batches, rowSize + 8), "the quantized input")
        self.batches = batches; self.rowSize = rowSize; self.asymmetric = asymmetric
        quantizedInput = Array(repeating: 0, count: batches * rowSize)
        scales = Array(repeating: 1, count: batches)
        offsets = Array(repeating: 0, count: batches)
    }

    /// Quantizes the `batches` rows of `input` (asymmetric or symmetric, as the reference does)
    /// and hands the quantized data, scales and offsets to `body`.
    func quantize<R>(_ input: UnsafePointer<Float>,
                     _ body: (UnsafePointer<Int8>, UnsafePointer<Float>, UnsafePointer<Int32>) -> R) -> R {
        let (batches, rowSize, asymmetric) = (self.batches, self.rowSize, self.asymmetric)
        return quantizedInput.withUnsafeMutableBufferPointer { q in
            scales.withUnsafeMutableBufferPointer { s in
                offsets.withUnsafeMutableBufferPointer { o in
                    for b in 0..<batches {
                        let row = input + b * rowSize
                        let out = q.baseAddress! + b * rowSize
                        if asymmetric {
                            let r = HybridInputQuantizer.asymmetric(row, count: rowSize, into: out)
                            s[b] = r.scale; o[b] = r.offset
                        } else {
                            s[b] = HybridInputQuantizer.symmetric(row, count: rowSize, into: out); o[b] = 0
                        }
                    }
                    return body(UnsafePointer(q.baseAddress!), UnsafePointer(s.baseAddress!), UnsafePointer(o.baseAddress!))
                }
            }
        }
    }
}
