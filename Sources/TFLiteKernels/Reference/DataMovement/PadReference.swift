// PAD / PADV2: constant padding around the input, any element type, rank ≤ 6.

/// A constant pad prepared for one input shape and padding table.
public struct PadPlan: Sendable, Equatable {
    /// The largest rank the kernel handles.
    public static let maxRank = 6
    /// Output shape (`input + before + after` per dimension).
    public let outputShape: [Int]
    let inputDims: [Int]
    let before: [Int]
    let outputDims: [Int]

    /// Prepares a pad, or returns nil when a padding is negative, the tables don't match the
    /// rank, or the rank exceeds 6.
    public init?(inputShape: [Int], before: [Int], after: [Int]) {
        let rank = inputShape.count
        guard rank <= Self.maxRank, before.count == rank, after.count == rank,
              before.allSatisfy({ $0 >= 0 }), after.allSatisfy({ $0 >= 0 }) else { return nil }
        outputShape = (0..<rank).map { inputShape[$0] + before[$0] + after[$0] }
        // Trailing dimensions without padding are folded into the one before them, so rows
        // are as long as possible (an NHWC pad of H and W copies whole W×C rows).
        var dims = inputShape, lead = before, trail = after
        while dims.count >= 2 && lead.last == 0 && trail.last == 0 {
            let inner = dims.removeLast(); lead.removeLast(); trail.removeLast()
            let k = dims.count - 1
            dims[k] *= inner; lead[k] *= inner; trail[k] *= inner
        }
        let pad = Self.maxRank - dims.count
        inputDims = [Int](repeating: 1, count: pad) + dims
        self.before = [Int](repeating: 0, count: pad) + lead
        outputDims = [Int](repeating: 1, count: pad) + (0..<dims.count).map { dims[$0] + lead[$0] + trail[$0] }
    }

    /// Number of output elements.
    public var elementCount: Int { outputShape.reduce(1, *) }
}

/// Reference PAD kernel.
public enum PadReference {
    /// Writes the padded input; padded positions get the element at `padValue`.
    /// `input` holds the input elements, `padValue` one element, `output` `plan.elementCount`.
    public static func run(_ plan: PadPlan, elementSize: Int, input: UnsafeRawPointer,
                           padValue: UnsafeRawPointer, output: UnsafeMutableRawPointer) {
        ElementSize.dispatch(elementSize, Operation(plan: plan, input: input, padValue: padValue, output: output))
    }

    struct Operation: ElementMovingOperation {
        let plan: PadPlan
        let input: UnsafeRawPointer
        let padValue: UnsafeRawPointer
        let output: UnsafeMutableRawPointer

        func run<T>(_ carrier: T.Type) {
            let value = padValue.loadUnaligned(as: T.self)
            var src = input.assumingMemoryBound(to: T.self)
            var dst = output.assumingMemoryBound(to: T.self)
            let od = plan.outputDims, id = plan.inputDims, b = plan.before
            let row = od[5], inRow = id[5], left = b[5], right = row - inRow - left
            func inside(_ i: Int, _ d: Int) -> Bool { i >= b[d] && i < b[d] + id[d] }
            for i0 in 0..<od[0] {
                let k0 = inside(i0, 0)
                for i1 in 0..<od[1] {
                    let k1 = k0 && inside(i1, 1)
                    for i2 in 0..<od[2] {
                        let k2 = k1 && inside(i2, 2)
                        for i3 in 0..<od[3] {
                            let k3 = k2 && inside(i3, 3)
                            for i4 in 0..<od[4] {
                                if k3 && inside(i4, 4) {
                                    dst.update(repeating: value, count: left)
                                    (dst + left).update(from: src, count: inRow)
                                    (dst + left + inRow).update(repeating: value, count: right)
                                    src += inRow
                                } else {
                                    dst.update(repeating: value, count: row)
                                }
                                dst += row
                            }
                        }
                    }
                }
            }
        }
    }
}
