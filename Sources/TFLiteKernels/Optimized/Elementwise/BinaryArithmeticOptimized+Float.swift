// Optimized float32 ADD / SUB / MUL / DIV / MAXIMUM / MINIMUM / SQUARED_DIFFERENCE with the
// fused clamp: unit-stride loops (one per broadcast pattern, so the compiler vectorizes
// them) over contiguous runs, and a flat entry point for same-shape operands that the
// interpreter splits across threads. Tested against `BinaryArithmeticReference.float32`.

/// Optimized two-input float kernels.
public enum BinaryArithmeticOptimized {
    /// True for the operations these kernels implement.
    public static func supportsFloat(_ op: BinaryArithmeticReference.Operation) -> Bool {
        switch op {
        case .add, .sub, .mul, .div, .maximum, .minimum, .squaredDifference: return true
        default: return false
        }
    }

    @inline(__always)
    static func run(_ n: Int, _ a: UnsafePointer<Float>, _ sa: Int, _ b: UnsafePointer<Float>, _ sb: Int,
                    _ out: UnsafeMutablePointer<Float>, _ lo: Float, _ hi: Float, _ f: (Float, Float) -> Float) {
        // One loop per stride pattern, so each vectorizes with unit strides.
        if sa == 1 && sb == 1 {
            for i in 0..<n { out[i] = Swift.min(Swift.max(f(a[i], b[i]), lo), hi) }
        } else if sa == 1 {
            let y = b[0]
            for i in 0..<n { out[i] = Swift.min(Swift.max(f(a[i], y), lo), hi) }
        } else if sb == 1 {
            let x = a[0]
            for i in 0..<n { out[i] = Swift.min(Swift.max(f(x, b[i]), lo), hi) }
        } else {
            let v = Swift.min(Swift.max(f(a[0], b[0]), lo), hi)
            for i in 0..<n { out[i] = v }
        }
    }

    @inline(__always)
    static func dispatch(_ op: BinaryArithmeticReference.Operation, _ n: Int, _ a: UnsafePointer<Float>, _ sa: Int,
                         _ b: UnsafePointer<Float>, _ sb: Int, _ out: UnsafeMutablePointer<Float>, _ lo: Float, _ hi: Float) {
        switch op {
        case .add: run(n, a, sa, b, sb, out, lo, hi) { $0 + $1 }
        case .sub: run(n, a, sa, b, sb, out, lo, hi) { $0 - $1 }
        case .mul: run(n, a, sa, b, sb, out, lo, hi) { $0 * $1 }
        case .div: run(n, a, sa, b, sb, out, lo, hi) { $0 / $1 }
        // Like the reference, only ADD / SUB / MUL / DIV apply the fused clamp.
        case .maximum: run(n, a, sa, b, sb, out, -.infinity, .infinity) { $0 > $1 ? $0 : $1 }
        case .minimum: run(n, a, sa, b, sb, out, -.infinity, .infinity) { $0 < $1 ? $0 : $1 }
        case .squaredDifference: run(n, a, sa, b, sb, out, -.infinity, .infinity) { ($0 - $1) * ($0 - $1) }
        default: break
        }
    }

    /// Same-shape elementwise operation on `range` of the flat buffers.
    /// - Precondition: `range.lowerBound ≥ 0`; every pointer holds at least `range.upperBound` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func float32Elementwise(_ op: BinaryArithmeticReference.Operation, range: Range<Int>,
                                          _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>,
                                          _ out: UnsafeMutablePointer<Float>,
                                          activationMin lo: Float = -.infinity, activationMax hi: Float = .infinity) {
        KernelPrecondition.validRange(range)
        let s = range.lowerBound
        dispatch(op, range.count, a + s, 1, b + s, 1, out + s, lo, hi)
    }

    /// Broadcast operation over the innermost `rows` of `layout`.
    /// - Precondition: `rows` lies in `0..<layout.rowCount`; the pointers hold the layout's operand and output elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func float32(_ op: BinaryArithmeticReference.Operation, layout: BroadcastLayout, rows: Range<Int>,
                               _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>,
                               activationMin lo: Float = -.infinity, activationMax hi: Float = .infinity) {
        KernelPrecondition.check(rows.lowerBound >= 0 && rows.upperBound <= layout.rowCount, "rows \(rows) outside 0..<\(layout.rowCount)")
        let inner = layout.innerCount
        let sa = layout.stridesA[BroadcastLayout.maxRank - 1], sb = layout.stridesB[BroadcastLayout.maxRank - 1]
        layout.forEachRow(in: rows) { o, offA, offB in
            dispatch(op, inner, a + offA, sa, b + offB, sb, out + o, lo, hi)
        }
    }
}
