/// The last step of the channel-vectorized depthwise kernels: turns one output row of float
/// sums (pixel-major, `channels` per pixel) into output elements. One kernel loop nest serves
/// float and quantized depthwise convolution through this protocol; it is called once per row,
/// so the hot per-tile code never crosses a generic call.
protocol DepthwiseEpilogue {
    /// The output element type.
    associatedtype Output
    /// True when the sums are written into the output row itself and finished in place.
    static var finishesInPlace: Bool { get }
    /// True when the sums are exact integers (quantized inputs and filters), so any order or
    /// fusion of the multiply-adds gives the same sums.
    static var sumsAreExactIntegers: Bool { get }
    /// Where the sums of output row `row` go: the row itself or `scratch` (one row of floats).
    func sums(for row: UnsafeMutablePointer<Output>, scratch: UnsafeMutablePointer<Float>) -> UnsafeMutablePointer<Float>
    /// Finishes `pixels` output pixels of `channels` channels.
    func finish(_ sums: UnsafeMutablePointer<Float>, pixels: Int, channels: Int, to dst: UnsafeMutablePointer<Output>)
}

/// Float output: `clamp(sum + bias)`, in place.
struct DepthwiseFloatEpilogue: DepthwiseEpilogue {
    let bias: UnsafePointer<Float>?
    let activationMin: Float
    let activationMax: Float

    static var finishesInPlace: Bool { true }
    static var sumsAreExactIntegers: Bool { false }

    func sums(for row: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>) -> UnsafeMutablePointer<Float> { row }

    @inline(never)
    func finish(_ sums: UnsafeMutablePointer<Float>, pixels: Int, channels c: Int, to dst: UnsafeMutablePointer<Float>) {
        let blocks = c / 16
        let lo = SIMD16<Float>(repeating: activationMin), hi = SIMD16<Float>(repeating: activationMax)
        for p in 0..<pixels {
            let s = sums + p * c, d = dst + p * c
            for ch in stride(from: 0, to: blocks * 16, by: 16) {
                var v = UnsafeRawPointer(s + ch).loadUnaligned(as: SIMD16<Float>.self)
                if let bias { v += UnsafeRawPointer(bias + ch).loadUnaligned(as: SIMD16<Float>.self) }
                v = v.replacing(with: lo, where: v .< lo).replacing(with: hi, where: v .> hi)
                UnsafeMutableRawPointer(d + ch).storeBytes(of: v, as: SIMD16<Float>.self)
            }
            for ch in (blocks * 16)..<c {
                d[ch] = min(max(s[ch] + (bias?[ch] ?? 0), activationMin), activationMax)
            }
        }
    }
}

/// Quantized output: the float sums are exact integers (at most `Conv2DOptimized.exactSteps`
/// taps of `(x + inputOffset)(w + filterOffset)`); plus the Int32 bias, requantized bit-exactly.
/// Stores the 8-bit pattern, which is the same for uint8 and int8 outputs (the values are
/// already clamped into the output type's range), so one compiled kernel serves both.
struct DepthwiseRequantizeEpilogue: DepthwiseEpilogue {
    let requantizer: ConvRequantizer
    let bias: UnsafePointer<Int32>?

    /// The generated requantizing end (`DepthwiseRequantize16AVX2`) where it applies: a bias, no
    /// left shift. Clamped results fit the output type, so the clamp range tells the packing:
    /// a negative minimum means int8; a range within 0...127 packs the same either way.
    var generatedKernel: DepthwiseRequantize16AVX2.Function? {
        guard bias != nil, requantizer.vectorizable, !requantizer.hasLeftShift, let kernels = GeneratedKernels.current
        else { return nil }
        return requantizer.parameters.activationMin < 0 ? kernels.depthwiseRequantizeInt8 : kernels.depthwiseRequantizeUInt8
    }

    static var finishesInPlace: Bool { false }
    static var sumsAreExactIntegers: Bool { true }

    func sums(for row: UnsafeMutablePointer<UInt8>, scratch: UnsafeMutablePointer<Float>) -> UnsafeMutablePointer<Float> { scratch }

    @inline(never)
    func finish(_ sums: UnsafeMutablePointer<Float>, pixels: Int, channels c: Int, to dst: UnsafeMutablePointer<UInt8>) {
        let blocks = c / 16
        if blocks > 0, pixels > 0, let generated = generatedKernel {
            // Whole 16-channel blocks in generated code, the remaining channels below.
            let p = requantizer.parameters
            var arguments = GeneratedDepthwiseRequantizeArguments(
                sums: UnsafeRawPointer(sums), output: UnsafeMutableRawPointer(dst), pixels: pixels, blocks: blocks,
                sumsPixelBytes: 4 * c, outputPixelBytes: c, bias: UnsafeRawPointer(bias!),
                multipliers: UnsafeRawPointer(requantizer.multipliers), rightShifts: UnsafeRawPointer(requantizer.rightShifts),
                remainderMasks: UnsafeRawPointer(requantizer.remainderMasks), outputOffset: p.outputOffset,
                activationMin: p.activationMin, activationMax: p.activationMax)
            withUnsafePointer(to: &arguments) { generated(UnsafeRawPointer($0)) }
            guard blocks * 16 < c else { return }
            for p in 0..<pixels {
                let s = sums + p * c, d = dst + p * c
                for ch in (blocks * 16)..<c {
                    let total = Int32(s[ch]) &+ (bias?[ch] ?? 0)
                    d[ch] = UInt8(truncatingIfNeeded: requantizer.parameters.requantize(total, channel: ch))
                }
            }
            return
        }
        for p in 0..<pixels {
            let s = sums + p * c, d = dst + p * c
            for ch in stride(from: 0, to: blocks * 16, by: 16) {
                var total = Conv2DOptimized.exactInteger(UnsafeRawPointer(s + ch).loadUnaligned(as: SIMD16<Float>.self))
                if let bias { total &+= UnsafeRawPointer(bias + ch).loadUnaligned(as: SIMD16<Int32>.self) }
                requantizer.store(total, channel: ch, lanes: 16, to: d + ch)
            }
            for ch in (blocks * 16)..<c {
                let total = Int32(s[ch]) &+ (bias?[ch] ?? 0)
                d[ch] = UInt8(truncatingIfNeeded: requantizer.parameters.requantize(total, channel: ch))
            }
        }
    }
}
