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
    /// Each pool worker's bounds of its chunks of a row (two floats per worker).
    private let workerBounds: ScratchArray<Float>

    /// Scratch for `batches` rows of `rowSize` values, requested from `node` (placed by the
    /// arena planner with the lifetime of the node's step).
    init(batches: Int, rowSize: Int, asymmetric: Bool, node: NodeContext) throws {
        self.batches = batches; self.rowSize = rowSize; self.asymmetric = asymmetric
        quantizedInput = try node.requestScratch(Int8.self, count: SharedMemoryBudget.bytes(batches, rowSize),
                                                 "the quantized input")
        scales = try node.requestScratch(Float.self, count: batches, "the quantized input's scales")
        offsets = try node.requestScratch(Int32.self, count: batches, "the quantized input's zero points")
        workerBounds = try node.requestScratch(Float.self, count: 2 * node.threads.threadCount, "the workers' bounds")
    }

    /// Quantizes the `batches` rows of `input` (asymmetric or symmetric, as the reference does)
    /// and hands the quantized data, scales and offsets to `body`. Writes every row, scale and
    /// offset it hands over, so nothing depends on the scratch's earlier contents.
    ///
    /// A row's two passes split over `threads` (nil: this thread): each worker finds the bounds
    /// of its chunks from the row's first value (the scalar loop's start, so the combined bounds
    /// are the scalar loop's: a NaN never replaces a bound), then the chunks are quantized with
    /// the row's scale. A row starting with NaN, whose bounds are NaN, stays on this thread.
    func quantize<R>(_ input: UnsafePointer<Float>, threads: ThreadPool?,
                     _ body: (UnsafePointer<Int8>, UnsafePointer<Float>, UnsafePointer<Int32>) -> R) -> R {
        let (batches, rowSize, asymmetric) = (self.batches, self.rowSize, self.asymmetric)
        let (q, s, o, partial) = (quantizedInput.pointer, scales.pointer, offsets.pointer, workerBounds.pointer)
        let minChunk = WorkSplitPolicy.elementwiseElements
        for b in 0..<batches {
            let row = input + b * rowSize
            let out = q + b * rowSize
            guard rowSize > 0 else { (s[b], o[b]) = (1, 0); continue }
            let first = row[0]
            var (lo, hi) = (first, first)
            if let threads, threads.threadCount > 1 && rowSize > minChunk && !first.isNaN {
                for w in 0..<threads.threadCount { (partial[2 * w], partial[2 * w + 1]) = (first, first) }
                threads.parallelFor(rowSize, minChunk: minChunk) { range, worker in
                    let seed = (partial[2 * worker], partial[2 * worker + 1])
                    (partial[2 * worker], partial[2 * worker + 1]) =
                        HybridInputQuantizer.bounds(row + range.lowerBound, count: range.count, from: seed)
                }
                for w in 0..<threads.threadCount {
                    if partial[2 * w] < lo { lo = partial[2 * w] }
                    if partial[2 * w + 1] > hi { hi = partial[2 * w + 1] }
                }
            } else {
                (lo, hi) = HybridInputQuantizer.bounds(row, count: rowSize, from: (first, first))
            }
            let quantization = HybridInputQuantizer.RowQuantization(lo: lo, hi: hi, asymmetric: asymmetric)
            (s[b], o[b]) = (quantization.scale, quantization.offset)
            guard let threads else {
                HybridInputQuantizer.quantize(row, count: rowSize, quantization, into: out)
                continue
            }
            ElementwiseParallel.flat(rowSize, threads, minElements: minChunk) { range in
                HybridInputQuantizer.quantize(row + range.lowerBound, count: range.count, quantization, into: out + range.lowerBound)
            }
        }
        return body(UnsafePointer(q), UnsafePointer(s), UnsafePointer(o))
    }
}
