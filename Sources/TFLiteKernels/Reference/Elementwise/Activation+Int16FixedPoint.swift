// The int16 LOGISTIC and TANH the reference runtime's default (optimized) kernels run when the
// input scale is the power of two 2^-12 (and 2^-11 for TANH): gemmlowp's fixed-point logistic
// and tanh on 16-bit raw values (input Q3.12, output Q0.15), i.e. exp on negative values by a
// Taylor polynomial and a barrel of exp(−2^k) factors, then a Newton–Raphson reciprocal.
// Checked over every int16 input against the reference runtime's default kernels, whose
// vectorised and scalar forms agree there.

extension ActivationReference {
    /// int16 LOGISTIC on Q3.12 inputs (scale 2^-12), output Q0.15, for the elements in `range`.
    public static func int16LogisticFixedPoint(range: Range<Int>, _ x: UnsafePointer<Int16>,
                                               _ out: UnsafeMutablePointer<Int16>) {
        for i in range { out[i] = GemmlowpFixedPoint16.logistic(x[i]) }
    }

    /// int16 TANH on inputs of scale 2^(−12 + `leftShift`) (`leftShift` 0 or 1: the input is
    /// first doubled with saturation), output Q0.15, for the elements in `range`.
    public static func int16TanhFixedPoint(leftShift: Int, range: Range<Int>, _ x: UnsafePointer<Int16>,
                                           _ out: UnsafeMutablePointer<Int16>) {
        for i in range {
            let v = leftShift == 0 ? x[i] : GemmlowpFixedPoint16.saturatingRoundingMultiplyByPOT(x[i], leftShift)
            out[i] = GemmlowpFixedPoint16.tanh(v)
        }
    }
}

/// gemmlowp's fixed-point functions on 16-bit raw values (additions wrap, products round to
/// nearest with ties away from zero, constants are the 32-bit ones rounded by 2^16).
enum GemmlowpFixedPoint16 {
    /// A gemmlowp 32-bit constant rescaled to 16 bits (rounding division by 2^16).
    static func constant(_ raw32: Int32) -> Int16 { Int16(truncatingIfNeeded: roundingDivideByPOT(raw32, 16)) }

    /// `(a × b × 2) >> 16`, rounded, with −1 × −1 saturated.
    @inline(__always)
    static func mul(_ a: Int16, _ b: Int16) -> Int16 {
        if a == .min && b == .min { return .max }
        let ab = Int32(a) * Int32(b)
        let nudge: Int32 = ab >= 0 ? (1 << 14) : (1 - (1 << 14))
        return Int16(truncatingIfNeeded: (ab + nudge) / (1 << 15))
    }

    /// `x / 2^exponent` rounded to nearest, ties away from zero.
    @inline(__always)
    static func roundingDivideByPOT16(_ x: Int16, _ exponent: Int) -> Int16 {
        guard exponent > 0 else { return x }
        let mask = Int16((1 << exponent) - 1)
        let remainder = x & mask
        let threshold = (mask >> 1) + (x < 0 ? 1 : 0)
        return (x >> Int16(exponent)) &+ (remainder > threshold ? 1 : 0)
    }

    /// `x × 2^exponent`: rounding for a negative exponent, saturating for a positive one.
    @inline(__always)
    static func saturatingRoundingMultiplyByPOT(_ x: Int16, _ exponent: Int) -> Int16 {
        if exponent == 0 { return x }
        if exponent < 0 { return roundingDivideByPOT16(x, -exponent) }
        let threshold = Int16((1 << (15 - exponent)) - 1)
        if x > threshold { return .max }
        if x < -threshold { return .min }
        return x << Int16(exponent)
    }

    /// `(a + b) / 2` rounded away from zero.
    @inline(__always)
    static func roundingHalfSum(_ a: Int16, _ b: Int16) -> Int16 {
        let sum = Int32(a) + Int32(b)
        return Int16(truncatingIfNeeded: (sum + (sum >= 0 ? 1 : -1)) / 2)
    }

    /// exp(a) for a in [−1/4, 0) in Q0.15.
    static func expOnIntervalBetweenNegativeOneQuarterAnd0Excl(_ a: Int16) -> Int16 {
        let constantTerm = constant(1895147668), oneThird = constant(715827883)
        let x = a &+ (1 << 12)
        let x2 = mul(x, x), x3 = mul(x2, x), x4 = mul(x2, x2)
        let x4Over4 = saturatingRoundingMultiplyByPOT(x4, -2)
        let poly = saturatingRoundingMultiplyByPOT(mul(x4Over4 &+ x3, oneThird) &+ x2, -1)
        return Int16(clamping: Int32(constantTerm) + Int32(mul(constantTerm, x &+ poly)))
    }

    /// exp(−2^k) for k = −2 … 4 as 32-bit gemmlowp constants.
    static let barrel: [(exponent: Int, multiplier: Int32)] = [(-2, 1672461947), (-1, 1302514674), (0, 790015084),
                                                               (1, 290630308), (2, 39332535), (3, 720401), (4, 242)]

    /// exp(a) for a ≤ 0 with `integerBits` integer bits, in Q0.15.
    static func expOnNegativeValues(_ a: Int16, integerBits: Int) -> Int16 {
        let fractionalBits = 15 - integerBits
        let oneQuarter = Int16(1 << (fractionalBits - 2))
        let aModQuarterMinusOneQuarter = (a & (oneQuarter - 1)) &- oneQuarter
        var result = expOnIntervalBetweenNegativeOneQuarterAnd0Excl(
            saturatingRoundingMultiplyByPOT(aModQuarterMinusOneQuarter, integerBits))
        let remainder = aModQuarterMinusOneQuarter &- a
        for (exponent, multiplier) in barrel where integerBits > exponent {
            if Int32(remainder) & (Int32(1) << Int32(fractionalBits + exponent)) != 0 {
                result = mul(result, constant(multiplier))
            }
        }
        return a == 0 ? .max : result
    }

    /// Newton–Raphson 1/(1 + a) for a in [0, 1), as the raw Q2.13 estimate.
    static func reciprocalEstimate(_ a: Int16) -> Int16 {
        let halfDenominator = roundingHalfSum(a, .max)
        var x = constant(1515870810) &+ mul(halfDenominator, constant(-1010580540))
        for _ in 0..<3 {
            let oneMinus = Int16(1 << 13) &- mul(halfDenominator, x)
            x = x &+ saturatingRoundingMultiplyByPOT(mul(x, oneMinus), 2)
        }
        return x
    }

    /// logistic(a) for a Q3.12 input, Q0.15 output.
    static func logistic(_ a: Int16) -> Int16 {
        if a == 0 { return constant(1 << 30) }
        let positive = a > 0
        let magnitude = positive ? a : 0 &- a
        let ifPositive = saturatingRoundingMultiplyByPOT(
            reciprocalEstimate(expOnNegativeValues(0 &- magnitude, integerBits: 3)), 1)
        return positive ? ifPositive : Int16.max &- ifPositive
    }

    /// tanh(a) for a Q3.12 input, Q0.15 output.
    static func tanh(_ a: Int16) -> Int16 {
        if a == 0 { return 0 }
        let negative = a < 0
        let n = negative ? a : 0 &- a
        let x = reciprocalEstimate(expOnNegativeValues(n, integerBits: 4))
        let t = saturatingRoundingMultiplyByPOT(x &- (1 << 13), 2)
        return negative ? 0 &- t : t
    }
}
