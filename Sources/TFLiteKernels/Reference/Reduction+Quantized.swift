// Quantized MEAN and SUM as the reference kernels compute them. Three MEAN paths exist:
// the 4D spatial mean (axes {1, 2}, keep_dims; integer requantization for int8/int16,
// a fixed-point multiplier with a float-derived bias for uint8), a raw integer mean when
// input and output share scale and zero point, and a float-rescaled mean otherwise.

extension ReductionKernels {
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

    /// Quantized MEAN. `scratch` must hold `plan.outputCount` values. `spatial` selects the
    /// reference's 4D axes-{1, 2} keep-dims path.
    @inline(__always)
    static func quantizedMean<T: FixedWidthInteger>(_ p: QuantizedMeanParams, plan: ReductionPlan, spatial: Bool,
                                                    scratch: UnsafeMutablePointer<Int32>,
                                                    _ x: UnsafePointer<T>, _ out: UnsafeMutablePointer<T>) {
        let n = plan.reducedCount
        let lo = Int32(T.min), hi = Int32(T.max)
        guard n > 0 else { return }
        if spatial {
            if T.self == UInt8.self {
                let count = Float(n)
                let bias = p.outputZeroPoint &- saturatingInt32(Float(p.inputZeroPoint) * p.inputScale / p.outputScale)
                let m = QuantizedMultiplier(Double(p.inputScale / (count * p.outputScale)))
                for j in 0..<plan.outputCount { scratch[j] = 0 }
                plan.forEach { i, o in scratch[o] = scratch[o] &+ Int32(x[i]) }
                for j in 0..<plan.outputCount {
                    let acc = multiplyByQuantizedMultiplier(scratch[j], m.multiplier, m.shift) &+ bias
                    out[j] = T(truncatingIfNeeded: Swift.min(Swift.max(acc, lo), hi))
                }
            } else {
                let count = Int32(n)
                for j in 0..<plan.outputCount { scratch[j] = 0 }
                plan.forEach { i, o in scratch[o] = scratch[o] &+ (Int32(x[i]) - p.inputZeroPoint) }
                for j in 0..<plan.outputCount {
                    var acc = multiplyByQuantizedMultiplier(scratch[j], p.multiplier.multiplier, p.multiplier.shift)
                    acc = acc > 0 ? (acc + count / 2) / count : (acc - count / 2) / count
                    acc = acc &+ p.outputZeroPoint
                    out[j] = T(truncatingIfNeeded: Swift.min(Swift.max(acc, lo), hi))
                }
            }
            return
        }
        for j in 0..<plan.outputCount { scratch[j] = 0 }
        plan.forEach { i, o in scratch[o] = scratch[o] &+ Int32(x[i]) }
        if p.sameQuantization {
            let count = Int32(n)
            for j in 0..<plan.outputCount { out[j] = T(truncatingIfNeeded: scratch[j] / count) }
            return
        }
        let scale = p.inputScale / p.outputScale
        let bias = Float(-p.inputZeroPoint) * scale + 0.5
        let count = Float(n)
        for j in 0..<plan.outputCount {
            let mean = Float(scratch[j]) / count
            var result = (mean * scale + bias).rounded(.toNearestOrAwayFromZero) + Float(p.outputZeroPoint)
            result = Swift.min(result, Float(hi))
            result = Swift.max(result, Float(lo))
            out[j] = T(truncatingIfNeeded: saturatingInt32(result))
        }
    }

    /// Quantized SUM with rescaling (the reference's float-rescaled path, used when input and
    /// output quantization differ). `scratch` must hold `plan.outputCount` values.
    @inline(__always)
    static func quantizedSum<T: FixedWidthInteger>(_ p: QuantizedMeanParams, plan: ReductionPlan,
                                                   scratch: UnsafeMutablePointer<Int32>,
                                                   _ x: UnsafePointer<T>, _ out: UnsafeMutablePointer<T>) {
        for j in 0..<plan.outputCount { scratch[j] = 0 }
        plan.forEach { i, o in scratch[o] = scratch[o] &+ Int32(x[i]) }
        let scale = p.inputScale / p.outputScale
        let bias = Float(-p.inputZeroPoint) * scale * Float(plan.reducedCount) + 0.5
        for j in 0..<plan.outputCount {
            let v = (Float(scratch[j]) * scale + bias).rounded(.toNearestOrAwayFromZero)
            let value = saturatingInt32(v) &+ p.outputZeroPoint
            out[j] = T(truncatingIfNeeded: value)
        }
    }

    /// Quantized MEAN on int8.
    public static func meanInt8(_ p: QuantizedMeanParams, plan: ReductionPlan, spatial: Bool,
                                scratch: UnsafeMutablePointer<Int32>, _ x: UnsafePointer<Int8>, _ out: UnsafeMutablePointer<Int8>) {
        quantizedMean(p, plan: plan, spatial: spatial, scratch: scratch, x, out)
    }
    /// Quantized MEAN on uint8.
    public static func meanUInt8(_ p: QuantizedMeanParams, plan: ReductionPlan, spatial: Bool,
                                 scratch: UnsafeMutablePointer<Int32>, _ x: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>) {
        quantizedMean(p, plan: plan, spatial: spatial, scratch: scratch, x, out)
    }
    /// Quantized MEAN on int16 (zero points 0).
    public static func meanInt16(_ p: QuantizedMeanParams, plan: ReductionPlan, spatial: Bool,
                                 scratch: UnsafeMutablePointer<Int32>, _ x: UnsafePointer<Int16>, _ out: UnsafeMutablePointer<Int16>) {
        quantizedMean(p, plan: plan, spatial: spatial, scratch: scratch, x, out)
    }
    /// Rescaling quantized SUM on int8.
    public static func sumInt8(_ p: QuantizedMeanParams, plan: ReductionPlan, scratch: UnsafeMutablePointer<Int32>,
                               _ x: UnsafePointer<Int8>, _ out: UnsafeMutablePointer<Int8>) {
        quantizedSum(p, plan: plan, scratch: scratch, x, out)
    }
    /// Rescaling quantized SUM on uint8.
    public static func sumUInt8(_ p: QuantizedMeanParams, plan: ReductionPlan, scratch: UnsafeMutablePointer<Int32>,
                                _ x: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>) {
        quantizedSum(p, plan: plan, scratch: scratch, x, out)
    }
}
