// TRANSPOSE with the permutation simplified first: size-1 dimensions dropped and input
// dimensions that stay adjacent merged. Two common shapes then get fast paths — the
// innermost dimension kept in place (whole rows copied) and a batched 2-D transpose (done in
// cache-sized tiles) — and everything else uses the reference loop. Pure data movement, so
// the result equals the reference exactly.

/// A transpose reduced to its simplest equivalent form.
public struct BlockedTransposePlan: Sendable, Equatable {
    /// How the transpose is executed.
    public enum Strategy: Sendable, Equatable {
        /// Plain copy (the permutation keeps element order).
        case copy
        /// Rows of `rowElements` elements move as units, permuted by `rows`.
        case rows(TransposePlan, rowElements: Int)
        /// `batches` independent `height × width` matrices transposed to `width × height`.
        case matrix(batches: Int, height: Int, width: Int)
        /// The reference loop.
        case reference(TransposePlan)
    }

    /// The chosen strategy.
    public let strategy: Strategy
    /// Output shape, as the reference computes it.
    public let outputShape: [Int]
    /// Element count.
    public let elementCount: Int

    /// Simplifies `permutation` over `inputShape`; nil when the reference would reject it.
    public init?(inputShape: [Int], permutation: [Int]) {
        guard let full = TransposePlan(inputShape: inputShape, permutation: permutation) else { return nil }
        outputShape = full.outputShape
        elementCount = full.elementCount
        let rank = inputShape.count
        let perm = permutation.map { $0 < 0 ? $0 + rank : $0 }
        // Drop size-1 dimensions, then merge input dimensions that follow each other in `perm`.
        let kept = perm.filter { inputShape[$0] != 1 }
        var groups: [[Int]] = []          // runs of input dims, in output order
        // Merge only truly consecutive input dims (skipping dropped size-1 dims between them).
        for d in kept {
            if let last = groups.last?.last, d > last, (last + 1..<d).allSatisfy({ inputShape[$0] == 1 }) {
                groups[groups.count - 1].append(d)
            } else {
                groups.append([d])
            }
        }
        let inputOrder = groups.sorted { $0[0] < $1[0] }
        let sizes = inputOrder.map { $0.reduce(1) { $0 * inputShape[$1] } }
        let reduced = groups.map { g in inputOrder.firstIndex { $0 == g }! }
        let n = reduced.count
        if n <= 1 || reduced == Array(0..<n) {
            strategy = .copy
        } else if reduced.last == n - 1 {
            let plan = TransposePlan(inputShape: Array(sizes.dropLast()), permutation: Array(reduced.dropLast()))!
            strategy = .rows(plan, rowElements: sizes[n - 1])
        } else if n == 2 {
            strategy = .matrix(batches: 1, height: sizes[0], width: sizes[1])
        } else if n == 3 && reduced == [0, 2, 1] {
            strategy = .matrix(batches: sizes[0], height: sizes[1], width: sizes[2])
        } else {
            strategy = .reference(full)
        }
    }
}

/// The simplified transpose kernel.
public enum TransposeOptimized {
    /// Tile edge of the 2-D transpose, in elements.
    static let tile = 32

    /// Transposes `plan.elementCount` elements of `elementSize` bytes.
    public static func run(_ plan: BlockedTransposePlan, elementSize: Int,
                           input: UnsafeRawPointer, output: UnsafeMutableRawPointer) {
        run(plan, units: 0..<workUnits(plan, elementSize: elementSize), elementSize: elementSize, input: input, output: output)
    }

    /// Bytes of one `.copy` work unit.
    static let copyUnitBytes = 16_384

    /// The number of independent work units of `plan` (disjoint output parts, for the thread
    /// pool): copy blocks, rows, or column tiles of the matrices; 1 for the reference loop.
    public static func workUnits(_ plan: BlockedTransposePlan, elementSize: Int) -> Int {
        switch plan.strategy {
        case .copy: return max(1, (plan.elementCount * elementSize + copyUnitBytes - 1) / copyUnitBytes)
        case let .rows(rowPlan, _): return rowPlan.paddedOutput.reduce(1, *)
        case let .matrix(batches, _, width): return batches * ((width + tile - 1) / tile)
        case .reference: return 1
        }
    }

    /// Output bytes per work unit (for choosing how many units a task takes).
    public static func unitBytes(_ plan: BlockedTransposePlan, elementSize: Int) -> Int {
        switch plan.strategy {
        case .copy: return copyUnitBytes
        case let .rows(_, rowElements): return rowElements * elementSize
        case let .matrix(_, height, _): return height * tile * elementSize
        case .reference: return plan.elementCount * elementSize
        }
    }

