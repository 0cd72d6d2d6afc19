/// The reference's fixed-point reciprocal (`GemmlowpFixedPoint.reciprocal`: gemmlowp's
/// `one_over_one_plus_x_for_x_in_0_1`, three Newton–Raphson steps) for 16 values at once, bit
/// for bit. Quantized SOFTMAX needs one per row; for short rows (YOLOv8's 16-bin box
/// distributions, 33,600 rows) the scalar chain of seven dependent 64-bit products per row was
/// a third of the operator.
enum FixedPointReciprocalSIMD {
    /// `(values[l], bitsOverUnit[l]) = GemmlowpFixedPoint.reciprocal(sums[l], integerDigits:)`
    /// for the 16 sums at `sums`, in plain memory: at the default build's SSE2 baseline, reading
    /// and writing a `SIMD16`'s lanes one by one cost more than the Newton–Raphson steps.
    /// - Precondition: every sum is positive (a sum of exponentials); each pointer holds 16 entries.
    @inline(__always)
    static func reciprocals(_ sums: UnsafePointer<Int32>, integerDigits: Int, values: UnsafeMutablePointer<Int32>,
                            bitsOverUnit: UnsafeMutablePointer<Int32>) {
        for l in 0..<16 {
            let x = UInt32(bitPattern: sums[l]), headroomPlusOne = x.leadingZeroBitCount
            bitsOverUnit[l] = Int32(integerDigits - headroomPlusOne)
            values[l] = Int32(bitPattern: (x << UInt32(headroomPlusOne)) &- (1 << 31))   // the shifted sum minus one
        }
        let shifted = UnsafeRawPointer(values).loadUnaligned(as: SIMD16<Int32>.self)
        UnsafeMutableRawPointer(values).storeBytes(of: oneOverOnePlusXForXIn01(shifted), as: SIMD16<Int32>.self)
    }

    /// `GemmlowpFixedPoint.oneOverOnePlusXForXIn01` per lane, for `a` in [0, 1) (Q0.31, so every
    /// lane ≥ 0). Every product has an operand ≥ 0 (the half denominator, or the iterate, which
    /// stays in (1, 2] as Q2.29), which `ConvRequantizer.roundingDoublingHighMul` takes as its
    /// second operand.
    @inline(__always)
    static func oneOverOnePlusXForXIn01(_ a: SIMD16<Int32>) -> SIMD16<Int32> {
        // RoundingHalfSum(a, 1) = (a + 2^31 − 1 + 1) / 2 for a ≥ 0: no overflow as UInt32.
        let halfDenominator = SIMD16<Int32>(truncatingIfNeeded: (SIMD16<UInt32>(truncatingIfNeeded: a) &+ (1 << 31)) &>> 1)
        let constant48Over17 = SIMD16<Int32>(repeating: 1515870810)    // Q2.29
        let constantNeg32Over17 = SIMD16<Int32>(repeating: -1010580540) // Q2.29
        let oneQ2 = SIMD16<Int32>(repeating: 1 << 29)
        var x = constant48Over17 &+ ConvRequantizer.roundingDoublingHighMul(constantNeg32Over17, halfDenominator)
        for _ in 0..<3 {
            let halfDenominatorTimesX = ConvRequantizer.roundingDoublingHighMul(x, halfDenominator)
            let oneMinus = oneQ2 &- halfDenominatorTimesX
            x = x &+ saturatingShiftLeft(ConvRequantizer.roundingDoublingHighMul(oneMinus, x), 2)
        }
        return saturatingShiftLeft(x, 1)
    }

    /// `x · 2^exponent`, saturating (`GemmlowpFixedPoint.saturatingRoundingMultiplyByPOT` for
    /// `exponent` in 1…30).
    @inline(__always)
    static func saturatingShiftLeft(_ x: SIMD16<Int32>, _ exponent: Int32) -> SIMD16<Int32> {
        let threshold = SIMD16<Int32>(repeating: Int32.max >> exponent)
        return (x &<< exponent).replacing(with: .max, where: x .> threshold)
            .replacing(with: .min, where: x .< 0 &- threshold)
    }
}
