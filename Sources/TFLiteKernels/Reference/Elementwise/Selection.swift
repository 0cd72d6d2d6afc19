// SELECT / SELECT_V2: `out = condition ? x : y` with broadcasting of all three inputs.
// Works on raw elements of any fixed byte size, so one kernel serves every type.

/// A broadcast of several inputs onto one output shape, by per-input element strides.
public struct MultiBroadcast: Sendable, Equatable {
    /// The output shape.
    public let outputShape: [Int]
    /// Per input, the element stride of each output dimension (0 where broadcast).
    public let strides: [[Int]]

    /// Plans the broadcast of `shapes`; throws when they are incompatible.
    public init(_ shapes: [[Int]]) throws {
        var out: [Int] = []
        for s in shapes {
            if s.contains(where: { $0 < 0 }) { throw BroadcastError.negativeDimension(s) }
            guard let o = BroadcastLayout.broadcastShape(out, s) else {
                throw BroadcastError.incompatibleShapes(out, s)
            }
            out = o
        }
        let rank = out.count
        strides = shapes.map { s in
            let padded = [Int](repeating: 1, count: rank - s.count) + s
            var st = [Int](repeating: 0, count: rank)
            var acc = 1
            for d in stride(from: rank - 1, through: 0, by: -1) {
                st[d] = padded[d] == 1 ? 0 : acc
                acc *= padded[d]
            }
            return st
        }
        outputShape = out
    }

    /// Output element count.
    public var elementCount: Int { outputShape.reduce(1, *) }

    /// Element offset into input `k` of output element `index`.
    @inline(__always)
    public func offset(input k: Int, of index: Int) -> Int {
        var rest = index, off = 0
        let st = strides[k]
        var d = outputShape.count - 1
        while d >= 0 {
            let e = outputShape[d]
            off += (rest % e) * st[d]
            rest /= e
            d -= 1
        }
        return off
    }
}

/// SELECT kernels.
public enum SelectReference {
    /// `out[i] = cond[i] ? x[i] : y[i]` under `plan` (inputs: condition, x, y), copying
    /// `elementSize`-byte elements.
    public static func select(plan: MultiBroadcast, elementSize: Int, condition: UnsafePointer<UInt8>,
                              _ x: UnsafeRawPointer, _ y: UnsafeRawPointer, _ out: UnsafeMutableRawPointer) {
        let n = plan.elementCount
        for i in 0..<n {
            let c = condition[plan.offset(input: 0, of: i)] != 0
            let src = c ? x + plan.offset(input: 1, of: i) * elementSize
                        : y + plan.offset(input: 2, of: i) * elementSize
            (out + i * elementSize).copyMemory(from: src, byteCount: elementSize)
        }
    }
}
