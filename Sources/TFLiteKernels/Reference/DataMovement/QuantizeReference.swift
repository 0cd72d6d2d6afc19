// QUANTIZE: float → integer (affine) and integer → integer requantization.

/// Reference QUANTIZE kernels.
public enum QuantizeReference {
    /// Float → integer: `clamp(round(x / scale) + zeroPoint)` with `round` half away from zero
    /// and the division in float, as the reference's `AffineQuantize`.
    /// - Precondition: `count ≥ 0`; every pointer holds at least `count` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    @inlinable
    public static func affine<Output: FixedWidthInteger>(_ input: UnsafePointer<Float>, count: Int,
                                                         scale: Float, zeroPoint: Int32,
                                                         output: UnsafeMutablePointer<Output>) {
        KernelPrecondition.validCount(count)
        let lo = Int32(clamping: Output.min), hi = Int32(clamping: Output.max)
        for i in 0..<count {
            let q = SaturatingRound.toInt32(input[i] / scale) &+ zeroPoint
            output[i] = Output(truncatingIfNeeded: SaturatingRound.clamp(q, lo, hi))
        }
    }

    /// Float → integer with one scale and zero point per slice along an axis
    /// (`outer × channels × inner` layout).
    @inlinable
    public static func affinePerChannel<Output: FixedWidthInteger>(
        _ input: UnsafePointer<Float>, outerCount: Int, channelCount: Int, innerCount: Int,
        scales: [Float], zeroPoints: [Int32], output: UnsafeMutablePointer<Output>) {
        let lo = Int32(clamping: Output.min), hi = Int32(clamping: Output.max)
        var i = 0
        for _ in 0..<outerCount {
            for c in 0..<channelCount {
                let scale = scales[c], zeroPoint = zeroPoints[c]
                for _ in 0..<innerCount {
                    let q = SaturatingRound.toInt32(input[i] / scale) &+ zeroPoint
                    output[i] = Output(truncatingIfNeeded: SaturatingRound.clamp(q, lo, hi))
                    i += 1
                }
            }
        }
    }

    /// Integer → integer: `clamp(((q − inputZero) × multiplier) + outputZero)` with TFLite's
    /// fixed-point multiply; `multiplier` is `QuantizedMultiplier(inputScale / outputScale)`.
    /// - Precondition: `count ≥ 0`; every pointer holds at least `count` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    @inlinable
    public static func requantize<Input: FixedWidthInteger, Output: FixedWidthInteger>(
        _ input: UnsafePointer<Input>, count: Int, inputZeroPoint: Int32,
        multiplier: QuantizedMultiplier, outputZeroPoint: Int32, output: UnsafeMutablePointer<Output>) {
        KernelPrecondition.validCount(count)
        let lo = Int32(clamping: Output.min), hi = Int32(clamping: Output.max)
        for i in 0..<count {
            let centered = Int32(truncatingIfNeeded: input[i]) &- inputZeroPoint
            let q = multiplier.apply(centered) &+ outputZeroPoint
            output[i] = Output(truncatingIfNeeded: SaturatingRound.clamp(q, lo, hi))
        }
    }
}
