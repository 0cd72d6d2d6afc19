// Quantized activations (uint8 / int8 / int16 where the reference has them): RELU family
// with requantization, LEAKY_RELU, PRELU, HARD_SWISH (16-bit fixed point), and 256-entry
// lookup tables built by dequantize → float function → quantize (LOGISTIC, TANH).

extension ActivationReference {
    /// Requantizing clamp (quantized RELU, RELU6, RELU_N1_TO_1, RELU_0_TO_1).
    public struct QuantizedReluParams: Sendable, Equatable {
        /// Input zero point.
        public var inputZeroPoint: Int32
        /// Output zero point.
        public var outputZeroPoint: Int32
        /// `inputScale / outputScale`.
        public var multiplier: QuantizedMultiplier
        /// Quantized lower clamp.
        public var activationMin: Int32
        /// Quantized upper clamp.
        public var activationMax: Int32

        /// Parameters as the reference computes them for a clamp to `[lo, hi]` (real values;
        /// `hi` may be infinity) of a type with range `typeMin...typeMax`.
        public init(inputScale: Float, inputZeroPoint: Int32, outputScale: Float, outputZeroPoint: Int32,
                    lo: Float, hi: Float, typeMin: Int32, typeMax: Int32) {
            self.inputZeroPoint = inputZeroPoint
            self.outputZeroPoint = outputZeroPoint
            multiplier = QuantizedMultiplier(Double(inputScale / outputScale))
            activationMin = Swift.max(typeMin, outputZeroPoint &+ saturatingInt32((lo / outputScale).rounded(.toNearestOrAwayFromZero)))
            activationMax = hi == .infinity ? typeMax
                : Swift.min(typeMax, outputZeroPoint &+ saturatingInt32((hi / outputScale).rounded(.toNearestOrAwayFromZero)))
        }

        @inline(__always)
        func apply(_ v: Int32) -> Int32 {
            let r = outputZeroPoint &+ multiplyByQuantizedMultiplier(v - inputZeroPoint, multiplier.multiplier, multiplier.shift)
            return Swift.max(activationMin, Swift.min(activationMax, r))
        }
    }

    /// Quantized LEAKY_RELU parameters.
    public struct QuantizedLeakyReluParams: Sendable, Equatable {
        /// Input zero point.
        public var inputZeroPoint: Int32
        /// Output zero point.
        public var outputZeroPoint: Int32
        /// `inputScale · alpha / outputScale`.
        public var alphaMultiplier: QuantizedMultiplier
        /// `inputScale / outputScale`.
        public var identityMultiplier: QuantizedMultiplier

        /// Parameters as the reference computes them.
        public init(inputScale: Float, inputZeroPoint: Int32, outputScale: Float, outputZeroPoint: Int32, alpha: Float) {
            self.inputZeroPoint = inputZeroPoint
            self.outputZeroPoint = outputZeroPoint
            alphaMultiplier = QuantizedMultiplier(Double(inputScale * alpha / outputScale))
            identityMultiplier = QuantizedMultiplier(Double(inputScale / outputScale))
        }

        @inline(__always)
        func apply(_ q: Int32, typeMin: Int32, typeMax: Int32) -> Int32 {
            let v = q - inputZeroPoint
            let m = v >= 0 ? identityMultiplier : alphaMultiplier
            let r = outputZeroPoint &+ multiplyByQuantizedMultiplier(v, m.multiplier, m.shift)
            return Swift.max(typeMin, Swift.min(typeMax, r))
        }
    }

    /// Quantized PRELU parameters.
    public struct QuantizedPreluParams: Sendable, Equatable {
        /// Input zero point.
        public var inputZeroPoint: Int32
        /// Alpha zero point.
        public var alphaZeroPoint: Int32
        /// Output zero point.
        public var outputZeroPoint: Int32
        /// `inputScale / outputScale` (x ≥ 0).
        public var identityMultiplier: QuantizedMultiplier
        /// `inputScale · alphaScale / outputScale` (x < 0).
        public var alphaMultiplier: QuantizedMultiplier

        /// Parameters as the reference computes them.
        public init(inputScale: Float, inputZeroPoint: Int32, alphaScale: Float, alphaZeroPoint: Int32,
                    outputScale: Float, outputZeroPoint: Int32) {
            self.inputZeroPoint = inputZeroPoint
            self.alphaZeroPoint = alphaZeroPoint
            self.outputZeroPoint = outputZeroPoint
            identityMultiplier = QuantizedMultiplier(Double(inputScale / outputScale))
            alphaMultiplier = QuantizedMultiplier(Double(inputScale * alphaScale / outputScale))
        }

