// PAD / PADV2 over a range of output rows (the plan's innermost folded dimension), so the
// thread pool can split it: each row is either all padding or left padding, one contiguous
// input run and right padding. Pure data movement: the bytes equal the reference's.

/// Row-split constant padding.
public enum PadOptimized {
    /// Output rows of `plan` (every dimension but the innermost, after folding).
    public static func rowCount(_ plan: PadPlan) -> Int { plan.outputDims.dropLast().reduce(1, *) }

    /// Bytes of one output row.
    public static func rowBytes(_ plan: PadPlan, elementSize: Int) -> Int { (plan.outputDims.last ?? 1) * elementSize }

    /// Writes output rows `rows`; padded positions get the `elementSize`-byte value at `padValue`.
    /// - Precondition: `rows` within `0..<rowCount(plan)`, `elementSize ≥ 1`; `input` holds the
    ///   plan's input elements, `output` its output elements. Checked under
    ///   `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    /// The call's only temporary is three `Int`s per outer dimension (at most
    /// `PadPlan.maxRank − 1`; stack memory): not a per-layer buffer, so not kernel workspace.
    public static func run(_ plan: PadPlan, rows: Range<Int>, elementSize: Int, input: UnsafeRawPointer,
                           padValue: UnsafeRawPointer, output: UnsafeMutableRawPointer) {
        KernelPrecondition.check(rows.lowerBound >= 0 && rows.upperBound <= rowCount(plan) && elementSize >= 1,
                                 "PAD rows \(rows) of \(rowCount(plan)), element size \(elementSize)")
        let rank = PadPlan.maxRank
        let od = plan.outputDims, id = plan.inputDims, b = plan.before
        let rowElements = od[rank - 1], inRow = id[rank - 1], left = b[rank - 1]
        let right = rowElements - inRow - left
        let size = elementSize
        guard !rows.isEmpty else { return }
        let outer = rank - 1
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * outer) { buffer in
            // The output row's index digits, stepped like an odometer (divisions once per call);
            // its offset is the input row `Σ (digit − before) · input stride`, valid when every
            // digit is inside.
            let counts = buffer.baseAddress!, steps = counts + outer, digit = steps + outer
            var inputStride = 1, base = 0
            for k in (0..<outer).reversed() {
                counts[k] = od[k]; steps[k] = inputStride
                base -= b[k] * inputStride
                inputStride *= id[k]
            }
            var odometer = StridedOdometer(counts: counts, steps: steps, index: digit, last: outer - 1,
                                           position: rows.lowerBound, base: base)
            for r in rows {
                var inside = true
                for k in 0..<outer where digit[k] < b[k] || digit[k] - b[k] >= id[k] { inside = false }
                let dst = output + r * rowElements * size
                if inside {
                    fill(dst, count: left, value: padValue, size: size)
                    RowCopyOptimized.bytes(dst + left * size, input + odometer.offset * inRow * size, inRow * size)
                    fill(dst + (left + inRow) * size, count: right, value: padValue, size: size)
                } else {
                    fill(dst, count: rowElements, value: padValue, size: size)
                }
                _ = odometer.advance()
            }
        }
    }

    /// `count` copies of the `size`-byte value at `value`.
    @inline(__always)
    static func fill(_ dst: UnsafeMutableRawPointer, count: Int, value: UnsafeRawPointer, size: Int) {
        guard count > 0 else { return }
        switch size {
        case 1: dst.initializeMemory(as: UInt8.self, repeating: value.load(as: UInt8.self), count: count)
        case 2: for i in 0..<count { dst.storeBytes(of: value.loadUnaligned(as: UInt16.self), toByteOffset: i * 2, as: UInt16.self) }
        case 4: for i in 0..<count { dst.storeBytes(of: value.loadUnaligned(as: UInt32.self), toByteOffset: i * 4, as: UInt32.self) }
        case 8: for i in 0..<count { dst.storeBytes(of: value.loadUnaligned(as: UInt64.self), toByteOffset: i * 8, as: UInt64.self) }
        default: for i in 0..<count { (dst + i * size).copyMemory(from: value, byteCount: size) }
        }
    }
}
