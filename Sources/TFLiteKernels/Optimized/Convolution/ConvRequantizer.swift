/// Per-channel requantization laid out for 16-lane vectors: the multipliers and shifts of
/// `QuantizedConvolutionParameters` as separate arrays padded to a multiple of 16, so an
/// epilogue requantizes 16 accumulators at once with exactly the arithmetic of
/// `multiplyByQuantizedMultiplier` (64-bit products, the reference's double rounding).
/// Built once at prepare; immutable afterwards.
public final class ConvRequantizer: @unchecked Sendable {
    /// Q31 multipliers per channel (0 in the padding lanes).
    let multipliers: UnsafeMutablePointer<Int32>
    /// Left shifts (`max(shift, 0)`) per channel.
    let leftShifts: UnsafeMutablePointer<Int32>
    /// Right shifts (`max(-shift, 0)`) per channel.
    let rightShifts: UnsafeMutablePointer<Int32>
    /// The scalar parameters (offsets, clamp) and the per-channel multipliers.
    public let parameters: QuantizedConvolutionParameters
    let outputOffset: SIMD16<Int32>
    let lower: SIMD16<Int32>
    let upper: SIMD16<Int32>

    /// Lays out `parameters` for vector requantization.
    public init(_ parameters: QuantizedConvolutionParameters) {
        self.parameters = parameters
        let n = (parameters.outputMultipliers.count + 15) / 16 * 16
        multipliers = .allocate(capacity: max(16, n)); multipliers.initialize(repeating: 0, count: max(16, n))
        leftShifts = .allocate(capacity: max(16, n)); leftShifts.initialize(repeating: 0, count: max(16, n))
        rightShifts = .allocate(capacity: max(16, n)); rightShifts.initialize(repeating: 0, count: max(16, n))
        for (c, m) in parameters.outputMultipliers.enumerated() {
            multipliers[c] = m.multiplier
            leftShifts[c] = Int32(max(m.shift, 0))
            rightShifts[c] = Int32(max(-m.shift, 0))
        }
        outputOffset = SIMD16(repeating: parameters.outputOffset)
        lower = SIMD16(repeating: parameters.activationMin)
        upper = SIMD16(repeating: parameters.activationMax)
    }

    deinit {
        multipliers.deallocate(); leftShifts.deallocate(); rightShifts.deallocate()
    }

    /// `saturatingRoundingDoublingHighMul` on 8 lanes (the multiplier is never `Int32.min`).
    @inline(__always)
    static func doublingHighMul(_ a: SIMD8<Int32>, _ b: SIMD8<Int32>) -> SIMD8<Int32> {
        let ab = SIMD8<Int64>(truncatingIfNeeded: a) &* SIMD8<Int64>(truncatingIfNeeded: b)
        let nudge = SIMD8<Int64>(repeating: 1 << 30).replacing(with: 1 - (1 << 30), where: ab .< 0)
        let v = ab &+ nudge
        // Division by 2^31 rounding toward zero.
        let biased = v &+ SIMD8<Int64>(repeating: 0).replacing(with: (1 << 31) - 1, where: v .< 0)
        return SIMD8<Int32>(truncatingIfNeeded: biased &>> 31)
    }

    /// Requantizes 16 accumulators of channels `channel ..< channel + 16`, offset and clamped.
    @inline(__always)
    public func requantize(_ acc: SIMD16<Int32>, channel: Int) -> SIMD16<Int32> {
        let m = UnsafeRawPointer(multipliers + channel).loadUnaligned(as: SIMD16<Int32>.self)
        let ls = UnsafeRawPointer(leftShifts + channel).loadUnaligned(as: SIMD16<Int32>.self)
        let rs = UnsafeRawPointer(rightShifts + channel).loadUnaligned(as: SIMD16<Int32>.self)
        let x = acc &<< ls
        let h = SIMD16<Int32>(lowHalf: Self.doublingHighMul(x.lowHalf, m.lowHalf),
                              highHalf: Self.doublingHighMul(x.highHalf, m.highHalf))
        // roundingDivideByPOT with a per-lane exponent.
        let one = SIMD16<Int32>(repeating: 1), zero = SIMD16<Int32>()
        let mask = (one &<< rs) &- one
        let remainder = h & mask
        let threshold = (mask &>> one) &+ zero.replacing(with: one, where: h .< zero)
        var r = (h &>> rs) &+ zero.replacing(with: one, where: remainder .> threshold)
        r = r &+ outputOffset
        r = r.replacing(with: lower, where: r .< lower)
        return r.replacing(with: upper, where: r .> upper)
    }
}
