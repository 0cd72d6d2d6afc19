// SCATTER_ND: a zero tensor of the given shape with update slices added at index tuples.

/// Reference SCATTER_ND kernel.
public enum ScatterNd {
    /// Zero-fills `output` (`outputShape`) and adds each of the `indexCount` update slices at
    /// its index tuple (`depth` values); duplicates accumulate, as in the reference.
    /// - Returns: nil on success, else the position of the first bad index tuple.
    @inlinable
    public static func run<Index: FixedWidthInteger, Element: Numeric>(
        outputShape: [Int], depth: Int, indexCount: Int, indices: UnsafePointer<Index>,
        updates: UnsafePointer<Element>, output: UnsafeMutablePointer<Element>,
        add: (Element, Element) -> Element) -> Int? {
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
