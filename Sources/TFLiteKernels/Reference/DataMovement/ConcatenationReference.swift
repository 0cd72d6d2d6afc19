// CONCATENATION (and PACK): inputs joined along one axis; moves bytes, any element type.

/// Reference CONCATENATION kernel for inputs that need no requantization.
public enum ConcatenationReference {
    /// Joins the inputs along `axis`.
    /// - Parameters:
    ///   - outerCount: product of the dimensions before `axis` (equal for every input).
    ///   - innerByteCounts: for each input, bytes of one outer slice
    ///     (`shape[axis] × product(dimensions after axis) × elementSize`).
    ///   - inputs: one pointer per input, same order as `innerByteCounts`.
    ///   - output: room for `outerCount × sum(innerByteCounts)` bytes; must not overlap the inputs.
    /// - Precondition: one byte count per input (always checked); `outerCount` and the byte counts
    ///   are not negative; each input holds `outerCount × innerByteCounts[k]` bytes. Checked under
    ///   `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func run(outerCount: Int, innerByteCounts: [Int],
                           inputs: [UnsafeRawPointer], output: UnsafeMutableRawPointer) {
        precondition(innerByteCounts.count == inputs.count)
        KernelPrecondition.check(outerCount >= 0 && innerByteCounts.allSatisfy { $0 >= 0 },
                                 "Concatenation: outer count \(outerCount), byte counts \(innerByteCounts)")
        var dst = output
        for outer in 0..<outerCount {
            for k in 0..<inputs.count {
                let n = innerByteCounts[k]
                if n > 0 { dst.copyMemory(from: inputs[k] + outer * n, byteCount: n) }
                dst += n
            }
        }
    }
}