    /// Runs work units `units` of `plan` (see `workUnits`).
    /// - Precondition: `units` within `0..<workUnits(plan, elementSize:)`, `elementSize` one the
    ///   data-movement kernels support; `input` and `output` hold `plan.elementCount` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func run(_ plan: BlockedTransposePlan, units: Range<Int>, elementSize: Int,
                           input: UnsafeRawPointer, output: UnsafeMutableRawPointer) {
        KernelPrecondition.check(units.lowerBound >= 0 && units.upperBound <= workUnits(plan, elementSize: elementSize)
                                 && ElementSize.isSupported(elementSize),
                                 "TRANSPOSE units \(units) of \(workUnits(plan, elementSize: elementSize)), element size \(elementSize)")
        guard !units.isEmpty else { return }
        switch plan.strategy {
        case .copy:
            let total = plan.elementCount * elementSize
            let start = units.lowerBound * copyUnitBytes, end = min(total, units.upperBound * copyUnitBytes)
            if end > start { (output + start).copyMemory(from: input + start, byteCount: end - start) }
        case let .rows(rowPlan, rowElements):
            copyRows(rowPlan, rows: units, rowBytes: rowElements * elementSize, input: input, output: output)
        case let .matrix(batches, height, width):
            ElementSize.dispatch(elementSize, Matrix(batches: batches, height: height, width: width, units: units,
                                                     input: input, output: output))
        case let .reference(full):
            TransposeReference.run(full, elementSize: elementSize, input: input, output: output)
        }
    }

    /// Permutes whole rows: output rows `rows` (in output order) of `rowBytes` bytes each,
    /// read from the input at the permuted strides; the call's only temporary is its index digits,
    /// one `Int` per dimension (at most `TransposeReference.maxRank`), a temporary (stack memory
    /// while small): not a per-layer buffer, so not kernel workspace.
    static func copyRows(_ plan: TransposePlan, rows: Range<Int>, rowBytes: Int,
                         input: UnsafeRawPointer, output: UnsafeMutableRawPointer) {
        guard !rows.isEmpty else { return }
        // The digits of the first row, then one odometer step per row.
        plan.paddedOutput.withUnsafeBufferPointer { counts in
            plan.paddedInputStrides.withUnsafeBufferPointer { steps in
                withUnsafeTemporaryAllocation(of: Int.self, capacity: counts.count) { index in
                    var odometer = StridedOdometer(counts: counts.baseAddress!, steps: steps.baseAddress!,
                                                   index: index.baseAddress!, last: counts.count - 1,
                                                   position: rows.lowerBound, base: 0)
                    for r in rows {
                        RowCopyOptimized.bytes(output + r * rowBytes, input + odometer.offset * rowBytes, rowBytes)
                        _ = odometer.advance()
                    }
                }
            }
        }
    }

    /// Column tiles `units` (over all batches, `tile` input columns each) of `batches`
    /// `height × width` matrices, transposed in `tile × tile` blocks.
    struct Matrix: ElementMovingOperation {
        let batches: Int, height: Int, width: Int
        let units: Range<Int>
        let input: UnsafeRawPointer
        let output: UnsafeMutableRawPointer

        func run<T>(_ carrier: T.Type) {
            let tile = TransposeOptimized.tile
            let tilesPerBatch = (width + tile - 1) / tile
            for unit in units {
                let b = unit / tilesPerBatch
                let c0 = (unit % tilesPerBatch) * tile, c1 = min(c0 + tile, width)
                let src = input.assumingMemoryBound(to: T.self) + b * height * width
                let dst = output.assumingMemoryBound(to: T.self) + b * height * width
                var r0 = 0
                /// Rows from `r0` on in blocks of `blockRows`, each block's columns in register
                /// blocks of `blockColumns` through `block(row, column)`, its last columns element
                /// by element; `r0` ends at the first row left.
                func inBlocks(rows blockRows: Int, columns blockColumns: Int, _ block: (Int, Int) -> Void) {
                    while r0 + blockRows <= height {
                        var c = c0
                        while c + blockColumns <= c1 { block(r0, c); c += blockColumns }
                        for c in c..<c1 {
                            let out = dst + c * height
                            for r in r0..<(r0 + blockRows) { out[r] = src[r * width + c] }
                        }
                        r0 += blockRows
                    }
                }
                if MemoryLayout<T>.size == 1 {
                    let bytes = UnsafeRawPointer(src), outBytes = UnsafeMutableRawPointer(dst)
                    inBlocks(rows: 8, columns: 16) { r, c in
                        ByteBlockTranspose.rows8Columns16(bytes + (r * width + c), rowStride: width,
                                                          into: outBytes + (c * height + r), outputRowStride: height)
                    }
                } else if MemoryLayout<T>.size == 4 {
                    let words = UnsafeRawPointer(src).assumingMemoryBound(to: UInt32.self)
                    let outWords = UnsafeMutableRawPointer(dst).assumingMemoryBound(to: UInt32.self)
                    inBlocks(rows: 4, columns: 4) { r, c in
                        WordBlockTranspose.rows4Columns4(words + (r * width + c), rowStride: width,
                                                         into: outWords + (c * height + r), outputRowStride: height)
                    }
                }
                while r0 < height {
                    let r1 = min(r0 + tile, height)
                    for c in c0..<c1 {
                        let out = dst + c * height
                        for r in r0..<r1 { out[r] = src[r * width + c] }
                    }
                    r0 = r1
                }
            }
        }
    }
}
