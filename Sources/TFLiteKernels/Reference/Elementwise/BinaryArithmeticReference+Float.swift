// ADD, SUB, MUL, DIV, SQUARED_DIFFERENCE, MAXIMUM, MINIMUM, POW, FLOOR_DIV, FLOOR_MOD
// on float32 with broadcasting and the fused activation clamp.

/// Two-input arithmetic kernels (reference versions: plain scalar loops).
public enum BinaryArithmeticReference {
    /// The arithmetic operation.
    public enum Operation: Sendable, Equatable, CaseIterable {
        case add, sub, mul, div, squaredDifference, maximum, minimum, pow, floorDiv, floorMod
    }

    /// `out = clamp(op(a, b), minimum, maximum)` over the broadcast layout, for the
    /// innermost rows `rows` (pass `0..<layout.rowCount` for all).
    /// - Precondition: `rows` lies in `0..<layout.rowCount`; the pointers hold the layout's operand and output elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func float32(_ op: Operation, layout: BroadcastLayout, rows: Range<Int>,
                               _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>,
                               _ out: UnsafeMutablePointer<Float>,
                               activationMin lo: Float = -.infinity, activationMax hi: Float = .infinity) {
        KernelPrecondition.check(rows.lowerBound >= 0 && rows.upperBound <= layout.rowCount, "rows \(rows) outside 0..<\(layout.rowCount)")
        @inline(__always) func clamp(_ x: Float) -> Float { Swift.min(Swift.max(x, lo), hi) }
        switch op {
        case .add: broadcastBinary(layout, rows: rows, a, b, out) { clamp($0 + $1) }
        case .sub: broadcastBinary(layout, rows: rows, a, b, out) { clamp($0 - $1) }
        case .mul: broadcastBinary(layout, rows: rows, a, b, out) { clamp($0 * $1) }
        case .div: broadcastBinary(layout, rows: rows, a, b, out) { clamp($0 / $1) }
        case .squaredDifference: broadcastBinary(layout, rows: rows, a, b, out) { let d = $0 - $1; return d * d }
        case .maximum: broadcastBinary(layout, rows: rows, a, b, out) { $0 > $1 ? $0 : $1 }
        case .minimum: broadcastBinary(layout, rows: rows, a, b, out) { $0 < $1 ? $0 : $1 }
        case .pow: broadcastBinary(layout, rows: rows, a, b, out) { ElementwiseMath.pow($0, $1) }
        case .floorDiv: broadcastBinary(layout, rows: rows, a, b, out) { ($0 / $1).rounded(.down) }
        case .floorMod:
            broadcastBinary(layout, rows: rows, a, b, out) { x, y in
                let m = ElementwiseMath.fmod(x, y)
                return (m != 0 && ((y < 0) != (m < 0))) ? m + y : m
            }
        }
    }
}
