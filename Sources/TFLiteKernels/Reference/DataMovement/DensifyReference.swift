// DENSIFY: expands a sparse constant (TFLite's `SparsityParameters`: traversal order, block
// map, dense or CSR storage per traversed dimension) into a dense tensor, as TFLite's format
// converter (`SparseToDense`) does. Any element type.

/// One traversed dimension's storage, as the densify plan needs it.
public struct DensifyDimension: Sendable, Equatable {
    /// True for CSR storage, false for dense.
    public var isCompressed: Bool
    /// Size of a dense dimension.
    public var denseSize: Int
    /// CSR segment offsets.
    public var segments: [Int]
    /// CSR indices.
    public var indices: [Int]
    /// Creates the description.
    public init(isCompressed: Bool, denseSize: Int, segments: [Int], indices: [Int]) {
        self.isCompressed = isCompressed; self.denseSize = denseSize
        self.segments = segments; self.indices = indices
    }
}

/// A validated sparse-to-dense expansion: for every stored value, its dense position.
public struct DensifyPlan: Sendable, Equatable {
    /// The dense shape.
    public let denseShape: [Int]
    /// Dense element offset of each stored value, in storage order.
    public let destinations: [Int]

    /// Number of stored values the sparse buffer must hold.
    public var storedValueCount: Int { destinations.count }
    /// Number of dense elements.
    public var denseElementCount: Int { denseShape.reduce(1, *) }

