// GREATER, GREATER_EQUAL, LESS, LESS_EQUAL, EQUAL, NOT_EQUAL with broadcasting. Quantized
// inputs are compared after rescaling both onto a common fixed-point scale (left shift 8),
// as the reference does, so inputs with different scales compare by real value.

/// Comparison kernels; outputs are bool bytes (0 or 1).
public enum ElementwiseComparisonReference {
    /// The comparison.
    public enum Operation: Sendable, Equatable, CaseIterable {
        case greater, greaterEqual, less, lessEqual, equal, notEqual
    }

    @inline(__always)
    static func compare<T: Comparable>(_ op: Operation, _ x: T, _ y: T) -> Bool {
        switch op {
        case .greater: return x > y
        case .greaterEqual: return x >= y
        case .less: return x < y
        case .lessEqual: return x <= y
        case .equal: return x == y
        case .notEqual: return x != y
        }
    }

    @inline(__always)
    static func run<T: Comparable>(_ op: Operation, _ layout: BroadcastLayout, _ a: UnsafePointer<T>,
                                   _ b: UnsafePointer<T>, _ out: UnsafeMutablePointer<Bool>) {
        let rows = 0..<layout.rowCount
        switch op {
        case .greater: broadcastBinary(layout, rows: rows, a, b, out) { $0 > $1 }
        case .greaterEqual: broadcastBinary(layout, rows: rows, a, b, out) { $0 >= $1 }
        case .less: broadcastBinary(layout, rows: rows, a, b, out) { $0 < $1 }
        case .lessEqual: broadcastBinary(layout, rows: rows, a, b, out) { $0 <= $1 }
        case .equal: broadcastBinary(layout, rows: rows, a, b, out) { $0 == $1 }
        case .notEqual: broadcastBinary(layout, rows: rows, a, b, out) { $0 != $1 }
        }
    }

    /// Float comparison.
    public static func float32(_ op: Operation, layout: BroadcastLayout, _ a: UnsafePointer<Float>,
                               _ b: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Bool>) {
        run(op, layout, a, b, out)
    }
    /// int32 comparison.
    public static func int32(_ op: Operation, layout: BroadcastLayout, _ a: UnsafePointer<Int32>,
                             _ b: UnsafePointer<Int32>, _ out: UnsafeMutablePointer<Bool>) {
        run(op, layout, a, b, out)
    }
    /// int64 comparison.
    public static func int64(_ op: Operation, layout: BroadcastLayout, _ a: UnsafePointer<Int64>,
                             _ b: UnsafePointer<Int64>, _ out: UnsafeMutablePointer<Bool>) {
        run(op, layout, a, b, out)
    }
    /// Bool comparison (EQUAL / NOT_EQUAL; ordering treats false < true).
    public static func bool(_ op: Operation, layout: BroadcastLayout, _ a: UnsafePointer<UInt8>,
                            _ b: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<Bool>) {
        broadcastBinary(layout, rows: 0..<layout.rowCount, a, b, out) {
            compare(op, UInt8($0 != 0 ? 1 : 0), UInt8($1 != 0 ? 1 : 0))
        }
    }

    /// Fixed-point parameters of a quantized comparison.
    public struct QuantizedParams: Sendable, Equatable {
        /// Left shift applied to zero-point-corrected inputs (8).
        public var leftShift: Int
        /// `-zeroPoint` of input 1.
        public var input1Offset: Int32
        /// `-zeroPoint` of input 2.
        public var input2Offset: Int32
        /// Input 1 scale as a fixed-point multiplier.
        public var input1Multiplier: QuantizedMultiplier
        /// Input 2 scale as a fixed-point multiplier.
        public var input2Multiplier: QuantizedMultiplier

        /// Parameters as the reference computes them.
        public init(input1Scale: Float, input1ZeroPoint: Int32, input2Scale: Float, input2ZeroPoint: Int32) {
            leftShift = 8
            input1Offset = -input1ZeroPoint
            input2Offset = -input2ZeroPoint
            input1Multiplier = QuantizedMultiplier(Double(input1Scale))
            input2Multiplier = QuantizedMultiplier(Double(input2Scale))
        }

        @inline(__always)
        func rescale1(_ x: Int32) -> Int32 {
            multiplyByQuantizedMultiplierSmallerThanOne((x + input1Offset) &* (Int32(1) << Int32(leftShift)),
                                                        input1Multiplier.multiplier, input1Multiplier.shift)
        }
        @inline(__always)
        func rescale2(_ x: Int32) -> Int32 {
            multiplyByQuantizedMultiplierSmallerThanOne((x + input2Offset) &* (Int32(1) << Int32(leftShift)),
                                                        input2Multiplier.multiplier, input2Multiplier.shift)
        }
    }

    /// Quantized int8 comparison.
    public static func int8(_ op: Operation, layout: BroadcastLayout, _ a: UnsafePointer<Int8>,
                            _ b: UnsafePointer<Int8>, _ out: UnsafeMutablePointer<Bool>, _ p: QuantizedParams) {
        broadcastBinary(layout, rows: 0..<layout.rowCount, a, b, out) {
            compare(op, p.rescale1(Int32($0)), p.rescale2(Int32($1)))
        }
    }
    /// Quantized uint8 comparison.
    public static func uint8(_ op: Operation, layout: BroadcastLayout, _ a: UnsafePointer<UInt8>,
                             _ b: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<Bool>, _ p: QuantizedParams) {
        broadcastBinary(layout, rows: 0..<layout.rowCount, a, b, out) {
            compare(op, p.rescale1(Int32($0)), p.rescale2(Int32($1)))
        }
    }
    /// Raw int16 comparison (no rescaling, as the reference for int16).
    public static func int16(_ op: Operation, layout: BroadcastLayout, _ a: UnsafePointer<Int16>,
                             _ b: UnsafePointer<Int16>, _ out: UnsafeMutablePointer<Bool>) {
        run(op, layout, a, b, out)
    }
}

/// LOGICAL_AND / LOGICAL_OR / LOGICAL_NOT on bool bytes.
public enum LogicalReference {
    /// Broadcast AND (`isAnd`) or OR.
    public static func binary(isAnd: Bool, layout: BroadcastLayout, _ a: UnsafePointer<UInt8>,
                              _ b: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>) {
        if isAnd {
            broadcastBinary(layout, rows: 0..<layout.rowCount, a, b, out) { ($0 != 0 && $1 != 0) ? 1 : 0 }
        } else {
            broadcastBinary(layout, rows: 0..<layout.rowCount, a, b, out) { ($0 != 0 || $1 != 0) ? 1 : 0 }
        }
    }
    /// Elementwise NOT.
    /// - Precondition: `count ≥ 0`; every pointer holds at least `count` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func not(count: Int, _ a: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>) {
        KernelPrecondition.validCount(count)
        for i in 0..<count { out[i] = a[i] != 0 ? 0 : 1 }
    }
}
