// The shared core of MIRROR_PAD, TILE and BROADCAST_TO: every output coordinate reads the
// input element whose offset is the sum of one table entry per dimension.

/// Per-dimension input offsets: output element `(i0, …, in)` reads input element
/// `offsets[0][i0] + … + offsets[n][in]`.
public struct IndexedCopyPlan: Sendable, Equatable {
    /// Output shape.
    public let outputShape: [Int]
    /// For each dimension, the input element offset contributed by each output index.
    public let offsets: [[Int]]

    /// Creates a plan from `offsets` (one table per output dimension, of that dimension's size).
    public init(offsets: [[Int]]) {
        self.offsets = offsets
        outputShape = offsets.map(\.count)
    }

    /// Row-major element strides of `shape`.
    public static func strides(_ shape: [Int]) -> [Int] {
        var strides = [Int](repeating: 1, count: shape.count)
        var running = 1
        for d in stride(from: shape.count - 1, through: 0, by: -1) { strides[d] = running; running *= shape[d] }
        return strides
    }

    /// TILE: output dimension d repeats the input `multiples[d]` times.
    public static func tile(inputShape: [Int], multiples: [Int]) -> IndexedCopyPlan {
        let strides = Self.strides(inputShape)
        return IndexedCopyPlan(offsets: inputShape.indices.map { d in
            (0..<(inputShape[d] * multiples[d])).map { ($0 % max(inputShape[d], 1)) * strides[d] }
        })
    }

    /// BROADCAST_TO: the input (right-aligned, size-1 dimensions repeated) read as `outputShape`.
    /// Precondition: the shapes are broadcast-compatible.
    public static func broadcast(inputShape: [Int], outputShape: [Int]) -> IndexedCopyPlan {
        let padded = [Int](repeating: 1, count: outputShape.count - inputShape.count) + inputShape
        let strides = Self.strides(padded)
        return IndexedCopyPlan(offsets: outputShape.indices.map { d in
            (0..<outputShape[d]).map { padded[d] == 1 ? 0 : $0 * strides[d] }
        })
    }

    /// MIRROR_PAD: REFLECT (edge not repeated) or SYMMETRIC (edge repeated) padding, as the
    /// reference's `GetInputDimension`. Precondition: paddings fit the mode's limits.
    public static func mirrorPad(inputShape: [Int], before: [Int], after: [Int], reflect: Bool) -> IndexedCopyPlan {
        let strides = Self.strides(inputShape)
        let offset = reflect ? 1 : 0
        return IndexedCopyPlan(offsets: inputShape.indices.map { d in
            let size = inputShape[d], left = before[d]
            return (0..<(size + left + after[d])).map { padded in
                var p = padded
                if p < left {
                    let original = left + offset - 1
                    return (original - min(p, original - offset)) * strides[d]
                }
                p -= left
                if p >= size {
                    p -= size
                    let original = size - (1 + offset)
                    return (original - min(p, original)) * strides[d]
                }
                return p * strides[d]
            }
        })
    }

    /// Number of output elements.
    public var elementCount: Int { outputShape.reduce(1, *) }
}

/// Copies through an `IndexedCopyPlan`, any element type.
public enum IndexedCopyReference {
    /// Writes `plan.elementCount` output elements.
    public static func run(_ plan: IndexedCopyPlan, elementSize: Int,
                           input: UnsafeRawPointer, output: UnsafeMutableRawPointer) {
        if plan.elementCount == 0 { return }
        ElementSize.dispatch(elementSize, Operation(plan: plan, input: input, output: output))
    }

    struct Operation: ElementMovingOperation {
        let plan: IndexedCopyPlan
        let input: UnsafeRawPointer
        let output: UnsafeMutableRawPointer

        /// Copies every element; the only temporary is the index digits, one `Int` per dimension
        /// (bounded by the plan's rank), a temporary (stack memory while small): not a per-layer
        /// buffer, so not kernel workspace.
        func run<T>(_ carrier: T.Type) {
            let src = input.assumingMemoryBound(to: T.self)
            var dst = output.assumingMemoryBound(to: T.self)
            let tables = plan.offsets
            let rank = tables.count
            if rank == 0 { dst.pointee = src.pointee; return }
            let inner = tables[rank - 1]
            withUnsafeTemporaryAllocation(of: Int.self, capacity: rank) { index in
                index.initialize(repeating: 0)
                var base = (0..<(rank - 1)).reduce(0) { $0 + tables[$1][0] }
                while true {
                    for j in 0..<inner.count { dst[j] = src[base + inner[j]] }
                    dst += inner.count
                    var d = rank - 2
                    while d >= 0 {
                        base -= tables[d][index[d]]
                        index[d] += 1
                        if index[d] < tables[d].count { base += tables[d][index[d]]; break }
                        index[d] = 0
                        base += tables[d][0]
                        d -= 1
                    }
                    if d < 0 { return }
                }
            }
        }
    }
}
