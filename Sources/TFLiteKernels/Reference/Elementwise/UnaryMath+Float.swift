// One-input float math: ABS, NEG, EXP, LOG, SQRT, RSQRT, SQUARE, FLOOR, CEIL, ROUND, SIN, COS.

/// One-input elementwise math kernels.
public enum ElementwiseUnaryReference {
    /// The function.
    public enum Operation: Sendable, Equatable, CaseIterable {
        case abs, neg, exp, log, sqrt, rsqrt, square, floor, ceil, round, sin, cos, sign
    }

    /// ROUND as the reference does it: to nearest, ties to even.
    @inline(__always)
    public static func roundHalfToEven(_ x: Float) -> Float { x.rounded(.toNearestOrEven) }

    @inline(__always)
    static func apply(_ op: Operation, count: Int, _ x: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>,
                      _ f: (Float) -> Float) {
        for i in 0..<count { out[i] = f(x[i]) }
    }

    /// `out = op(x)` over `range` of a float32 buffer.
    /// - Precondition: `range.lowerBound ≥ 0`; every pointer holds at least `range.upperBound` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func float32(_ op: Operation, range: Range<Int>, _ x: UnsafePointer<Float>,
                               _ out: UnsafeMutablePointer<Float>) {
        KernelPrecondition.validRange(range)
        let x = x + range.lowerBound, out = out + range.lowerBound, n = range.count
        switch op {
        case .abs: apply(op, count: n, x, out) { Swift.abs($0) }
        case .neg: apply(op, count: n, x, out) { -$0 }
        case .exp: apply(op, count: n, x, out) { ElementwiseMath.exp($0) }
        case .log: apply(op, count: n, x, out) { ElementwiseMath.log($0) }
        case .sqrt: apply(op, count: n, x, out) { $0.squareRoot() }
        case .rsqrt: apply(op, count: n, x, out) { 1 / $0.squareRoot() }
        case .square: apply(op, count: n, x, out) { $0 * $0 }
        case .floor: apply(op, count: n, x, out) { $0.rounded(.down) }
        case .ceil: apply(op, count: n, x, out) { $0.rounded(.up) }
        case .round: apply(op, count: n, x, out) { roundHalfToEven($0) }
        case .sin: apply(op, count: n, x, out) { ElementwiseMath.sin($0) }
        case .cos: apply(op, count: n, x, out) { ElementwiseMath.cos($0) }
        case .sign: apply(op, count: n, x, out) { $0 > 0 ? 1 : ($0 < 0 ? -1 : 0) }
        }
    }

    /// ABS / NEG / SQUARE / SIGN on int32 (wrapping).
    /// - Precondition: `count ≥ 0`; every pointer holds at least `count` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func int32(_ op: Operation, count: Int, _ x: UnsafePointer<Int32>,
                             _ out: UnsafeMutablePointer<Int32>) {
        KernelPrecondition.validCount(count)
        for i in 0..<count {
            let v = x[i]
            switch op {
            case .abs: out[i] = v < 0 ? 0 &- v : v
            case .neg: out[i] = 0 &- v
            case .square: out[i] = v &* v
            case .sign: out[i] = v > 0 ? 1 : (v < 0 ? -1 : 0)
            default: out[i] = v
            }
        }
    }

    /// ABS / NEG / SQUARE / SIGN on int64 (wrapping).
    /// - Precondition: `count ≥ 0`; every pointer holds at least `count` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func int64(_ op: Operation, count: Int, _ x: UnsafePointer<Int64>,
                             _ out: UnsafeMutablePointer<Int64>) {
        KernelPrecondition.validCount(count)
        for i in 0..<count {
            let v = x[i]
            switch op {
            case .abs: out[i] = v < 0 ? 0 &- v : v
            case .neg: out[i] = 0 &- v
            case .square: out[i] = v &* v
            case .sign: out[i] = v > 0 ? 1 : (v < 0 ? -1 : 0)
            default: out[i] = v
            }
        }
    }

    /// True for the operations `int32` / `int64` implement.
    public static func supportsIntegers(_ op: Operation) -> Bool {
        op == .abs || op == .neg || op == .square || op == .sign
    }
}
