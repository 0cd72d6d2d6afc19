/// Exact small integers in `Float`: the input form of the float-accumulating integer kernels
/// (the depthwise ones), which sum products of values |v| ≤ 255 in float and move the partial
/// sums to Int32 before they could lose precision.
extension Conv2DOptimized {
    /// Float partial sums stay below 2^22 for this many steps (|product| ≤ 255 · 255), so
    /// adding 1.5 · 2^23 and reinterpreting the bits yields the exact integer.
    static let exactSteps = 64

    /// The exact float-to-Int32 conversion of integral values below 2^22 in magnitude.
    @inline(__always)
    static func exactInteger(_ v: SIMD16<Float>) -> SIMD16<Int32> {
        let biased = v + SIMD16<Float>(repeating: 12_582_912)
        return unsafeBitCast(biased, to: SIMD16<Int32>.self) &- SIMD16<Int32>(repeating: 0x4B40_0000)
    }

    /// Converts quantized values to exact floats `x + offset` (|x + offset| ≤ 255). Call once
    /// per invoke.
    public static func offsetInput(_ x: UnsafePointer<UInt8>, count: Int, offset: Int32,
                                   into out: UnsafeMutablePointer<Float>) {
        let f = Float(offset)
        for i in 0..<count { out[i] = Float(x[i]) + f }
    }

    /// `offsetInput` for int8 values.
    public static func offsetInput(_ x: UnsafePointer<Int8>, count: Int, offset: Int32,
                                   into out: UnsafeMutablePointer<Float>) {
        let f = Float(offset)
        for i in 0..<count { out[i] = Float(x[i]) + f }
    }
}
