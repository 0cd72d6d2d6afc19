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
    /// per invoke. The bulk runs in generated code where this process has it
    /// (`OffsetBytesToFloatAVX`), the rest in the portable loop; the floats are the same.
    public static func offsetInput(_ x: UnsafePointer<UInt8>, count: Int, offset: Int32,
                                   into out: UnsafeMutablePointer<Float>) {
        let done = generatedOffsetInput(GeneratedKernels.current?.offsetUInt8ToFloat, x, count: count, offset: offset, into: out)
        let f = Float(offset)
        for i in done..<count { out[i] = Float(x[i]) + f }
    }

    /// `offsetInput` for int8 values.
    public static func offsetInput(_ x: UnsafePointer<Int8>, count: Int, offset: Int32,
                                   into out: UnsafeMutablePointer<Float>) {
        let done = generatedOffsetInput(GeneratedKernels.current?.offsetInt8ToFloat, x, count: count, offset: offset, into: out)
        let f = Float(offset)
        for i in done..<count { out[i] = Float(x[i]) + f }
    }

    /// Runs generated conversion `kernel` (when non-nil) on the leading whole vectors of `count`
    /// bytes at `x`; returns how many values it converted.
    /// - Precondition: `count ≥ 0`; `x` holds `count` values and `out` room for `count` floats,
    ///   not overlapping them. Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments
    ///   show it (`GeneratedOffsetArguments.violation`).
    private static func generatedOffsetInput<T>(_ kernel: (function: OffsetBytesToFloatAVX.Function, lanes: Int)?,
                                                _ x: UnsafePointer<T>, count: Int, offset: Int32,
                                                into out: UnsafeMutablePointer<Float>) -> Int {
        guard let kernel, count >= kernel.lanes else { return 0 }
        var arguments = GeneratedOffsetArguments(source: UnsafeRawPointer(x), destination: UnsafeMutableRawPointer(out),
                                                 count: count, offset: Float(offset))
        KernelPrecondition.holds(arguments.violation())
        withUnsafePointer(to: &arguments) { kernel.function(UnsafeRawPointer($0)) }
        return count / kernel.lanes * kernel.lanes
    }
}
