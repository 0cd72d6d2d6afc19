/// The last step of the channel-vectorized depthwise kernels: turns the float sums of one
/// output pixel's taps into output elements. One kernel loop nest serves float and quantized
/// depthwise convolution through this protocol.
protocol DepthwiseEpilogue {
    /// The output element type.
    associatedtype Output
    /// Finishes channels `channel ..< channel + 16` of one output pixel.
    func store(_ acc: SIMD16<Float>, channel: Int, to dst: UnsafeMutablePointer<Output>)
    /// Finishes one channel of one output pixel.
    func store(_ acc: Float, channel: Int, to dst: UnsafeMutablePointer<Output>)
}

/// Float output: `clamp(acc + bias)`.
struct DepthwiseFloatEpilogue: DepthwiseEpilogue {
    let bias: UnsafePointer<Float>?
    let activationMin: Float
    let activationMax: Float

    @inline(__always)
    func store(_ acc: SIMD16<Float>, channel: Int, to dst: UnsafeMutablePointer<Float>) {
        var v = acc
        if let bias { v += UnsafeRawPointer(bias + channel).loadUnaligned(as: SIMD16<Float>.self) }
        let lo = SIMD16<Float>(repeating: activationMin), hi = SIMD16<Float>(repeating: activationMax)
        v = v.replacing(with: lo, where: v .< lo).replacing(with: hi, where: v .> hi)
        UnsafeMutableRawPointer(dst).storeBytes(of: v, as: SIMD16<Float>.self)
    }

    @inline(__always)
    func store(_ acc: Float, channel: Int, to dst: UnsafeMutablePointer<Float>) {
        dst.pointee = min(max(acc + (bias?[channel] ?? 0), activationMin), activationMax)
    }
}

/// Quantized output: the float sums are exact integers (at most `Conv2DOptimized.exactSteps`
/// taps of `(x + inputOffset)(w + filterOffset)`); plus the Int32 bias, requantized bit-exactly.
struct DepthwiseRequantizeEpilogue<Element: FixedWidthInteger>: DepthwiseEpilogue {
    let requantizer: ConvRequantizer
    let bias: UnsafePointer<Int32>?

    @inline(__always)
    func store(_ acc: SIMD16<Float>, channel: Int, to dst: UnsafeMutablePointer<Element>) {
        var total = Conv2DOptimized.exactInteger(acc)
        if let bias { total &+= UnsafeRawPointer(bias + channel).loadUnaligned(as: SIMD16<Int32>.self) }
        requantizer.store(total, channel: channel, lanes: 16, to: dst)
    }

    @inline(__always)
    func store(_ acc: Float, channel: Int, to dst: UnsafeMutablePointer<Element>) {
        let total = Int32(acc) &+ (bias?[channel] ?? 0)
        dst.pointee = Element(truncatingIfNeeded: requantizer.parameters.requantize(total, channel: channel))
    }
}
