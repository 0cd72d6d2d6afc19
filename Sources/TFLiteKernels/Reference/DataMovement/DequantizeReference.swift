// DEQUANTIZE: integer → float (per tensor or per channel) and float16 → float.

/// Reference DEQUANTIZE kernels.
public enum DequantizeReference {
    /// `Float(scale × (q − zeroPoint))` with the product in double, as the reference does.
    /// - Precondition: `count ≥ 0`; every pointer holds at least `count` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    @inlinable
    public static func affine<Input: FixedWidthInteger>(_ input: UnsafePointer<Input>, count: Int,
                                                        scale: Float, zeroPoint: Int32,
                                                        output: UnsafeMutablePointer<Float>) {
        KernelPrecondition.validCount(count)
        let s = Double(scale)
        for i in 0..<count {
            let centered = Int64(input[i]) - Int64(zeroPoint)
            output[i] = Float(s * Double(centered))
        }
    }

    /// Per-channel: `(q − zeroPoint[c]) × scale[c]` in float, `outer × channels × inner` layout.
    @inlinable
    public static func affinePerChannel<Input: FixedWidthInteger>(
        _ input: UnsafePointer<Input>, outerCount: Int, channelCount: Int, innerCount: Int,
        scales: [Float], zeroPoints: [Int32], output: UnsafeMutablePointer<Float>) {
        var i = 0
        for _ in 0..<outerCount {
            for c in 0..<channelCount {
                let scale = scales[c], zeroPoint = zeroPoints[c]
                for _ in 0..<innerCount {
                    output[i] = Float(Int32(truncatingIfNeeded: input[i]) &- zeroPoint) * scale
                    i += 1
                }
            }
        }
    }

    /// Float16 bit patterns → float32.
    /// - Precondition: `count ≥ 0`; every pointer holds at least `count` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func float16(_ input: UnsafePointer<UInt16>, count: Int, output: UnsafeMutablePointer<Float>) {
        KernelPrecondition.validCount(count)
        Float16Conversion.convertToFloat(input, output, count: count)
    }
}
