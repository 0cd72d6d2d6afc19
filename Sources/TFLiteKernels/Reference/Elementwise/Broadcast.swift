// Shape broadcasting for two-input elementwise operators (TFLite / NumPy rules).

/// Errors raised while planning a broadcast.
public enum BroadcastError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The two shapes cannot be broadcast together.
    case incompatibleShapes([Int], [Int])
    /// After collapsing, more than `BroadcastLayout.maxRank` dimensions remain.
    case rankTooLarge(Int)
    /// A negative dimension.
    case negativeDimension([Int])

    /// A readable message.
    public var description: String {
        switch self {
        case let .incompatibleShapes(a, b): return "shapes \(a) and \(b) cannot be broadcast together"
        case let .rankTooLarge(r): return "broadcast needs \(r) dimensions; at most \(BroadcastLayout.maxRank) are supported"
        case let .negativeDimension(s): return "negative dimension in shape \(s)"
        }
    }
}

/// How two input tensors map onto a broadcast output, precomputed once per shape pair.
///
/// Dimensions where both inputs follow the same pattern (both present, or the same one
/// broadcast) are merged, so the common cases (same shapes, scalar operand, per-channel
/// operand) become one or two loops. The layout is padded to `maxRank` dimensions; the
/// innermost dimension has input strides of 0 (broadcast) or 1 (contiguous).
public struct BroadcastLayout: Sendable, Equatable {
    /// The largest number of dimensions after merging.
    public static let maxRank = 6

    /// The broadcast output shape (NumPy rules).
    public let outputShape: [Int]
    /// Output element count.
    public let elementCount: Int
    /// Extents of the merged dimensions, padded with leading 1s to `maxRank`.
    public let extents: [Int]
    /// Element strides of input A per merged dimension (0 where A is broadcast).
    public let stridesA: [Int]
    /// Element strides of input B per merged dimension (0 where B is broadcast).
    public let stridesB: [Int]

    /// The broadcast shape of `a` and `b`, or nil when they are incompatible.
    public static func broadcastShape(_ a: [Int], _ b: [Int]) -> [Int]? {
        let rank = max(a.count, b.count)
        var out = [Int](repeating: 1, count: rank)
        for i in 0..<rank {
            let da = i < rank - a.count ? 1 : a[i - (rank - a.count)]
            let db = i < rank - b.count ? 1 : b[i - (rank - b.count)]
            if da == db || db == 1 { out[i] = da } else if da == 1 { out[i] = db } else { return nil }
        }
        return out
    }

    /// Plans the broadcast of shapes `a` and `b`.
    public init(_ a: [Int], _ b: [Int]) throws {
        if a.contains(where: { $0 < 0 }) { throw BroadcastError.negativeDimension(a) }
        if b.contains(where: { $0 < 0 }) { throw BroadcastError.negativeDimension(b) }
        guard let out = BroadcastLayout.broadcastShape(a, b) else { throw BroadcastError.incompatibleShapes(a, b) }
        let rank = out.count
        let pa = [Int](repeating: 1, count: rank - a.count) + a
        let pb = [Int](repeating: 1, count: rank - b.count) + b
        // Merge dimensions that share a pattern (A present?, B present?).
        var mergedExtent: [Int] = []
        var mergedA: [Bool] = []
        var mergedB: [Bool] = []
        for i in 0..<rank where out[i] != 1 {
            let hasA = pa[i] != 1, hasB = pb[i] != 1
            if let last = mergedExtent.indices.last, mergedA[last] == hasA, mergedB[last] == hasB {
                mergedExtent[last] *= out[i]
            } else {
                mergedExtent.append(out[i]); mergedA.append(hasA); mergedB.append(hasB)
            }
        }
        if mergedExtent.isEmpty { mergedExtent = [1]; mergedA = [true]; mergedB = [true] }
        guard mergedExtent.count <= BroadcastLayout.maxRank else {
            throw BroadcastError.rankTooLarge(mergedExtent.count)
        }
        var sa = [Int](repeating: 0, count: mergedExtent.count)
        var sb = [Int](repeating: 0, count: mergedExtent.count)
        var accA = 1, accB = 1
        for k in stride(from: mergedExtent.count - 1, through: 0, by: -1) {
            if mergedA[k] { sa[k] = accA; accA *= mergedExtent[k] }
            if mergedB[k] { sb[k] = accB; accB *= mergedExtent[k] }
        }
        let pad = BroadcastLayout.maxRank - mergedExtent.count
        outputShape = out
        elementCount = out.reduce(1, *)
        extents = [Int](repeating: 1, count: pad) + mergedExtent
        stridesA = [Int](repeating: 0, count: pad) + sa
        stridesB = [Int](repeating: 0, count: pad) + sb
    }

