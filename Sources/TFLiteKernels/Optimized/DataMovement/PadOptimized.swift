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
        withUnsafeTemporaryAllocation(of: Int.self, capacity: rank) { digits in
            // Output index digits of the first row (divisions once per call); each further row
            // steps them like an odometer.
            let digit = digits.baseAddress!
            var rest = rows.lowerBound
            for k in stride(from: rank - 2, through: 0, by: -1) {
                digit[k] = rest % od[k]
                rest /= od[k]
            }
            for r in rows {
                // The input row when every digit is inside.
                var inputRow = 0, inside = true
                for k in 0..<(rank - 1) {
                    let j = digit[k] - b[k]
                    if j < 0 || j >= id[k] { inside = false }
                    inputRow = inputRow * id[k] + j
                }
                var k = rank - 2
                while k >= 0 {
                    digit[k] += 1
                    if digit[k] < od[k] { break }
                    digit[k] = 0
                    k -= 1
                }
                let dst = output + r * rowElements * size
                if inside {
                    fill(dst, count: left, value: padValue, size: size)
                    RowCopyOptimized.bytes(dst + left * size, input + inputRow * inRow * size, inRow * size)
                    fill(dst + (left + inRow) * size, count: right, value: padValue, size: size)
                } else {
                    fill(dst, count: rowElements, value: padValue, size: size)
                }
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
