/// The reciprocal of the reference's quantized SOFTMAX on 16 row sums at once, bit for bit with
/// `GemmlowpFixedPoint.reciprocal`: the Newton–Raphson steps of `oneOverOnePlusXForXIn01` in
/// 16 lanes. Rows of few channels (YOLOv8's 4 × 8,400 rows of 16 in its box decoder) spent
/// more time in the scalar reciprocal, once per row, than in their exponentials.
extension GemmlowpFixedPoint {
    /// `reciprocal` of each lane. Precondition: every lane is positive (a row sum, whose
    /// largest exponential alone is positive).
    @inline(__always)
    static func reciprocal(_ x: SIMD16<Int32>, integerDigits: Int) -> (value: SIMD16<Int32>, bitsOverUnit: SIMD16<Int32>) {
        let ux = SIMD16<UInt32>(truncatingIfNeeded: x)
        let headroomPlusOne = ux.leadingZeroBitCount
        let bitsOverUnit = SIMD16<Int32>(repeating: Int32(integerDigits)) &- SIMD16<Int32>(truncatingIfNeeded: headroomPlusOne)
        let shiftedSumMinusOne = SIMD16<Int32>(truncatingIfNeeded: (ux &<< headroomPlusOne) &- (1 << 31))
        return (oneOverOnePlusXForXIn01(shiftedSumMinusOne), bitsOverUnit)
    }

    /// `oneOverOnePlusXForXIn01` of each lane, for lanes in [0, 2^31).
    @inline(__always)
    static func oneOverOnePlusXForXIn01(_ a: SIMD16<Int32>) -> SIMD16<Int32> {
        // RoundingHalfSum(a, One) for a ≥ 0: (a + 2^31) / 2, truncated.
        let halfDenominator = (a &>> 1) &+ (1 << 30)
        var x = SIMD16<Int32>(repeating: 1515870810) &+ mul(SIMD16(repeating: -1010580540), halfDenominator)
        let oneQ2 = SIMD16<Int32>(repeating: 1 << 29)
        for _ in 0..<3 {
            let oneMinus = oneQ2 &- mul(halfDenominator, x)
            x = x &+ saturatingShiftLeft(mul(oneMinus, x), 2)
        }
        return saturatingShiftLeft(x, 1)
    }

    /// The saturating rounding doubling high multiply of each lane pair (exact except for
    /// `Int32.min · Int32.min`, which the reciprocal never forms): the unsigned 64-bit products
    /// of the even and odd lanes, corrected for negative operands.
    @inline(__always)
    static func mul(_ a: SIMD16<Int32>, _ b: SIMD16<Int32>) -> SIMD16<Int32> {
        let a64 = unsafeBitCast(a, to: SIMD8<UInt64>.self), b64 = unsafeBitCast(b, to: SIMD8<UInt64>.self)
        let low = SIMD8<UInt64>(repeating: 0xFFFF_FFFF), nudge = SIMD8<UInt64>(repeating: 1 << 30)
        let even = ((a64 & low) &* (b64 & low) &+ nudge) &>> 31
        let odd = ((a64 &>> 32) &* (b64 &>> 32) &+ nudge) &>> 31
        let unsignedHigh = unsafeBitCast((even & low) | (odd &<< 32), to: SIMD16<Int32>.self)
        return unsignedHigh &- ((a &>> 31) & (b &+ b)) &- ((b &>> 31) & (a &+ a))
    }

    /// `x · 2^exponent`, saturating (`saturatingRoundingMultiplyByPOT` for exponent > 0).
    @inline(__always)
    static func saturatingShiftLeft(_ x: SIMD16<Int32>, _ exponent: Int32) -> SIMD16<Int32> {
        let threshold = Int32.max >> exponent
        return (x &<< exponent)
            .replacing(with: .max, where: x .> SIMD16(repeating: threshold))
            .replacing(with: .min, where: x .< SIMD16(repeating: -threshold))
    }
}