    /// Walks the storage description. Throws when the metadata is inconsistent (bad traversal
    /// order or block map, out-of-range indices, non-monotonic segments) or maps a value outside
    /// the dense tensor.
    public init(denseShape: [Int], traversalOrder: [Int], blockMap: [Int],
                dimensions: [DensifyDimension]) throws(DataMovementParameterError) {
        let rank = denseShape.count
        let total = traversalOrder.count
        guard total == rank + blockMap.count, dimensions.count == total, total <= 16 else {
            throw DataMovementParameterError("DENSIFY: traversal order, block map and dimension metadata disagree")
        }
        guard Set(traversalOrder).count == total, traversalOrder.allSatisfy({ $0 >= 0 && $0 < total }),
              traversalOrder.prefix(rank).allSatisfy({ $0 < rank }),
              blockMap.allSatisfy({ $0 >= 0 && $0 < rank }) else {
            throw DataMovementParameterError("DENSIFY: invalid traversal order or block map")
        }
        // Block sizes come from the dense sizes of the block dimensions' metadata (in traversal
        // order they sit at the positions whose traversal entry is ≥ rank).
        var blockSizes = [Int](repeating: 1, count: blockMap.count)
        for level in rank..<total {
            let block = traversalOrder[level] - rank
            blockSizes[block] = dimensions[level].denseSize
            guard !dimensions[level].isCompressed, dimensions[level].denseSize > 0 else {
                throw DataMovementParameterError("DENSIFY: block dimensions must be dense and non-empty")
            }
        }
        var denseStrides = [Int](repeating: 1, count: rank)
        var s = 1
        for d in stride(from: rank - 1, through: 0, by: -1) { denseStrides[d] = s; s *= denseShape[d] }
        let denseCount = s

        var destinations: [Int] = []
        var indices = [Int](repeating: 0, count: total)
        // Every leaf writes all `rank` entries (the first `rank` traversal entries are a
        // permutation of the dimensions), so one buffer serves them all.
        var original = [Int](repeating: 0, count: rank)
        var failure: DataMovementParameterError?

        // Without block dimensions a value's dense offset is the sum over the traversed levels of
        // its index there times that dimension's stride, kept level by level (`offset`); with
        // blocks, the leaf rebuilds the coordinates. (A coordinate array per stored value made
        // MediaPipe's pose detector, 38 DENSIFYs, take 85–105 ms to load.)
        let unblocked = blockMap.isEmpty
        func leaf(offset: Int) {
            guard !unblocked else {
                guard destinations.count < denseCount else {
                    failure = DataMovementParameterError("DENSIFY: more stored values than dense elements"); return
                }
                destinations.append(offset)
                return
            }
            for i in 0..<rank { original[traversalOrder[i]] = indices[i] }
            for i in rank..<total {
                let block = traversalOrder[i] - rank
                let dim = blockMap[block]
                original[dim] = original[dim] * blockSizes[block] + indices[i]
            }
            guard destinations.count < denseCount else {
                failure = DataMovementParameterError("DENSIFY: more stored values than dense elements"); return
            }
            var offset = 0
            for d in 0..<rank {
                guard original[d] >= 0, original[d] < denseShape[d] else {
                    failure = DataMovementParameterError("DENSIFY: sparse index outside the dense shape"); return
                }
                offset += original[d] * denseStrides[d]
            }
            destinations.append(offset)
        }

        /// Index `index` at `level` on the way to a value; the offset so far with it, or nil
        /// (and `failure` set) when it lies outside its dimension.
        func descend(_ level: Int, _ index: Int, offset: Int) -> Int? {
            indices[level] = index
            guard unblocked else { return 0 }
            let dimension = traversalOrder[level]
            guard index >= 0, index < denseShape[dimension] else {
                failure = DataMovementParameterError("DENSIFY: sparse index outside the dense shape"); return nil
            }
            return offset + index * denseStrides[dimension]
        }

        func populate(level: Int, previous: Int, offset: Int) {
            if failure != nil { return }
            if level == total { leaf(offset: offset); return }
            let dim = dimensions[level]
            if !dim.isCompressed {
                guard dim.denseSize >= 0, dim.denseSize <= denseCount else {
                    failure = DataMovementParameterError("DENSIFY: dense size exceeds the tensor"); return
                }
                for i in 0..<dim.denseSize {
                    guard let next = descend(level, i, offset: offset) else { return }
                    populate(level: level + 1, previous: previous * dim.denseSize + i, offset: next)
                    if failure != nil { return }
                }
            } else if previous + 1 < dim.segments.count {
                let from = dim.segments[previous], to = dim.segments[previous + 1]
                guard from >= 0, from <= to, to <= dim.indices.count else {
                    failure = DataMovementParameterError("DENSIFY: invalid CSR segments"); return
                }
                if unblocked && level == total - 1 {
                    // The innermost CSR run of pruned weights: its values' offsets in one loop.
                    let dimension = traversalOrder[level], size = denseShape[dimension], step = denseStrides[dimension]
                    guard destinations.count + (to - from) <= denseCount else {
                        failure = DataMovementParameterError("DENSIFY: more stored values than dense elements"); return
                    }
                    for i in from..<to {
                        let index = dim.indices[i]
                        guard index >= 0, index < size else {
                            failure = DataMovementParameterError("DENSIFY: sparse index outside the dense shape"); return
                        }
                        destinations.append(offset + index * step)
                    }
                    return
                }
                for i in from..<to {
                    guard let next = descend(level, dim.indices[i], offset: offset) else { return }
                    populate(level: level + 1, previous: i, offset: next)
                    if failure != nil { return }
                }
            }
        }
        // Room for every stored value at once where the innermost level says how many there are.
        if let innermost = dimensions.last, innermost.isCompressed { destinations.reserveCapacity(min(innermost.indices.count, denseCount)) }
        populate(level: 0, previous: 0, offset: 0)
        if let failure { throw failure }
        guard destinations.count <= denseCount else {
            throw DataMovementParameterError("DENSIFY: more stored values than dense elements")
        }
        self.denseShape = denseShape
        self.destinations = destinations
    }
}

/// Reference DENSIFY kernel.
public enum DensifyReference {
    /// Zero-fills `output` (`plan.denseElementCount` elements) and scatters the
    /// `plan.storedValueCount` stored values of `input` to their dense positions.
    /// - Precondition: `elementSize ≥ 1`; `input` holds `plan.storedValueCount` elements and
    ///   `output` `plan.denseElementCount`. Checked under `LITEVISION_INTERNAL_CHECKS` as far as
    ///   the arguments show it.
    public static func run(_ plan: DensifyPlan, elementSize: Int,
                           input: UnsafeRawPointer, output: UnsafeMutableRawPointer) {
        KernelPrecondition.check(elementSize >= 1, "DENSIFY element size \(elementSize)")
        output.initializeMemory(as: UInt8.self, repeating: 0, count: plan.denseElementCount * elementSize)
        for (k, destination) in plan.destinations.enumerated() {
            (output + destination * elementSize).copyMemory(from: input + k * elementSize, byteCount: elementSize)
        }
    }
}
