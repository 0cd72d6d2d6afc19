// Quantized DIV (uint8, int8, int16) and quantized RSQRT (int8) with the reference runtime's
// integer arithmetic: DIV multiplies the dividend by a fixed-point reciprocal of the divisor
// (gemmlowp's Newton–Raphson `1 / (1 + x)`), RSQRT takes a fixed-point inverse square root
// (five Newton–Raphson steps in Q3.28) and requantizes it.

extension BinaryArithmeticReference {
    /// Fixed-point parameters of quantized DIV, computed once at prepare.
    public struct QuantizedDivParams: Sendable, Equatable {
        /// `-zeroPoint` of the dividend.
        public var input1Offset: Int32
        /// `-zeroPoint` of the divisor.
        public var input2Offset: Int32
        /// Output zero point.
        public var outputOffset: Int32
        /// `scale1 / (scale2 × outputScale)`.
        public var outputMultiplier: QuantizedMultiplier
        /// Fused activation clamp (quantized).
        public var activationMin: Int32
        /// Fused activation clamp (quantized).
        public var activationMax: Int32

        /// Computes the parameters as the reference `Prepare` does (the real multiplier in
        /// single precision, then decomposed).
        public init(input1Scale: Float, input1ZeroPoint: Int32, input2Scale: Float, input2ZeroPoint: Int32,
                    outputScale: Float, outputZeroPoint: Int32, activationMin: Int32, activationMax: Int32) {
            input1Offset = -input1ZeroPoint
            input2Offset = -input2ZeroPoint
            outputOffset = outputZeroPoint
            outputMultiplier = QuantizedMultiplier(Double(input1Scale / (input2Scale * outputScale)))
            self.activationMin = activationMin
            self.activationMax = activationMax
        }
    }

    /// The number of redundant sign bits of `x` (31 for 0 and −1): how far it can be shifted
    /// left without overflow (the reference's `CountLeadingSignBits`).
    @inline(__always)
    static func countLeadingSignBits(_ x: Int32) -> Int {
        (x >= 0 ? UInt32(bitPattern: x) : ~UInt32(bitPattern: x)).leadingZeroBitCount - 1
    }

    /// One quantized DIV element, exactly as the reference computes it. Precondition: the
    /// divisor code differs from its zero point (the operator rejects a real 0 before this
    /// runs, as the reference does).
    @inline(__always)
    public static func quantizedDivElement(_ x: Int32, _ y: Int32, _ p: QuantizedDivParams) -> Int32 {
        var numerator = x &+ p.input1Offset
        var denominator = y &+ p.input2Offset
        if denominator < 0 {
            // The reciprocal must be positive to serve as a multiplier: move the sign up.
            numerator = 0 &- numerator
            denominator = 0 &- denominator
        }
        let (inverse, bitsOverUnit) = GemmlowpFixedPoint.reciprocal(denominator, integerDigits: 31)
        let headroom = countLeadingSignBits(numerator)
        let unscaled = multiplyByQuantizedMultiplierGreaterThanOne(numerator, inverse, headroom)
        let totalShift = p.outputMultiplier.shift - bitsOverUnit - headroom
        let scaled = wideRoundingDivideByPOT(saturatingRoundingDoublingHighMul(unscaled, p.outputMultiplier.multiplier),
                                             -totalShift)
        let out = p.outputOffset &+ scaled
        return Swift.min(p.activationMax, Swift.max(p.activationMin, out))
    }

    /// `roundingDivideByPOT` for the exponents quantized DIV produces, which reach past 31 when
    /// the dividend is small (its headroom is large) and the divisor large: the reference's
    /// mask is `(1 << exponent) − 1` truncated to 32 bits and its shift is the x86-64 `sar`,
    /// which takes the count modulo 32. Reproduced here so the results agree bit for bit
    /// (e.g. exponent 32 returns `x + 1` for x ≥ 0). Exponents below 0 (a real multiplier
    /// beyond the reference's contract) shift by nothing.
    @inline(__always)
    static func wideRoundingDivideByPOT(_ x: Int32, _ exponent: Int) -> Int32 {
        guard exponent > 0 else { return x }
        guard exponent > 31 else { return roundingDivideByPOT(x, exponent) }
        let mask = Int32(truncatingIfNeeded: exponent < 64 ? (Int64(1) << exponent) &- 1 : -1)
        let remainder = x & mask
        let threshold = (mask >> 1) &+ (x < 0 ? 1 : 0)
        return (x >> Int32(exponent & 31)) &+ (remainder > threshold ? 1 : 0)
    }

