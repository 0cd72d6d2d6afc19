// TRANSPOSE: output[i0, …, in] = input[index permuted by `perm`], any element type, rank ≤ 6.

/// A transpose prepared for one input shape and permutation.
public struct TransposePlan: Sendable, Equatable {
    /// The largest rank the kernel handles.
    public static let maxRank = 6
    /// Output shape (`inputShape[perm[i]]`).
    public let outputShape: [Int]
    /// Output dimensions padded at the front with 1 to rank 6.
    let paddedOutput: [Int]
    /// Input element stride for each padded output dimension.
    let paddedInputStrides: [Int]

    /// Prepares a transpose, or returns nil when `permutation` is not a permutation of
    /// `0..<inputShape.count` or the rank exceeds 6. Negative entries count from the end.
    public init?(inputShape: [Int], permutation: [Int]) {
        let rank = inputShape.count
        guard rank <= Self.maxRank, permutation.count == rank else { return nil }
        let perm = permutation.map { $0 < 0 ? $0 + rank : $0 }
        guard Set(perm).count == rank, perm.allSatisfy({ $0 >= 0 && $0 < rank }) else { return nil }
        var inputStrides = [Int](repeating: 1, count: rank)
        var running = 1
        for d in stride(from: rank - 1, through: 0, by: -1) { inputStrides[d] = running; running *= inputShape[d] }
        outputShape = perm.map { inputShape[$0] }
        let pad = Self.maxRank - rank
        paddedOutput = [Int](repeating: 1, count: pad) + outputShape
        paddedInputStrides = [Int](repeating: 0, count: pad) + perm.map { inputStrides[$0] }
    }

    /// Number of output elements.
    public var elementCount: Int { outputShape.reduce(1, *) }
}

/// Reference TRANSPOSE kernel.
public enum TransposeReference {
    /// Writes the transposed input. `input` and `output` hold `plan.elementCount` elements of
    /// `elementSize` bytes and must not overlap.
    /// - Precondition: `elementSize ≥ 1`, and the input's shape has no negative dimension (the
    ///   plan's). Checked under
    ///   `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func run(_ plan: TransposePlan, elementSize: Int,
                           input: UnsafeRawPointer, output: UnsafeMutableRawPointer) {
        KernelPrecondition.check(elementSize >= 1 && plan.outputShape.allSatisfy { $0 >= 0 },
                                 "Transpose: element size \(elementSize), output shape \(plan.outputShape)")
        ElementSize.dispatch(elementSize, Operation(plan: plan, input: input, output: output))
    }

    struct Operation: ElementMovingOperation {
        let plan: TransposePlan
        let input: UnsafeRawPointer
        let output: UnsafeMutableRawPointer

        func run<T>(_ carrier: T.Type) {
            let src = input.assumingMemoryBound(to: T.self)
            var dst = output.assumingMemoryBound(to: T.self)
            let d = plan.paddedOutput, s = plan.paddedInputStrides
            for i0 in 0..<d[0] {
                let o0 = i0 * s[0]
                for i1 in 0..<d[1] {
                    let o1 = o0 + i1 * s[1]
                    for i2 in 0..<d[2] {
                        let o2 = o1 + i2 * s[2]
                        for i3 in 0..<d[3] {
                            let o3 = o2 + i3 * s[3]
                            for i4 in 0..<d[4] {
                                let o4 = o3 + i4 * s[4]
                                let s5 = s[5]
                                for i5 in 0..<d[5] {
                                    dst.pointee = src[o4 + i5 * s5]
                                    dst += 1
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
