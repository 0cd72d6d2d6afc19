// SPLIT, SPLIT_V and UNPACK: the input cut along one axis into consecutive pieces; moves
// bytes, any element type.

/// Reference split kernel (the inverse of `ConcatenationReference.run`).
public enum SplitReference {
    /// Copies consecutive pieces of each outer slice of `input` to the outputs.
    /// - Parameters:
    ///   - outerCount: product of the dimensions before the axis.
    ///   - innerByteCounts: bytes of one outer slice of each output.
    ///   - outputs: one pointer per output, same order, each with room for
    ///     `outerCount × innerByteCounts[k]` bytes, none overlapping `input`.
    /// - Precondition: one byte count per output (always checked); `outerCount` and the byte
    ///   counts are not negative; `input` holds `outerCount × sum(innerByteCounts)` bytes. Checked under
    ///   `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func run(outerCount: Int, innerByteCounts: [Int], input: UnsafeRawPointer,
                           outputs: [UnsafeMutableRawPointer]) {
        precondition(innerByteCounts.count == outputs.count)
        KernelPrecondition.check(outerCount >= 0 && innerByteCounts.allSatisfy { $0 >= 0 },
                                 "Split: outer count \(outerCount), byte counts \(innerByteCounts)")
        var src = input
        for outer in 0..<outerCount {
            for k in 0..<outputs.count {
                let n = innerByteCounts[k]
                if n > 0 { (outputs[k] + outer * n).copyMemory(from: src, byteCount: n) }
                src += n
            }
        }
    }
}