    /// Quantized DIV on uint8 tensors.
    /// - Precondition: `rows` lies in `0..<layout.rowCount`; the pointers hold the layout's operand and output elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func quantizedDiv(layout: BroadcastLayout, rows: Range<Int>, _ a: UnsafePointer<UInt8>,
                                    _ b: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>, _ p: QuantizedDivParams) {
        KernelPrecondition.check(rows.lowerBound >= 0 && rows.upperBound <= layout.rowCount, "rows \(rows) outside 0..<\(layout.rowCount)")
        broadcastBinary(layout, rows: rows, a, b, out) { UInt8(truncatingIfNeeded: quantizedDivElement(Int32($0), Int32($1), p)) }
    }

    /// Quantized DIV on int8 tensors.
    /// - Precondition: `rows` lies in `0..<layout.rowCount`; the pointers hold the layout's operand and output elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func quantizedDiv(layout: BroadcastLayout, rows: Range<Int>, _ a: UnsafePointer<Int8>,
                                    _ b: UnsafePointer<Int8>, _ out: UnsafeMutablePointer<Int8>, _ p: QuantizedDivParams) {
        KernelPrecondition.check(rows.lowerBound >= 0 && rows.upperBound <= layout.rowCount, "rows \(rows) outside 0..<\(layout.rowCount)")
        broadcastBinary(layout, rows: rows, a, b, out) { Int8(truncatingIfNeeded: quantizedDivElement(Int32($0), Int32($1), p)) }
    }

    /// Quantized DIV on int16 tensors.
    /// - Precondition: `rows` lies in `0..<layout.rowCount`; the pointers hold the layout's operand and output elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func quantizedDiv(layout: BroadcastLayout, rows: Range<Int>, _ a: UnsafePointer<Int16>,
                                    _ b: UnsafePointer<Int16>, _ out: UnsafeMutablePointer<Int16>, _ p: QuantizedDivParams) {
        KernelPrecondition.check(rows.lowerBound >= 0 && rows.upperBound <= layout.rowCount, "rows \(rows) outside 0..<\(layout.rowCount)")
        broadcastBinary(layout, rows: rows, a, b, out) { Int16(truncatingIfNeeded: quantizedDivElement(Int32($0), Int32($1), p)) }
    }
}

extension ElementwiseUnaryReference {
    /// `1 / sqrt(x)` of an integer `x ≥ 0` as a Q31 multiplier and a left shift (the
    /// reference's `GetInvSqrtQuantizedMultiplierExp` with a reversed shift): `x ≤ 1` gives
    /// (`Int32.max`, 0); otherwise `x` is normalised into [2^27, 2^29) by pairs of bits and
    /// five Newton–Raphson steps run in Q3.28 from a starting guess of 1.
    public static func inverseSqrtMultiplier(_ input: Int32) -> QuantizedMultiplier {
        guard input > 1 else { return QuantizedMultiplier(multiplier: Int32.max, shift: 0) }
        var x = input
        var shift = 11
        while x >= 1 << 29 { x /= 4; shift += 1 }
        let maxLeftShiftBits = UInt32(bitPattern: x).leadingZeroBitCount - 1
        let leftShiftBitPairs = maxLeftShiftBits / 2 - 1
        shift -= leftShiftBitPairs
        x <<= Int32(2 * leftShiftBitPairs)
        typealias G = GemmlowpFixedPoint
        let fixedInput = x >> 1                                   // Q3.28
        let halfInput = roundingDivideByPOT(fixedInput, 1)        // Q3.28
        let threeHalves: Int32 = (1 << 28) + (1 << 27)            // 1.5 in Q3.28
        var estimate: Int32 = 1 << 28                             // 1 in Q3.28
        for _ in 0..<5 {
            let cube = G.saturatingRoundingMultiplyByPOT(G.mul(G.mul(estimate, estimate), estimate), 6)  // Q9 → Q3
            let difference = G.mul(threeHalves, estimate) &- G.mul(halfInput, cube)                   // Q6
            estimate = G.saturatingRoundingMultiplyByPOT(difference, 3)                              // Q6 → Q3
        }
        let halfSqrt2: Int32 = 1518500250                          // √2 / 2 in Q0.31
        var multiplier = G.mul(estimate, halfSqrt2)
        if shift < 0 {
            multiplier <<= Int32(-shift)
            shift = 0
        }
        return QuantizedMultiplier(multiplier: multiplier, shift: -shift)
    }

    /// The reference's quantized int8 RSQRT of one code (`q ≥ zeroPoint`, checked by the
    /// caller): `q == zeroPoint` gives 127; otherwise the inverse square root of `q − zeroPoint`
    /// computed with 20 fractional bits, then requantized by `1 / (sqrt(inputScale) × outputScale)`.
    @inline(__always)
    public static func quantizedRsqrtElement(_ q: Int32, inputZeroPoint: Int32, outputZeroPoint: Int32,
                                             _ outputMultiplier: QuantizedMultiplier) -> Int32 {
        let value = q - inputZeroPoint
        if value == 0 { return 127 }
        let fractionBits = 20
        let inverse = inverseSqrtMultiplier(value)
        let fixed = multiplyByQuantizedMultiplier(1, inverse.multiplier, inverse.shift + fractionBits)
        let out = multiplyByQuantizedMultiplier(fixed, outputMultiplier.multiplier, outputMultiplier.shift - fractionBits)
            &+ outputZeroPoint
        return Swift.min(Swift.max(out, -128), 127)
    }

    /// The requantization multiplier of int8 RSQRT, as the reference computes it: the square
    /// root in single precision, times the output scale in single precision, inverted in double.
    public static func quantizedRsqrtMultiplier(inputScale: Float, outputScale: Float) -> QuantizedMultiplier {
        QuantizedMultiplier(1.0 / Double(inputScale.squareRoot() * outputScale))
    }
}
