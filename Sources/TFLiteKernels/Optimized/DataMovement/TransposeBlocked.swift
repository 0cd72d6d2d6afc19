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
public enum TransposeBlocked {
    /// Tile edge of the 2-D transpose, in elements.
    static let tile = 32

    /// Transposes `plan.elementCount` elements of `elementSize` bytes.
    public static func run(_ plan: BlockedTransposePlan, elementSize: Int,
                           input: UnsafeRawPointer, output: UnsafeMutableRawPointer) {
        switch plan.strategy {
        case .copy:
            output.copyMemory(from: input, byteCount: plan.elementCount * elementSize)
        case let .rows(rowPlan, rowElements):
            copyRows(rowPlan, rowBytes: rowElements * elementSize, input: input, output: output)
        case let .matrix(batches, height, width):
            ElementSize.dispatch(elementSize, Matrix(batches: batches, height: height, width: width,
                                                     input: input, output: output))
        case let .reference(full):
            Transpose.run(full, elementSize: elementSize, input: input, output: output)
        }
    }

    /// Permutes whole rows: the reference loop with `rowBytes`-byte elements.
    static func copyRows(_ plan: TransposePlan, rowBytes: Int, input: UnsafeRawPointer, output: UnsafeMutableRawPointer) {
        let d = plan.paddedOutput, s = plan.paddedInputStrides
        var dst = output
        for i0 in 0..<d[0] { for i1 in 0..<d[1] { for i2 in 0..<d[2] { for i3 in 0..<d[3] { for i4 in 0..<d[4] {
            let o = i0 * s[0] + i1 * s[1] + i2 * s[2] + i3 * s[3] + i4 * s[4]
            for i5 in 0..<d[5] {
                dst.copyMemory(from: input + (o + i5 * s[5]) * rowBytes, byteCount: rowBytes)
                dst += rowBytes
            }
        } } } } }
    }

    struct Matrix: ElementMovingOperation {
        let batches: Int, height: Int, width: Int
        let input: UnsafeRawPointer
        let output: UnsafeMutableRawPointer

        func run<T>(_ carrier: T.Type) {
            let tile = TransposeBlocked.tile
            for b in 0..<batches {
                let src = input.assumingMemoryBound(to: T.self) + b * height * width
                let dst = output.assumingMemoryBound(to: T.self) + b * height * width
                var r0 = 0
                while r0 < height {
                    let r1 = min(r0 + tile, height)
                    var c0 = 0
                    while c0 < width {
                        let c1 = min(c0 + tile, width)
                        for c in c0..<c1 {
                            let out = dst + c * height
                            for r in r0..<r1 { out[r] = src[r * width + c] }
                        }
                        c0 = c1
                    }
                    r0 = r1
                }
            }
        }
    }
}
