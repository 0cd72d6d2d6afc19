// The gemmlowp fixed-point functions the reference's quantized SOFTMAX uses, on raw Int32
// values of Q(integerBits).(31 − integerBits) numbers.

/// gemmlowp fixed-point helpers (exp on negative values, reciprocal).
enum GemmlowpFixedPoint {
    /// `x × 2^exponent` with rounding (exponent < 0) or saturation (exponent > 0).
    @inline(__always)
    static func saturatingRoundingMultiplyByPOT(_ x: Int32, _ exponent: Int) -> Int32 {
        if exponent == 0 { return x }
        if exponent < 0 { return roundingDivideByPOT(x, -exponent) }
        let threshold = Int32.max >> Int32(exponent)
        if x > threshold { return Int32.max }
        if x < -threshold { return Int32.min }
        return x << Int32(exponent)
    }

    /// Changes the number of integer bits of a raw fixed-point value.
    @inline(__always)
    static func rescale(_ x: Int32, from fromBits: Int, to toBits: Int) -> Int32 {
        saturatingRoundingMultiplyByPOT(x, fromBits - toBits)
    }

    /// Fixed-point product: `a` with `ia` integer bits times `b` (result has `ia + ib`).
    @inline(__always)
    static func mul(_ a: Int32, _ b: Int32) -> Int32 { saturatingRoundingDoublingHighMul(a, b) }

    /// `exp(a)` for `a` in [−1/4, 0) in Q0.31.
    @inline(__always)
    static func expOnIntervalBetweenNegativeOneQuarterAnd0Excl(_ a: Int32) -> Int32 {
        let constantTerm: Int32 = 1895147668      // exp(-1/8)
        let constant1Over3: Int32 = 715827883     // 1/3
        let x = a &+ (1 << 28)                    // a + 1/8
        let x2 = mul(x, x)
        let x3 = mul(x2, x)
        let x4 = mul(x2, x2)
        let x4Over4 = saturatingRoundingMultiplyByPOT(x4, -2)
        let poly = saturatingRoundingMultiplyByPOT(mul(x4Over4 &+ x3, constant1Over3) &+ x2, -1)
        return constantTerm &+ mul(constantTerm, x &+ poly)
    }

    /// `exp(−2^k)` in Q0.31 for k = −2 … 4.
    static let barrelShifter: [(Int, Int32)] = [(-2, 1672461947), (-1, 1302514674), (0, 790015084),
                                                (1, 290630308), (2, 39332535), (3, 720401), (4, 242)]

    /// `exp(a)` for a ≤ 0 given with `integerBits` integer bits; result in Q0.31.
    static func expOnNegativeValues(_ a: Int32, integerBits: Int) -> Int32 {
        let fractionalBits = 31 - integerBits
        let oneQuarter: Int32 = 1 << Int32(fractionalBits - 2)
        let mask = oneQuarter - 1
        let aModQuarterMinusOneQuarter = (a & mask) &- oneQuarter
        var result = expOnIntervalBetweenNegativeOneQuarterAnd0Excl(
            rescale(aModQuarterMinusOneQuarter, from: integerBits, to: 0))
        let remainder = aModQuarterMinusOneQuarter &- a
        for (exponent, multiplier) in barrelShifter where integerBits > exponent {
            let shift = fractionalBits + exponent
            if shift >= 0 && shift < 32 && (remainder & (Int32(1) << Int32(shift))) != 0 {
                result = mul(result, multiplier)
            }
        }
        if integerBits > 5 {
            let clampShift = 36 - integerBits
            let clamp: Int32 = -(Int32(1) << Int32(clampShift))
            if a < clamp { result = 0 }
        }
        if a == 0 { result = Int32.max }
        return result
    }

    /// `1 / (1 + a)` for `a` in [0, 1) in Q0.31 (Newton–Raphson, three iterations).
    static func oneOverOnePlusXForXIn01(_ a: Int32) -> Int32 {
        // half_denominator = RoundingHalfSum(a, One) in Q0.31.
        let sum = Int64(a) + Int64(Int32.max)
        let halfDenominator = Int32(truncatingIfNeeded: (sum + (sum >= 0 ? 1 : -1)) / 2)
        let constant48Over17: Int32 = 1515870810     // Q2.29
        let constantNeg32Over17: Int32 = -1010580540 // Q2.29
        var x = constant48Over17 &+ mul(halfDenominator, constantNeg32Over17)
        let oneQ2: Int32 = 1 << 29
        for _ in 0..<3 {
            let halfDenominatorTimesX = mul(halfDenominator, x)            // Q2.29
            let oneMinus = oneQ2 &- halfDenominatorTimesX                  // Q2.29
            x = x &+ rescale(mul(x, oneMinus), from: 4, to: 2)
        }
        // ExactMulByPot<-1> (Q2 → Q1, same raw) then Rescale<0>.
        return rescale(x, from: 1, to: 0)
    }

