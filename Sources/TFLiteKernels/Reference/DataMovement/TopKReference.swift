// TOPK_V2: the k largest values along the last dimension, largest first; equal values keep
// their index order, as the reference's top-k container does.

/// Reference TOPK_V2 kernel.
public enum TopKReference {
    /// For each of `rowCount` rows of `rowSize` values, writes the `k` largest values and
    /// their int32 indices. `scratch` holds at least `rowSize` Int32s.
    /// - Precondition: `rowCount ≥ 0`, `0 ≤ k ≤ rowSize`, `scratch.count ≥ rowSize`; `input` holds
    ///   `rowCount × rowSize` values, `values` and `indices` `rowCount × k`. Checked under
    ///   `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    @inlinable
    public static func run<Element: Comparable>(rowCount: Int, rowSize: Int, k: Int,
                                                input: UnsafePointer<Element>,
                                                values: UnsafeMutablePointer<Element>,
                                                indices: UnsafeMutablePointer<Int32>,
                                                scratch: UnsafeMutableBufferPointer<Int32>) {
        KernelPrecondition.check(rowCount >= 0 && k >= 0 && k <= rowSize && scratch.count >= rowSize,
                                 "TOPK rows \(rowCount) × \(rowSize), k \(k), scratch \(scratch.count)")
        for row in 0..<rowCount {
            let x = input + row * rowSize
            for i in 0..<rowSize { scratch[i] = Int32(i) }
            let order = UnsafeMutableBufferPointer(rebasing: scratch[0..<rowSize])
            // Partial selection by insertion into the first k positions keeps the work O(n·k)
            // for small k; ties favour the lower index.
            var filled = 0
            for i in 0..<rowSize {
                let v = x[i]
                if filled == k && !(v > x[Int(order[k - 1])]) { continue }
                var p = filled < k ? filled : k - 1
                while p > 0 && v > x[Int(order[p - 1])] { order[p] = order[p - 1]; p -= 1 }
                order[p] = Int32(i)
                if filled < k { filled += 1 }
            }
            for j in 0..<k {
                values[row * k + j] = x[Int(order[j])]
                indices[row * k + j] = order[j]
            }
        }
    }
}
