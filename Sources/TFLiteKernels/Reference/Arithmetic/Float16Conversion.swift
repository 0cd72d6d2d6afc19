// IEEE 754 half precision ↔ single precision, in plain integer arithmetic so that it works
// on every platform (no reliance on the `Float16` type).

/// Conversions between binary16 bit patterns and `Float`.
public enum Float16Conversion {
    /// The `Float` value of the half-precision bit pattern `bits` (exact; NaN payloads kept).
    @inline(__always)
    public static func float(fromBits bits: UInt16) -> Float {
        let sign = UInt32(bits & 0x8000) << 16
        let exponent = UInt32(bits >> 10) & 0x1F
        let mantissa = UInt32(bits & 0x3FF)
        if exponent == 0x1F {   // infinity or NaN
            return Float(bitPattern: sign | 0x7F80_0000 | (mantissa << 13))
        }
        if exponent == 0 {
            if mantissa == 0 { return Float(bitPattern: sign) }
            // Subnormal: mantissa × 2^-24, exact in Float.
            let magnitude = Float(mantissa) * (1.0 / 16_777_216.0)
            return sign != 0 ? -magnitude : magnitude
        }
        return Float(bitPattern: sign | ((exponent + 112) << 23) | (mantissa << 13))
    }

    /// The half-precision bit pattern nearest to `value` (round to nearest, ties to even;
    /// overflow gives infinity, NaN stays NaN).
    @inline(__always)
    public static func bits(from value: Float) -> UInt16 {
        let x = value.bitPattern
        let sign = UInt16((x >> 16) & 0x8000)
        let exponent = Int((x >> 23) & 0xFF)
        let mantissa = x & 0x7F_FFFF
        if exponent == 0xFF { return sign | 0x7C00 | (mantissa != 0 ? 0x200 | UInt16(mantissa >> 13) : 0) }
        let halfExponent = exponent - 127 + 15
        if halfExponent >= 0x1F { return sign | 0x7C00 }
        if halfExponent <= 0 {
            // Subnormal or zero in half precision.
            if halfExponent < -10 { return sign }
            let full = mantissa | 0x80_0000
            let shift = UInt32(14 - halfExponent)
            var half = full >> shift
            let remainder = full & ((1 << shift) - 1)
            let halfway: UInt32 = 1 << (shift - 1)
            if remainder > halfway || (remainder == halfway && half & 1 == 1) { half += 1 }
            return sign | UInt16(half)
        }
        var half = UInt32(halfExponent) << 10 | (mantissa >> 13)
        let remainder = mantissa & 0x1FFF
        if remainder > 0x1000 || (remainder == 0x1000 && half & 1 == 1) { half += 1 }  // may carry into exponent: correct
        return sign | UInt16(half)
    }

    /// The `Float` values of eight half-precision bit patterns (each lane as
    /// ``float(fromBits:)``), without branches: the 15 magnitude bits move to a float's exponent
    /// and mantissa positions and the exponent is rebased; infinities and NaNs are rebased once
    /// more, to the float's all-ones exponent, and subnormals (exponent 0) are made normal by one
    /// more exponent step and then lose that step's 2⁻¹⁴ again, exactly, in a subtraction.
    /// The lane masks come from carries and borrows, not from comparisons (which Swift builds
    /// lane by lane).
    @inline(__always)
    static func floats(fromBits bits: SIMD8<UInt32>) -> SIMD8<Float> {
        let rebase = SIMD8<UInt32>(repeating: (127 - 15) << 23)
        let exponent = bits & 0x7C00
        let infiniteOrNaN = SIMD8<UInt32>.zero &- ((exponent &+ 0x400) &>> 15)   // carry only from 0x7C00
        let zeroOrSubnormal = SIMD8<UInt32>.zero &- ((exponent &- 1) &>> 31)     // borrow only from 0
        var magnitude = ((bits & 0x7FFF) &<< 13) &+ rebase
        magnitude &+= rebase & infiniteOrNaN
        let subnormal = unsafeBitCast(magnitude &+ (1 << 23), to: SIMD8<Float>.self) - Float(bitPattern: (127 - 14) << 23)
        magnitude = (unsafeBitCast(subnormal, to: SIMD8<UInt32>.self) & zeroOrSubnormal) | (magnitude & ~zeroOrSubnormal)
        return unsafeBitCast(magnitude | ((bits & 0x8000) &<< 16), to: SIMD8<Float>.self)
    }

    /// Converts `count` half-precision values to `Float`, eight per step (a float16 model's
    /// weights are converted this way at load).
    /// - Precondition: `count ≥ 0`; every pointer holds at least `count` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func convertToFloat(_ input: UnsafePointer<UInt16>, _ output: UnsafeMutablePointer<Float>, count: Int) {
        KernelPrecondition.validCount(count)
        let source = UnsafeRawPointer(input), destination = UnsafeMutableRawPointer(output)
        var i = 0
        while i + 8 <= count {
            let halves = SIMD8<UInt32>(truncatingIfNeeded: source.loadUnaligned(fromByteOffset: 2 * i, as: SIMD8<UInt16>.self))
            destination.storeBytes(of: floats(fromBits: halves), toByteOffset: 4 * i, as: SIMD8<Float>.self)
            i += 8
        }
        while i < count { output[i] = float(fromBits: input[i]); i += 1 }
    }
}
