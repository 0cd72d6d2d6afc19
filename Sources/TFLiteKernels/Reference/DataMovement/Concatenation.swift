// CONCATENATION (and PACK): inputs joined along one axis; moves bytes, any element type.

/// Reference CONCATENATION kernel for inputs that need no requantization.
public enum Concatenation {
    /// Joins the inputs along `axis`.
    /// - Parameters:
    ///   - outerCount: product of the dimensions before `axis` (equal for every input).
    ///   - innerByteCounts: for each input, bytes of one outer slice
    ///     (`shape[axis] × product(dimensions after axis) × elementSize`).
    ///   - inputs: one pointer per input, same order as `innerByteCounts`.
    ///   - output: room for `outerCount × sum(innerByteCounts)` bytes; must not overlap the inputs.
    public static func run(outerCount: Int, innerByteCounts: [Int],
                           inputs: [UnsafeRawPointer], output: UnsafeMutableRawPointer) {
        precondition(innerByteCounts.count == inputs.count)
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
