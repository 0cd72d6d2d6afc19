// SCATTER_ND: a zero tensor of the given shape with update slices added at index tuples.

/// Reference SCATTER_ND kernel.
public enum ScatterNdReference {
    /// Zero-fills `output` (`outputShape`) and adds each of the `indexCount` update slices at
    /// its index tuple (`depth` values); duplicates accumulate, as in the reference.
    /// - Returns: nil on success, else the position of the first bad index tuple.
    /// - Precondition: `0 ≤ depth ≤ outputShape.count`, `indexCount ≥ 0`; `indices` holds
    ///   `indexCount × depth` values, `updates` `indexCount` slices, `output` the output shape's
    ///   elements. Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    @inlinable
    public static func run<Index: FixedWidthInteger, Element: Numeric>(
        outputShape: [Int], depth: Int, indexCount: Int, indices: UnsafePointer<Index>,
        updates: UnsafePointer<Element>, output: UnsafeMutablePointer<Element>,
        add: (Element, Element) -> Element) -> Int? {
        KernelPrecondition.check(depth >= 0 && depth <= outputShape.count && indexCount >= 0,
                                 "SCATTER_ND depth \(depth) of \(outputShape), \(indexCount) tuples")
        let strides = IndexedCopyPlan.strides(outputShape)
        let sliceCount = outputShape[depth...].reduce(1, *)
        output.update(repeating: 0, count: outputShape.reduce(1, *))
        for k in 0..<indexCount {
            var offset = 0
            for d in 0..<depth {
                let v = indices[k * depth + d]
                guard v >= 0, v < outputShape[d] else { return k }
                offset += Int(v) * strides[d]
            }
            for j in 0..<sliceCount { output[offset + j] = add(output[offset + j], updates[k * sliceCount + j]) }
        }
        return nil
    }
}