        @inline(__always)
        func apply(_ q: Int32, _ a: Int32, typeMin: Int32, typeMax: Int32) -> Int32 {
            let v = q - inputZeroPoint
            let r: Int32
            if v >= 0 {
                r = multiplyByQuantizedMultiplier(v, identityMultiplier.multiplier, identityMultiplier.shift)
            } else {
                r = multiplyByQuantizedMultiplier(v &* (a - alphaZeroPoint), alphaMultiplier.multiplier, alphaMultiplier.shift)
            }
            return Swift.max(typeMin, Swift.min(typeMax, r &+ outputZeroPoint))
        }
    }

    /// Quantized clamp activation over `range`.
    /// - Precondition: `range.lowerBound ≥ 0`; every pointer holds at least `range.upperBound` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func quantizedRelu<T: FixedWidthInteger>(_ p: QuantizedReluParams, range: Range<Int>,
                                                           _ x: UnsafePointer<T>, _ out: UnsafeMutablePointer<T>) {
        KernelPrecondition.validRange(range)
        for i in range { out[i] = T(truncatingIfNeeded: p.apply(Int32(x[i]))) }
    }

    /// Quantized LEAKY_RELU over `range`.
    /// - Precondition: `range.lowerBound ≥ 0`; every pointer holds at least `range.upperBound` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func quantizedLeakyRelu<T: FixedWidthInteger>(_ p: QuantizedLeakyReluParams, range: Range<Int>,
                                                                _ x: UnsafePointer<T>, _ out: UnsafeMutablePointer<T>) {
        KernelPrecondition.validRange(range)
        let lo = Int32(T.min), hi = Int32(T.max)
        for i in range { out[i] = T(truncatingIfNeeded: p.apply(Int32(x[i]), typeMin: lo, typeMax: hi)) }
    }

    /// Quantized PRELU with alpha broadcast onto x.
    public static func quantizedPrelu<T: FixedWidthInteger>(_ p: QuantizedPreluParams, layout: BroadcastLayout,
                                                            _ x: UnsafePointer<T>, _ alpha: UnsafePointer<T>,
                                                            _ out: UnsafeMutablePointer<T>) {
        let lo = Int32(T.min), hi = Int32(T.max)
        broadcastBinary(layout, rows: 0..<layout.rowCount, x, alpha, out) {
            T(truncatingIfNeeded: p.apply(Int32($0), Int32($1), typeMin: lo, typeMax: hi))
        }
    }

    /// A 256-entry table mapping every 8-bit input code to its output code.
    public struct LookupTable8: Sendable, Equatable {
        /// Entries indexed by the input byte (`UInt8(bitPattern:)` for int8).
        public var entries: [UInt8]

        /// Builds the table exactly as the reference's `LUTPopulate`: dequantize in single
        /// precision, apply `f`, round half away from zero on the output scale, add the zero
        /// point and saturate.
        public init(signed: Bool, inputScale: Float, inputZeroPoint: Int32, outputScale: Float,
                    outputZeroPoint: Int32, _ f: (Float) -> Float) {
            var table = [UInt8](repeating: 0, count: 256)
            let inverseScale = 1 / outputScale
            let minValue: Int32 = signed ? -128 : 0, maxValue: Int32 = signed ? 127 : 255
            for v in minValue...maxValue {
                let dequantized = inputScale * Float(v - inputZeroPoint)
                let transformed = f(dequantized)
                let rescaled = (transformed * inverseScale).rounded(.toNearestOrAwayFromZero)
                let q = saturatingInt32(rescaled + Float(outputZeroPoint))
                let clamped = Swift.max(minValue, Swift.min(maxValue, q))
                table[Int(UInt8(truncatingIfNeeded: v))] = UInt8(truncatingIfNeeded: clamped)
            }
            entries = table
        }

        /// Tabulates an integer function of the input code (already clamped to the type).
        public init(signed: Bool, integer f: (Int32) -> Int32) {
            var table = [UInt8](repeating: 0, count: 256)
            for byte in 0..<256 {
                let v = signed ? Int32(Int8(truncatingIfNeeded: byte)) : Int32(byte)
                table[byte] = UInt8(truncatingIfNeeded: f(v))
            }
            entries = table
        }

        /// The reference table for quantized EXP.
        public static func exp(signed: Bool, inputScale: Float, inputZeroPoint: Int32,
                               outputScale: Float, outputZeroPoint: Int32) -> LookupTable8 {
            LookupTable8(signed: signed, inputScale: inputScale, inputZeroPoint: inputZeroPoint,
                         outputScale: outputScale, outputZeroPoint: outputZeroPoint) { ElementwiseMath.exp($0) }
        }

        /// The reference's quantized ABS: `|q − zpIn|`, requantized when the scales differ.
        public static func abs(signed: Bool, inputScale: Float, inputZeroPoint: Int32,
                               outputScale: Float, outputZeroPoint: Int32) -> LookupTable8 {
            let lo: Int32 = signed ? -128 : 0, hi: Int32 = signed ? 127 : 255
            let rescale = inputScale != outputScale
            let m = QuantizedMultiplier(Double(inputScale / outputScale))
            return LookupTable8(signed: signed) { q in
                let value = Swift.abs(q - inputZeroPoint)
                let r = rescale ? multiplyByQuantizedMultiplier(value, m.multiplier, m.shift) &+ outputZeroPoint
                                : value &+ outputZeroPoint
                return Swift.min(Swift.max(r, lo), hi)
            }
        }

        /// The reference table for quantized LOGISTIC.
        public static func logistic(signed: Bool, inputScale: Float, inputZeroPoint: Int32,
                                    outputScale: Float, outputZeroPoint: Int32) -> LookupTable8 {
            LookupTable8(signed: signed, inputScale: inputScale, inputZeroPoint: inputZeroPoint,
                         outputScale: outputScale, outputZeroPoint: outputZeroPoint) { 1 / (1 + ElementwiseMath.exp(-$0)) }
        }

        /// The reference table for quantized TANH.
        public static func tanh(signed: Bool, inputScale: Float, inputZeroPoint: Int32,
                                outputScale: Float, outputZeroPoint: Int32) -> LookupTable8 {
            LookupTable8(signed: signed, inputScale: inputScale, inputZeroPoint: inputZeroPoint,
                         outputScale: outputScale, outputZeroPoint: outputZeroPoint) { ElementwiseMath.tanh($0) }
        }

        /// Applies the table to `range` of 8-bit data (int8 or uint8 bytes).
        /// - Precondition: `range.lowerBound ≥ 0`; every pointer holds at least `range.upperBound` elements.
        ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
        public func apply(range: Range<Int>, _ x: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>) {
            KernelPrecondition.validRange(range)
            entries.withUnsafeBufferPointer { t in
                for i in range { out[i] = t[Int(x[i])] }
            }
        }
    }

    /// Quantized HARD_SWISH parameters (16-bit fixed point), as the reference prepares them.
    public struct QuantizedHardSwishParams: Sendable, Equatable {
        /// Input zero point.
        public var inputZeroPoint: Int16
        /// Output zero point.
        public var outputZeroPoint: Int16
        /// Q15 multiplier from the high-resolution input scale to the output scale.
        public var outputMultiplierFixedpoint: Int16
        /// Its exponent (≤ 0).
        public var outputMultiplierExponent: Int
        /// Q15 multiplier onto the "relu-ish" scale where 3.0 is 32768.
        public var reluishMultiplierFixedpoint: Int16
        /// Its exponent.
        public var reluishMultiplierExponent: Int

        static func downscaleToInt16(_ m: Int32) -> Int16 {
            let rounding: Int32 = 1 << 15
            if m >= Int32.max - rounding { return Int16.max }
            return Int16(truncatingIfNeeded: (m + rounding) >> 16)
        }

        /// Parameters as the reference computes them.
        public init(inputScale: Float, inputZeroPoint: Int32, outputScale: Float, outputZeroPoint: Int32) {
            self.inputZeroPoint = Int16(truncatingIfNeeded: inputZeroPoint)
            self.outputZeroPoint = Int16(truncatingIfNeeded: outputZeroPoint)
            let hiresInputScale = (1.0 as Float / 128.0) * inputScale
            let reluishScale: Float = 3.0 / 32768.0
            let outputMultiplier = QuantizedMultiplier(Double(hiresInputScale / outputScale))
            outputMultiplierFixedpoint = QuantizedHardSwishParams.downscaleToInt16(outputMultiplier.multiplier)
            outputMultiplierExponent = outputMultiplier.shift
            let reluish = QuantizedMultiplier(Double(hiresInputScale / reluishScale))
            reluishMultiplierFixedpoint = QuantizedHardSwishParams.downscaleToInt16(reluish.multiplier)
            reluishMultiplierExponent = reluish.shift
        }
    }

    @inline(__always)
    static func srdhm16(_ a: Int16, _ b: Int16) -> Int16 {
        if a == b && a == Int16.min { return Int16.max }
        let ab = Int32(a) * Int32(b)
        let nudge: Int32 = ab >= 0 ? (1 << 14) : (1 - (1 << 14))
        return Int16(truncatingIfNeeded: (ab + nudge) / (1 << 15))
    }

    @inline(__always)
    static func sdhm16(_ a: Int16, _ b: Int16) -> Int16 {
        if a == b && a == Int16.min { return Int16.max }
        return Int16(truncatingIfNeeded: (Int32(a) * Int32(b)) / (1 << 15))
    }

    @inline(__always)
    static func roundingDivideByPOT16(_ x: Int16, _ exponent: Int) -> Int16 {
        if exponent == 0 { return x }
        let mask = Int16(truncatingIfNeeded: (1 << exponent) - 1)
        let remainder = x & mask
        let threshold = (mask >> 1) + (x < 0 ? 1 : 0)
        return (x >> Int16(exponent)) + (remainder > threshold ? 1 : 0)
    }

    @inline(__always)
    static func saturatingLeftShift16(_ x: Int16, _ amount: Int) -> Int16 {
        let r = Int64(x) * (Int64(1) << amount)
        return Int16(Swift.max(Int64(Int16.min), Swift.min(Int64(Int16.max), r)))
    }

    /// One quantized HARD_SWISH element, exactly as the reference computes it.
    @inline(__always)
    public static func quantizedHardSwishElement(_ q: Int32, _ p: QuantizedHardSwishParams, typeMin: Int16, typeMax: Int16) -> Int16 {
        let inputValue = Int16(truncatingIfNeeded: q - Int32(p.inputZeroPoint))
        let hires = inputValue &* (1 << 7)
        let preshiftOutput = srdhm16(hires, p.outputMultiplierFixedpoint)
        var reluish = hires
        if p.reluishMultiplierExponent > 0 {
            reluish = saturatingLeftShift16(reluish, p.reluishMultiplierExponent - 1)
        }
        reluish = srdhm16(reluish, p.reluishMultiplierFixedpoint)
        if p.reluishMultiplierExponent > 0 {
            reluish = saturatingLeftShift16(reluish, 1)
        }
        if p.reluishMultiplierExponent < 0 {
            reluish = roundingDivideByPOT16(reluish, -p.reluishMultiplierExponent)
        }
        reluish = Int16(truncatingIfNeeded: (Int32(reluish) + (1 << 15)) >> 1)
        let preshiftValue = sdhm16(reluish, preshiftOutput)
        var out = roundingDivideByPOT16(preshiftValue, -p.outputMultiplierExponent)
        out = out &+ p.outputZeroPoint
        return Swift.max(typeMin, Swift.min(typeMax, out))
    }

    /// Quantized HARD_SWISH on int8.
    /// - Precondition: `range.lowerBound ≥ 0`; every pointer holds at least `range.upperBound` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func quantizedHardSwish(_ p: QuantizedHardSwishParams, range: Range<Int>,
                                          _ x: UnsafePointer<Int8>, _ out: UnsafeMutablePointer<Int8>) {
        KernelPrecondition.validRange(range)
        for i in range { out[i] = Int8(truncatingIfNeeded: quantizedHardSwishElement(Int32(x[i]), p, typeMin: -128, typeMax: 127)) }
    }

    /// Quantized HARD_SWISH on uint8.
    /// - Precondition: `range.lowerBound ≥ 0`; every pointer holds at least `range.upperBound` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func quantizedHardSwish(_ p: QuantizedHardSwishParams, range: Range<Int>,
                                          _ x: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>) {
        KernelPrecondition.validRange(range)
        for i in range { out[i] = UInt8(truncatingIfNeeded: quantizedHardSwishElement(Int32(x[i]), p, typeMin: 0, typeMax: 255)) }
    }
}
