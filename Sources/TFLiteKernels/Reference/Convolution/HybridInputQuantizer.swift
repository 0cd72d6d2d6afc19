/// On-the-fly quantization of float activations for hybrid (dynamic-range) kernels, exactly
/// as TFLite's `tensor_utils::SymmetricQuantizeFloats` / `AsymmetricQuantizeFloats` do.
public enum HybridInputQuantizer {
    /// Symmetric int8 quantization to [-127, 127]: `q = round(x · 127 / max|x|)`.
    /// Returns the scale (`max|x| / 127`, or 1 for an all-zero input).
    @discardableResult
    public static func symmetric(_ values: UnsafePointer<Float>, count: Int,
                                 into quantized: UnsafeMutablePointer<Int8>) -> Float {
        guard count > 0 else { return 1 }
        let (lo, hi) = valueRange(values, count: count)
        let row = RowQuantization(lo: lo, hi: hi, asymmetric: false)
        quantize(values, count: count, row, into: quantized)
        return row.scale
    }

    /// Asymmetric int8 quantization to [-128, 127] with a nudged zero point, as TFLite's
    /// `AsymmetricQuantizeFloats`: the range always includes 0.
    /// Returns the scale and the zero point (`offset`); (1, 0) for an all-zero input.
    @discardableResult
    public static func asymmetric(_ values: UnsafePointer<Float>, count: Int,
                                  into quantized: UnsafeMutablePointer<Int8>) -> (scale: Float, offset: Int32) {
        guard count > 0 else { return (1, 0) }
        let (lo, hi) = valueRange(values, count: count)
        let row = RowQuantization(lo: lo, hi: hi, asymmetric: true)
        quantize(values, count: count, row, into: quantized)
        return (row.scale, row.offset)
    }

    /// How a row is quantized, decided from its least and greatest values as `symmetric` and
    /// `asymmetric` decide it; callers that split a row's two passes (over threads) use it
    /// between them: `bounds`, this, then `quantize`.
    public struct RowQuantization: Sendable {
        /// The scale and zero point the layer's sums are rescaled with.
        public let scale: Float
        public let offset: Int32
        /// `values · inverse + offset`, clamped to `lower ... upper`; nil: every value is 0.
        let inverse: Float?
        let lower: Float, upper: Float

        /// The quantization of a row whose bounds are `lo` and `hi` (as `bounds` finds them).
        public init(lo: Float, hi: Float, asymmetric: Bool) {
            guard asymmetric else {
                let range = max(abs(lo), abs(hi))
                (lower, upper, offset) = (-127, 127, 0)
                if range == 0 { (scale, inverse) = (1, nil) } else { (scale, inverse) = (range / 127, 127 / range) }
                return
            }
            let qmin = -128.0, qmax = 127.0
            let rmin = Double(min(Float(0), lo))
            let rmax = Double(max(Float(0), hi))
            (lower, upper) = (-128, 127)
            if rmin == rmax {
                (scale, offset, inverse) = (1, 0, nil)
                return
            }
            let scale = (rmax - rmin) / (qmax - qmin)
            let zeroFromMin = qmin - rmin / scale
            let zeroFromMax = qmax - rmax / scale
            let errorFromMin = abs(qmin) + abs(rmin / scale)
            let errorFromMax = abs(qmax) + abs(rmax / scale)
            let zero = errorFromMin < errorFromMax ? zeroFromMin : zeroFromMax
            let nudged: Int32
            if zero <= qmin { nudged = -128 } else if zero >= qmax { nudged = 127 } else if zero.isNaN {
                // An infinite bound (inf / inf): the reference's cast of NaN is undefined; on x86 it
                // gives 0x8000_0000, whose int8 is 0. Converting NaN here would trap.
                nudged = 0
            } else {
                nudged = Int32(zero.rounded(.toNearestOrAwayFromZero))
            }
            let floatScale = Float(scale)
            (self.scale, offset, inverse) = (floatScale, nudged, 1 / floatScale)
        }
    }

    /// The least and greatest of `values[0 ..< count]`, continuing from `seed` (the bounds of
    /// the values before them, e.g. `(values[0], values[0])` of the whole row): the scalar loop
    /// `if v < lo { lo = v }` / `if v > hi { hi = v }`, so NaNs never replace a bound.
    /// - Precondition: `count ≥ 1`.
    public static func bounds(_ values: UnsafePointer<Float>, count: Int, from seed: (lo: Float, hi: Float)) -> (lo: Float, hi: Float) {
        valueRange(values, count: count, from: seed)
    }

    /// Quantizes `values[0 ..< count]` as `row` says (every value 0 for an all-zero row).
    public static func quantize(_ values: UnsafePointer<Float>, count: Int, _ row: RowQuantization,
                                into quantized: UnsafeMutablePointer<Int8>) {
        guard let inverse = row.inverse else {
            quantized.update(repeating: 0, count: count)
            return
        }
        quantize(values, count: count, inverse: inverse, offset: Float(row.offset), lower: row.lower, upper: row.upper,
                 into: quantized)
    }
}

extension HybridInputQuantizer {
    /// `Int32(clampingToInt32: v.rounded(.toNearestOrAwayFromZero))` (C's `round`) without a
    /// libm call: truncate, then step away from zero when the dropped fraction is ≥ 0.5
    /// (exact, since `v − trunc(v)` is exact for |v| < 2^23; larger values are integers).
    @inline(__always)
    static func roundHalfAwayFromZero(_ v: Float) -> Int32 {
        guard abs(v) < 8_388_608 else { return Int32(clampingToInt32: v) }
        let t = Int32(v)
        let fraction = v - Float(t)
        return fraction >= 0.5 ? t + 1 : (fraction <= -0.5 ? t - 1 : t)
    }
}

extension Int32 {
    /// Converts a float to Int32, saturating out-of-range values and mapping NaN to 0
    /// (where C++'s `static_cast` is undefined).
    @inline(__always)
    init(clampingToInt32 value: Float) {
        if value.isNaN { self = 0 }
        else if value >= 2147483648 { self = .max }
        else if value <= -2147483648 { self = .min }
        else { self = Int32(value) }
    }
}
