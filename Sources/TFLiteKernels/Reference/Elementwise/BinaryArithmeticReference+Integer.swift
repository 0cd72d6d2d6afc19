// Two-input arithmetic on int32 / int64 (non-quantized integers), as the reference runtime
// computes it: wrapping add/sub/mul, truncating DIV, floor semantics for FLOOR_DIV/MOD.

extension BinaryArithmeticReference {
    /// Errors of integer arithmetic.
    public enum IntegerError: Error, Equatable, Sendable {
        /// Integer division or modulo by zero.
        case divisionByZero
    }

    /// Integer arithmetic for int32. DIV, FLOOR_DIV and FLOOR_MOD throw on a zero divisor.
    /// - Precondition: `rows` lies in `0..<layout.rowCount`; the pointers hold the layout's operand and output elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func int32(_ op: Operation, layout: BroadcastLayout, rows: Range<Int>,
                             _ a: UnsafePointer<Int32>, _ b: UnsafePointer<Int32>,
                             _ out: UnsafeMutablePointer<Int32>,
                             activationMin lo: Int32 = .min, activationMax hi: Int32 = .max) throws {
        KernelPrecondition.check(rows.lowerBound >= 0 && rows.upperBound <= layout.rowCount, "rows \(rows) outside 0..<\(layout.rowCount)")
        try integer(op, layout: layout, rows: rows, a, b, out, lo, hi)
    }

    /// Integer arithmetic for int64. DIV, FLOOR_DIV and FLOOR_MOD throw on a zero divisor.
    /// - Precondition: `rows` lies in `0..<layout.rowCount`; the pointers hold the layout's operand and output elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func int64(_ op: Operation, layout: BroadcastLayout, rows: Range<Int>,
                             _ a: UnsafePointer<Int64>, _ b: UnsafePointer<Int64>,
                             _ out: UnsafeMutablePointer<Int64>,
                             activationMin lo: Int64 = .min, activationMax hi: Int64 = .max) throws {
        KernelPrecondition.check(rows.lowerBound >= 0 && rows.upperBound <= layout.rowCount, "rows \(rows) outside 0..<\(layout.rowCount)")
        try integer(op, layout: layout, rows: rows, a, b, out, lo, hi)
    }

    @inline(__always)
    static func integer<T: FixedWidthInteger & SignedInteger>(
        _ op: Operation, layout: BroadcastLayout, rows: Range<Int>,
        _ a: UnsafePointer<T>, _ b: UnsafePointer<T>, _ out: UnsafeMutablePointer<T>, _ lo: T, _ hi: T
    ) throws {
        @inline(__always) func clamp(_ x: T) -> T { Swift.min(Swift.max(x, lo), hi) }
        if op == .div || op == .floorDiv || op == .floorMod {
            // Check every divisor the broadcast will read.
            var zero = false
            broadcastBinary(layout, rows: rows, a, b, out) { _, y in
                if y == 0 { zero = true }
                return 0
            }
            if zero { throw IntegerError.divisionByZero }
        }
        switch op {
        case .add: broadcastBinary(layout, rows: rows, a, b, out) { clamp($0 &+ $1) }
        case .sub: broadcastBinary(layout, rows: rows, a, b, out) { clamp($0 &- $1) }
        case .mul: broadcastBinary(layout, rows: rows, a, b, out) { clamp($0 &* $1) }
        case .div:
            broadcastBinary(layout, rows: rows, a, b, out) { x, y in
                clamp(y == -1 ? 0 &- x : x / y)
            }
        case .squaredDifference: broadcastBinary(layout, rows: rows, a, b, out) { let d = $0 &- $1; return d &* d }
        case .maximum: broadcastBinary(layout, rows: rows, a, b, out) { $0 > $1 ? $0 : $1 }
        case .minimum: broadcastBinary(layout, rows: rows, a, b, out) { $0 < $1 ? $0 : $1 }
        case .pow:
            broadcastBinary(layout, rows: rows, a, b, out) { x, y in
                // The reference computes integer POW by repeated squaring.
                var result: T = 1, base = x, e = y
                if e < 0 { return 0 }
                while e > 0 {
                    if e & 1 == 1 { result = result &* base }
                    base = base &* base
                    e >>= 1
                }
                return result
            }
        case .floorDiv:
            broadcastBinary(layout, rows: rows, a, b, out) { x, y in
                let q = y == -1 ? 0 &- x : x / y
                return (x % y != 0 && ((x < 0) != (y < 0))) ? q - 1 : q
            }
        case .floorMod:
            broadcastBinary(layout, rows: rows, a, b, out) { x, y in
                let m = y == -1 ? 0 : x % y
                return (m != 0 && ((y < 0) != (m < 0))) ? m + y : m
            }
        }
    }
}
