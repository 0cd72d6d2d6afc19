// TFLite's integer requantization arithmetic (gemmlowp semantics, double rounding),
// shared by every quantized kernel.

/// A real multiplier expressed as a Q31 fixed-point mantissa and a power-of-two shift:
/// `real ≈ multiplier × 2^(shift − 31)`.
public struct QuantizedMultiplier: Sendable, Equatable {
    /// Q31 mantissa in [2^30, 2^31), or 0.
    public var multiplier: Int32
    /// Power-of-two exponent; positive means shift left.
    public var shift: Int

    /// Creates a multiplier from its parts.
    public init(multiplier: Int32, shift: Int) { self.multiplier = multiplier; self.shift = shift }

    /// Decomposes `real` exactly as TFLite's `QuantizeMultiplier` does.
    public init(_ real: Double) {
        if real == 0 { self.init(multiplier: 0, shift: 0); return }
        let significand = real.significand   // in [1, 2)
        var shift = Int(real.exponent) + 1    // frexp: real = q × 2^shift, q in [0.5, 1)
        let q = significand / 2
        var fixed = Int64((q * Double(Int64(1) << 31)).rounded(.toNearestOrAwayFromZero))
        precondition(fixed <= Int64(1) << 31)
        if fixed == Int64(1) << 31 { fixed /= 2; shift += 1 }
        if shift < -31 { shift = 0; fixed = 0 }
        if shift > 30 { shift = 30; fixed = Int64(Int32.max) }
        self.init(multiplier: Int32(fixed), shift: shift)
    }

    /// `x × real`, rounded as the reference does.
    @inline(__always)
    public func apply(_ x: Int32) -> Int32 {
        multiplyByQuantizedMultiplier(x, multiplier, shift)
    }
}

/// `(a × b × 2) >> 32` with rounding to nearest and saturation of the one overflow case.
@inline(__always)
public func saturatingRoundingDoublingHighMul(_ a: Int32, _ b: Int32) -> Int32 {
    if a == Int32.min && b == Int32.min { return Int32.max }
    let ab = Int64(a) * Int64(b)
    let nudge: Int64 = ab >= 0 ? (1 << 30) : (1 - (1 << 30))
    return Int32(truncatingIfNeeded: (ab + nudge) / (Int64(1) << 31))
}

/// `x / 2^exponent` rounded to nearest, ties away from zero.
@inline(__always)
public func roundingDivideByPOT(_ x: Int32, _ exponent: Int) -> Int32 {
    if exponent == 0 { return x }
    let mask = Int32(truncatingIfNeeded: (Int64(1) << exponent) - 1)
    let remainder = x & mask
    let threshold = (mask >> 1) + (x < 0 ? 1 : 0)
    return (x >> Int32(exponent)) + (remainder > threshold ? 1 : 0)
}

/// TFLite's `MultiplyByQuantizedMultiplier`: `x × multiplier × 2^(shift − 31)`, rounded.
@inline(__always)
public func multiplyByQuantizedMultiplier(_ x: Int32, _ multiplier: Int32, _ shift: Int) -> Int32 {
    let leftShift = shift > 0 ? shift : 0
    let rightShift = shift > 0 ? 0 : -shift
    return roundingDivideByPOT(
        saturatingRoundingDoublingHighMul(x &* (Int32(1) << Int32(leftShift)), multiplier), rightShift)
}

/// TFLite's `MultiplyByQuantizedMultiplierSmallerThanOneExp` (shift ≤ 0).
@inline(__always)
public func multiplyByQuantizedMultiplierSmallerThanOne(_ x: Int32, _ multiplier: Int32, _ shift: Int) -> Int32 {
    roundingDivideByPOT(saturatingRoundingDoublingHighMul(x, multiplier), -shift)
}

/// TFLite's `MultiplyByQuantizedMultiplierGreaterThanOne` (shift ≥ 0).
@inline(__always)
public func multiplyByQuantizedMultiplierGreaterThanOne(_ x: Int32, _ multiplier: Int32, _ shift: Int) -> Int32 {
    saturatingRoundingDoublingHighMul(x &* (Int32(1) << Int32(shift)), multiplier)
}
