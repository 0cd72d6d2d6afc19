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
    ///
    /// Total: never traps. Values the reference clamps are clamped the same way (a shift above
    /// 30 gives `Int32.max` at shift 30, below −31 gives 0); infinities clamp like huge finite
    /// values and NaN gives 0. Negative values keep their sign, as `frexp` does. Model data
    /// goes through ``init(checking:_:)`` instead, which reports what the reference cannot decompose.
    public init(_ real: Double) {
        guard real.isFinite else {
            self.init(multiplier: real.isNaN ? 0 : Int32.max, shift: real.isNaN ? 0 : 30)
            return
        }
        if real == 0 { self.init(multiplier: 0, shift: 0); return }
        let significand = real.significand   // in [1, 2)
        var shift = Int(real.exponent) + 1    // frexp: real = q × 2^shift, q in [0.5, 1)
        let q = (real < 0 ? -significand : significand) / 2
        // Half away from zero without a libm call: |q|·2^31 is below 2^31 with at most 53
        // significant bits down to 2^-22, so adding 0.5 is exact and truncation rounds it.
        let magnitude = Int64(q.magnitude * Double(Int64(1) << 31) + 0.5)
        var fixed = q < 0 ? -magnitude : magnitude
        if fixed == Int64(1) << 31 { fixed /= 2; shift += 1 }
        if shift < -31 { shift = 0; fixed = 0 }
        if shift > 30 { shift = 30; fixed = Int64(Int32.max) }
        self.init(multiplier: Int32(fixed), shift: shift)
    }

    /// Decomposes `real` as ``init(_:)`` after checking the reference runtime's
    /// `QuantizeMultiplier` contract: a finite value (NaN and infinities come from
    /// non-finite or overflowing scales, betas or alphas in a model).
    /// - Parameter what: names the value in the error, e.g. "CONV_2D output multiplier".
    /// - Throws: ``QuantizationParameterError`` naming `what` and the value.
    public init(checking real: Double, _ what: @autoclosure () -> String) throws {
        guard real.isFinite else { throw QuantizationParameterError(what: what(), value: real) }
        self.init(real)
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

/// A real multiplier outside the reference runtime's `QuantizeMultiplier` contract (NaN or
/// infinite): the model's scales, beta or alpha are not finite or their ratio overflows.
public struct QuantizationParameterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Which multiplier, e.g. "SOFTMAX input multiplier (beta × input scale)".
    public let what: String
    /// The offending value.
    public let value: Double
    /// Creates the error.
    public init(what: String, value: Double) { self.what = what; self.value = value }
    /// A message naming the multiplier and what to fix.
    public var description: String {
        "\(what) is \(value), not a finite number: the model's quantization scales or options are out of range"
    }
    /// NaN never equals itself; errors compare by description.
    public static func == (a: Self, b: Self) -> Bool { a.what == b.what && a.value.bitPattern == b.value.bitPattern }
}