    /// The reference's `GetReciprocal`: the reciprocal of `x` (with `integerDigits` integer
    /// bits) as a Q0.31 value, and how many bits it is above one.
    static func reciprocal(_ x: Int32, integerDigits: Int) -> (value: Int32, bitsOverUnit: Int) {
        let headroomPlusOne = UInt32(bitPattern: x).leadingZeroBitCount
        let bitsOverUnit = integerDigits - headroomPlusOne
        let shiftedSumMinusOne = Int32(bitPattern: (UInt32(bitPattern: x) << UInt32(headroomPlusOne)) &- (UInt32(1) << 31))
        return (oneOverOnePlusXForXIn01(shiftedSumMinusOne), bitsOverUnit)
    }

    /// `x × 2^exponent` for a run-time exponent ≥ 0, saturating (TFLite's
    /// `SaturatingRoundingMultiplyByPOTParam` for left shifts).
    @inline(__always)
    static func saturatingShiftLeft(_ x: Int32, _ exponent: Int) -> Int32 {
        if exponent == 0 { return x }
        let threshold = Int32((Int64(1) << (31 - exponent)) - 1)
        if x > threshold { return Int32.max }
        if x < -threshold { return Int32.min }
        return x << Int32(exponent)
    }

    /// Saturating 32-bit addition and subtraction.
    @inline(__always)
    static func saturatingAdd(_ a: Int32, _ b: Int32) -> Int32 { Int32(clamping: Int64(a) + Int64(b)) }
    @inline(__always)
    static func saturatingSub(_ a: Int32, _ b: Int32) -> Int32 { Int32(clamping: Int64(a) - Int64(b)) }

    /// `log(x)` for x ≥ 1 given with `inputBits` integer bits, result with `outputBits`
    /// integer bits (TFLite's `log_x_for_x_greater_than_or_equal_to_1`).
    static func logXForXGreaterThanOrEqualTo1(_ input: Int32, inputBits: Int, outputBits: Int) -> Int32 {
        let accumBits = outputBits + 1
        let log2: Int32 = 1488522236, sqrtSqrtHalf: Int32 = 1805811301, sqrtHalf: Int32 = 1518500250
        let oneQuarter: Int32 = 536870912
        let alphaN: Int32 = 117049297, alphaD: Int32 = 127690142, alphaI: Int32 = 1057819769, alphaF: Int32 = 638450708
        let shiftedQuarter = rescale(oneQuarter, from: 0, to: accumBits)
        let za = input
        let zaHeadroomPlus1 = UInt32(bitPattern: za).leadingZeroBitCount
        let raTmp = saturatingShiftLeft(za, zaHeadroomPlus1 - 1)
        let raRaw = saturatingShiftLeft(mul(raTmp, sqrtHalf), 1)
        let zaPow2Adj = saturatingAdd(saturatingShiftLeft(Int32(inputBits - zaHeadroomPlus1), 31 - accumBits), shiftedQuarter)
        let zb = mul(za, sqrtHalf)
        let zbHeadroom = UInt32(bitPattern: zb).leadingZeroBitCount - 1
        let rbRaw = saturatingShiftLeft(za, zbHeadroom)
        let zbPow2Adj = saturatingSub(saturatingShiftLeft(Int32(inputBits - zbHeadroom), 31 - accumBits), shiftedQuarter)
        let r = Swift.min(raRaw, rbRaw)
        let zPow2Adj = Swift.max(zaPow2Adj, zbPow2Adj)
        let sum = Int64(r) + Int64(sqrtSqrtHalf)
        let p = Int32(truncatingIfNeeded: (sum + (sum >= 0 ? 1 : -1)) / 2)
        var q = r &- sqrtSqrtHalf
        q = q &+ q
        let commonSq = mul(q, q)
        let num = mul(q, r) &+ mul(mul(q, commonSq), alphaN)
        let denomMinusOne = mul(p, alphaI &+ q &+ mul(alphaD, commonSq)) &+ mul(alphaF, q)
        let recipDenom = oneOverOnePlusXForXIn01(denomMinusOne)
        let numScaled = rescale(num, from: 0, to: accumBits)
        return rescale(mul(zPow2Adj, log2) &+ mul(numScaled, recipDenom), from: accumBits, to: outputBits)
    }
}
