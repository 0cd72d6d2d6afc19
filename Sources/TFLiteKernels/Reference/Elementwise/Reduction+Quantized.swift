// Quantized MEAN and SUM as the reference kernels compute them: an integer sum per output,
// zero-point correction, and one fixed-point requantization (for MEAN the 1/count factor
// is folded into the multiplier).

extension ReductionReference {
    /// Quantization of the input and output of a quantized reduction.
    public struct QuantizedMeanParams: Sendable, Equatable {
        /// Input scale.
        public var inputScale: Float
        /// Input zero point.
        public var inputZeroPoint: Int32
        /// Output scale.
        public var outputScale: Float
        /// Output zero point.
        public var outputZeroPoint: Int32
        /// `inputScale / outputScale` (double precision) as a fixed-point multiplier.
        public var multiplier: QuantizedMultiplier

        /// Creates the parameters.
        public init(inputScale: Float, inputZeroPoint: Int32, outputScale: Float, outputZeroPoint: Int32) {
            self.inputScale = inputScale; self.inputZeroPoint = inputZeroPoint
            self.outputScale = outputScale; self.outputZeroPoint = outputZeroPoint
            multiplier = QuantizedMultiplier(Double(inputScale) / Double(outputScale))
        }

        /// True when input and output share scale and zero point.
        public var sameQuantization: Bool { inputScale == outputScale && inputZeroPoint == outputZeroPoint }
    }

    /// Quantized MEAN (`computeSum == false`) or SUM as the reference's integer
    /// `QuantizedMeanOrSum`: sum the raw values, remove the zero point, and requantize with
    /// `inputScale / outputScale` (for MEAN folded with `1 / count`). `scratch` must hold
    /// `plan.outputCount` values.
    @inline(__always)
    static func quantizedMeanOrSum<T: FixedWidthInteger>(_ p: QuantizedMeanParams, plan: ReductionPlan, computeSum: Bool,
                                                         scratch: UnsafeMutablePointer<Int32>,
                                                         _ x: UnsafePointer<T>, _ out: UnsafeMutablePointer<T>) {
        let lo = Int32(T.min), hi = Int32(T.max)
        if plan.axes.isEmpty {      // nothing to reduce: the reference copies the input
            for j in 0..<plan.outputCount { out[j] = x[j] }
            return
        }
        for j in 0..<plan.outputCount { scratch[j] = 0; out[j] = 0 }
        let n = Int64(plan.reducedCount)
        guard n > 0 else { return }
        plan.forEach { i, o in scratch[o] = scratch[o] &+ Int32(x[i]) }
        var multiplier = p.multiplier.multiplier
        var shift = p.multiplier.shift
        if !computeSum {
            var s = 63 - UInt64(n).leadingZeroBitCount
            s = Swift.min(s, 32)
            s = Swift.min(s, 31 + shift)
            multiplier = Int32(truncatingIfNeeded: (Int64(multiplier) << Int64(s)) / n)
            shift -= s
        }
        for j in 0..<plan.outputCount {
            let shifted = Int32(truncatingIfNeeded: Int64(scratch[j]) - Int64(p.inputZeroPoint) * n)
            let v = multiplyByQuantizedMultiplier(shifted, multiplier, shift) &+ p.outputZeroPoint
            out[j] = T(truncatingIfNeeded: Swift.min(Swift.max(v, lo), hi))
        }
    }

    /// Quantized MEAN on int8.
    public static func meanInt8(_ p: QuantizedMeanParams, plan: ReductionPlan,
                                scratch: UnsafeMutablePointer<Int32>, _ x: UnsafePointer<Int8>, _ out: UnsafeMutablePointer<Int8>) {
        quantizedMeanOrSum(p, plan: plan, computeSum: false, scratch: scratch, x, out)
    }
    /// Quantized MEAN on uint8.
    public static func meanUInt8(_ p: QuantizedMeanParams, plan: ReductionPlan,
                                 scratch: UnsafeMutablePointer<Int32>, _ x: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>) {
        quantizedMeanOrSum(p, plan: plan, computeSum: false, scratch: scratch, x, out)
    }
    /// Quantized MEAN on int16 (zero points 0).
    public static func meanInt16(_ p: QuantizedMeanParams, plan: ReductionPlan,
                                 scratch: UnsafeMutablePointer<Int32>, _ x: UnsafePointer<Int16>, _ out: UnsafeMutablePointer<Int16>) {
        quantizedMeanOrSum(p, plan: plan, computeSum: false, scratch: scratch, x, out)
    }
    /// Quantized SUM on int8.
    public static func sumInt8(_ p: QuantizedMeanParams, plan: ReductionPlan, scratch: UnsafeMutablePointer<Int32>,
                               _ x: UnsafePointer<Int8>, _ out: UnsafeMutablePointer<Int8>) {
        quantizedMeanOrSum(p, plan: plan, computeSum: true, scratch: scratch, x, out)
    }
    /// Quantized SUM on uint8.
    public static func sumUInt8(_ p: QuantizedMeanParams, plan: ReductionPlan, scratch: UnsafeMutablePointer<Int32>,
                                _ x: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>) {
        quantizedMeanOrSum(p, plan: plan, computeSum: true, scratch: scratch, x, out)
    }
    /// Quantized SUM on int16.
    public static func sumInt16(_ p: QuantizedMeanParams, plan: ReductionPlan, scratch: UnsafeMutablePointer<Int32>,
                                _ x: UnsafePointer<Int16>, _ out: UnsafeMutablePointer<Int16>) {
        quantizedMeanOrSum(p, plan: plan, computeSum: true, scratch: scratch, x, out)
    }
}
