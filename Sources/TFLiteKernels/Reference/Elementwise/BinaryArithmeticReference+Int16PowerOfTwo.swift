// The reference runtime's int16 ADD and SUB for power-of-two scales and zero points 0 (the
// `pot_scale_int16` path, LSTM-style fixed-point tensors): the input with the smaller scale is
// shifted right with rounding onto the output scale, then added to (or subtracted from) the
// other with int16 saturation. SUB also broadcasts (the reference's BroadcastSub16POTSlow);
// the reference's power-of-two ADD has no broadcasting form (it aborts on unequal sizes), so
// the interpreter rejects that combination at prepare.

import Foundation

extension BinaryArithmeticReference {
    /// Parameters of the power-of-two int16 ADD and SUB, from the reference `Prepare`.
    public struct Int16PowerOfTwoAddParams: Sendable, Equatable {
        /// Right shift of input 1 onto the output scale (0 or more).
        public var input1RightShift: Int
        /// Right shift of input 2 onto the output scale (0 or more; one of the two shifts is 0).
        public var input2RightShift: Int
        /// Fused activation clamp.
        public var activationMin: Int32
        /// Fused activation clamp.
        public var activationMax: Int32
        /// SUB (input 1 − input 2) instead of ADD.
        public var subtract: Bool

        /// Creates parameters from the two right shifts and the clamp.
        public init(input1RightShift: Int, input2RightShift: Int, activationMin: Int32, activationMax: Int32,
                    subtract: Bool = false) {
            self.input1RightShift = input1RightShift; self.input2RightShift = input2RightShift
            self.activationMin = activationMin; self.activationMax = activationMax
            self.subtract = subtract
        }
    }

    /// The reference's `CheckedLog2`: `log2(scale)` rounded to the nearest integer, and whether
    /// the scale is within 1e-3 (in log2) of that power of two, computed in single precision.
    public static func checkedLog2(_ scale: Float) -> (log2: Int, isPowerOfTwo: Bool) {
        let x = logf(scale) * (1 / logf(2))
        let rounded = x.rounded(.toNearestOrAwayFromZero)
        return (Int(rounded), Swift.abs(x - rounded) < 1e-3)
    }

    /// gemmlowp's `RoundingDivideByPOT` on an int16 value: the mask is computed in 16 bits.
    @inline(__always)
    static func roundingDivideByPOT16(_ x: Int16, _ exponent: Int) -> Int32 {
        guard exponent > 0 else { return Int32(x) }
        let mask = Int32(Int16(truncatingIfNeeded: exponent < 64 ? (Int64(1) << exponent) &- 1 : -1))
        let value = Int32(x)
        let remainder = value & mask
        let threshold = (mask >> 1) + (value < 0 ? 1 : 0)
        return (value >> Int32(Swift.min(exponent, 31))) + (remainder > threshold ? 1 : 0)
    }

    /// One power-of-two int16 ADD (or SUB) element: each input shifted right with rounding,
    /// truncated to int16, combined, saturated to int16 and clamped to the activation range.
    @inline(__always)
    public static func int16PowerOfTwoAddElement(_ a: Int16, _ b: Int16, _ p: Int16PowerOfTwoAddParams) -> Int16 {
        // The shifted value is reinterpreted as an int16 fixed-point number, then added with saturation.
        let x16 = Int32(Int16(truncatingIfNeeded: roundingDivideByPOT16(a, p.input1RightShift)))
        let y16 = Int32(Int16(truncatingIfNeeded: roundingDivideByPOT16(b, p.input2RightShift)))
        let sum = p.subtract ? x16 - y16 : x16 + y16
        let saturated = Swift.min(Swift.max(sum, -32768), 32767)
        return Int16(truncatingIfNeeded: Swift.min(p.activationMax, Swift.max(p.activationMin, saturated)))
    }

    /// Power-of-two int16 ADD (or SUB) of the same-shape elements in `range`.
    /// - Precondition: `range.lowerBound ≥ 0`; every pointer holds at least `range.upperBound` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func int16PowerOfTwoAdd(_ p: Int16PowerOfTwoAddParams, range: Range<Int>, _ a: UnsafePointer<Int16>,
                                          _ b: UnsafePointer<Int16>, _ out: UnsafeMutablePointer<Int16>) {
        KernelPrecondition.validRange(range)
        for i in range { out[i] = int16PowerOfTwoAddElement(a[i], b[i], p) }
    }

    /// Power-of-two int16 SUB (or ADD) with broadcasting, over the innermost `rows` of `layout`.
    /// - Precondition: `rows` lies in `0..<layout.rowCount`; the pointers hold the layout's operand and output elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func int16PowerOfTwoAdd(_ p: Int16PowerOfTwoAddParams, layout: BroadcastLayout, rows: Range<Int>,
                                          _ a: UnsafePointer<Int16>, _ b: UnsafePointer<Int16>,
                                          _ out: UnsafeMutablePointer<Int16>) {
        KernelPrecondition.check(rows.lowerBound >= 0 && rows.upperBound <= layout.rowCount, "rows \(rows) outside 0..<\(layout.rowCount)")
        broadcastBinary(layout, rows: rows, a, b, out) { int16PowerOfTwoAddElement($0, $1, p) }
    }
}
