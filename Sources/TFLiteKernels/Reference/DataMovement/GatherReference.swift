// GATHER and GATHER_ND: slices of the input picked by integer indices, any element type.

/// Reference GATHER / GATHER_ND kernels. Index values are checked; a bad index returns its
/// position instead of reading outside the input.
public enum GatherReference {
    /// GATHER with `batch_dims`: for each batch, outer slice and coordinate, copies the
    /// `innerCount`-element slice at `indices[batch][i]` of the axis.
    /// - Returns: nil on success, else the position of the first index outside `0..<axisSize`.
    /// - Precondition: the counts are non-negative and `elementSize ≥ 1`; `indices` holds
    ///   `batchCount × coordinateCount` values, `input` the `batchCount × outerCount × axisSize ×
    ///   innerCount` elements and `output` the gathered ones. Checked under
    ///   `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    @inlinable
    public static func run<Index: FixedWidthInteger>(batchCount: Int, outerCount: Int, axisSize: Int,
                                                     innerCount: Int, coordinateCount: Int,
                                                     indices: UnsafePointer<Index>, elementSize: Int,
                                                     input: UnsafeRawPointer, output: UnsafeMutableRawPointer) -> Int? {
        KernelPrecondition.check(batchCount >= 0 && outerCount >= 0 && axisSize >= 0 && innerCount >= 0
                                 && coordinateCount >= 0 && elementSize >= 1, "GATHER counts")
        let sliceBytes = innerCount * elementSize
        for k in 0..<(batchCount * coordinateCount) where indices[k] < 0 || indices[k] >= axisSize { return k }
        var dst = output
        for batch in 0..<batchCount {
            for outer in 0..<outerCount {
                let base = (batch * outerCount + outer) * axisSize
                for i in 0..<coordinateCount {
                    let index = Int(indices[batch * coordinateCount + i])
                    dst.copyMemory(from: input + (base + index) * sliceBytes, byteCount: sliceBytes)
                    dst += sliceBytes
                }
            }
        }
        return nil
    }

    /// GATHER_ND: each of the `indexCount` index tuples (`depth` values) selects a slice of
    /// `sliceCount` elements of `inputShape`.
    /// - Returns: nil on success, else the position of the first bad index tuple.
    /// - Precondition: `0 ≤ depth ≤ inputShape.count`, `indexCount ≥ 0`, `elementSize ≥ 1`;
    ///   `indices` holds `indexCount × depth` values, `output` `indexCount` slices. Checked under
    ///   `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    @inlinable
    public static func runND<Index: FixedWidthInteger>(inputShape: [Int], depth: Int, indexCount: Int,
                                                       indices: UnsafePointer<Index>, elementSize: Int,
                                                       input: UnsafeRawPointer, output: UnsafeMutableRawPointer) -> Int? {
        KernelPrecondition.check(depth >= 0 && depth <= inputShape.count && indexCount >= 0 && elementSize >= 1,
                                 "GATHER_ND depth \(depth) of \(inputShape), \(indexCount) tuples")
        let strides = IndexedCopyPlan.strides(inputShape)
        let sliceCount = inputShape[depth...].reduce(1, *)
        let sliceBytes = sliceCount * elementSize
        var dst = output
        for k in 0..<indexCount {
            var offset = 0
            for d in 0..<depth {
                let v = indices[k * depth + d]
                guard v >= 0, v < inputShape[d] else { return k }
                offset += Int(v) * strides[d]
            }
            dst.copyMemory(from: input + offset * elementSize, byteCount: sliceBytes)
            dst += sliceBytes
        }
        return nil
    }
}