    /// True when both inputs are read contiguously with the output (no broadcast).
    public var isElementwise: Bool {
        extents[..<(BroadcastLayout.maxRank - 1)].allSatisfy { $0 == 1 }
            && stridesA.last == 1 && stridesB.last == 1
    }

    /// True when input A is read whole and in order while B repeats along its rows: B is one
    /// innermost row (a per-channel PRELU alpha, a channel bias), read afresh for every row.
    public var repeatsBAlongRows: Bool {
        var dense = 1
        for d in stride(from: BroadcastLayout.maxRank - 1, through: 0, by: -1) {
            guard extents[d] == 1 || stridesA[d] == dense else { return false }
            dense *= extents[d]
        }
        return stridesB.last == 1 && stridesB.dropLast().allSatisfy { $0 == 0 }
    }

    /// Number of innermost rows (`elementCount / innerCount`).
    public var rowCount: Int { elementCount == 0 ? 0 : elementCount / innerCount }
    /// Elements per innermost row.
    public var innerCount: Int { extents[BroadcastLayout.maxRank - 1] }

    /// Calls `body(outputOffset, aOffset, bOffset)` for the first element of each innermost
    /// row in `rows` (row-major order), so the body runs the contiguous inner loop with
    /// strides `stridesA.last` / `stridesB.last` (0 or 1). The first row's index is divided
    /// out once; each next row steps the index like an odometer (a few additions per row, where
    /// dividing per row cost more than a 16-element row's work: PRELU over 16 channels).
    @inline(__always)
    public func forEachRow(in rows: Range<Int>, _ body: (Int, Int, Int) -> Void) {
        guard !rows.isEmpty else { return }
        let (e1, e2, e3, e4, inner) = (extents[1], extents[2], extents[3], extents[4], extents[5])
        let (a0, a1, a2, a3, a4) = (stridesA[0], stridesA[1], stridesA[2], stridesA[3], stridesA[4])
        let (b0, b1, b2, b3, b4) = (stridesB[0], stridesB[1], stridesB[2], stridesB[3], stridesB[4])
        var rest = rows.lowerBound
        var i4 = rest % e4; rest /= e4
        var i3 = rest % e3; rest /= e3
        var i2 = rest % e2; rest /= e2
        var i1 = rest % e1; rest /= e1
        let i0 = rest
        var offA = i0 * a0 + i1 * a1 + i2 * a2 + i3 * a3 + i4 * a4
        var offB = i0 * b0 + i1 * b1 + i2 * b2 + i3 * b3 + i4 * b4
        for row in rows {
            body(row * inner, offA, offB)
            i4 += 1; offA += a4; offB += b4
            guard i4 == e4 else { continue }
            i4 = 0; offA += a3 - e4 * a4; offB += b3 - e4 * b4
            i3 += 1
            guard i3 == e3 else { continue }
            i3 = 0; offA += a2 - e3 * a3; offB += b2 - e3 * b3
            i2 += 1
            guard i2 == e2 else { continue }
            i2 = 0; offA += a1 - e2 * a2; offB += b1 - e2 * b2
            i1 += 1
            guard i1 == e1 else { continue }
            i1 = 0; offA += a0 - e1 * a1; offB += b0 - e1 * b1
        }
    }
}

/// Runs `f` over every output element of `layout` in `rows`, reading `a` and `b` with the
/// layout's broadcast strides.
@inline(__always)
func broadcastBinary<A, B, O>(_ layout: BroadcastLayout, rows: Range<Int>,
                              _ a: UnsafePointer<A>, _ b: UnsafePointer<B>, _ out: UnsafeMutablePointer<O>,
                              _ f: (A, B) -> O) {
    let inner = layout.innerCount
    let ia = layout.stridesA[BroadcastLayout.maxRank - 1]
    let ib = layout.stridesB[BroadcastLayout.maxRank - 1]
    layout.forEachRow(in: rows) { o, offA, offB in
        let pa = a + offA, pb = b + offB, po = out + o
        if ia == 1 && ib == 1 {
            for i in 0..<inner { po[i] = f(pa[i], pb[i]) }
        } else if ia == 1 {
            let y = pb[0]
            for i in 0..<inner { po[i] = f(pa[i], y) }
        } else if ib == 1 {
            let x = pa[0]
            for i in 0..<inner { po[i] = f(x, pb[i]) }
        } else {
            let v = f(pa[0], pb[0])
            for i in 0..<inner { po[i] = v }
        }
    }
}
