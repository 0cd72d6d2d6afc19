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
    /// - Precondition: `pixels ≥ 0`, `channels ≥ 1`; `sums` holds `pixels · channels` floats and
    ///   `dst` room for as many outputs (for in-place epilogues, the same row). The generated
    ///   forms' argument blocks are checked under `LITEVISION_INTERNAL_CHECKS`, once per call.
    func finish(_ sums: UnsafeMutablePointer<Float>, pixels: Int, channels: Int, to dst: UnsafeMutablePointer<Output>)
    /// The same finish as bias and clamp bounds for the generated tiles to apply in registers
    /// (`DepthwiseRowOptions.finish`), or nil when it is not of that form.
    var tileFinish: (bias: UnsafePointer<Float>?, min: Float, max: Float)? { get }
    /// The same finish as a requantization for the generated tiles to apply in registers,
    /// storing bytes at `row` (`DepthwiseRowOptions.requantize`), or nil when not of that form.
    func tileRequantization(_ row: UnsafeMutablePointer<Output>)
        -> (output: UnsafeMutablePointer<UInt8>, requantizer: ConvRequantizer, bias: UnsafePointer<Int32>)?
}

/// Float output: `clamp(sum + bias)`, in place.
struct DepthwiseFloatEpilogue: DepthwiseEpilogue {
    let bias: UnsafePointer<Float>?
    let activationMin: Float
    let activationMax: Float

    static var finishesInPlace: Bool { true }
    static var sumsAreExactIntegers: Bool { false }
    var tileFinish: (bias: UnsafePointer<Float>?, min: Float, max: Float)? { (bias, activationMin, activationMax) }
    func tileRequantization(_ row: UnsafeMutablePointer<Float>)
        -> (output: UnsafeMutablePointer<UInt8>, requantizer: ConvRequantizer, bias: UnsafePointer<Int32>)? { nil }

    func sums(for row: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>) -> UnsafeMutablePointer<Float> { row }

    /// Adds the bias and clamps: in the generated `DepthwiseFloatFinish16AVX` where this CPU has
    /// it for `c` channels, else 16 lanes at a time in Swift (per pixel in blocks of 16 channels
    /// then 8, or, when the channel count divides 16, over the whole row with the bias repeated).
    /// The generated form's argument block is checked under `LITEVISION_INTERNAL_CHECKS`
    /// (`GeneratedDepthwiseFinishArguments.violation(masksChannels:)`).
    @inline(never)
    func finish(_ sums: UnsafeMutablePointer<Float>, pixels: Int, channels c: Int, to dst: UnsafeMutablePointer<Float>) {
        #if !LITEVISION_AVX512
        if let (kernel, masksChannels) = GeneratedKernels.current?.depthwiseFloatFinish, masksChannels || c % 8 == 0 {
            var arguments = GeneratedDepthwiseFinishArguments(
                sums: UnsafeRawPointer(sums), dst: UnsafeMutableRawPointer(dst), pixels: pixels, channelBytes: c * 4,
                fullBlockBytes: (masksChannels ? c / 16 * 16 : c) * 4, bias: bias.map { UnsafeRawPointer($0) },
                activationMin: activationMin, activationMax: activationMax, laneMask: (1 << (c % 16)) - 1)
            KernelPrecondition.holds(arguments.violation(masksChannels: masksChannels))
            withUnsafePointer(to: &arguments) { kernel(UnsafeRawPointer($0)) }
            return
        }
        #endif
        let lo = SIMD16<Float>(repeating: activationMin), hi = SIMD16<Float>(repeating: activationMax)
        @inline(__always) func store(_ v: SIMD16<Float>, _ d: UnsafeMutablePointer<Float>) {
            UnsafeMutableRawPointer(d).storeBytes(of: v.replacing(with: lo, where: v .< lo).replacing(with: hi, where: v .> hi),
                                                  as: SIMD16<Float>.self)
        }
        if 16 % c == 0 {
            var tiledBias = SIMD16<Float>()
            for lane in 0..<16 { tiledBias[lane] = bias?[lane % c] ?? 0 }
            let count = pixels * c
            var i = 0
            while i + 16 <= count {
                store(UnsafeRawPointer(sums + i).loadUnaligned(as: SIMD16<Float>.self) + tiledBias, dst + i)
                i += 16
            }
            for j in i..<count { dst[j] = min(max(sums[j] + (bias?[j % c] ?? 0), activationMin), activationMax) }
            return
        }
        let blocks = c / 16
        let lo8 = SIMD8<Float>(repeating: activationMin), hi8 = SIMD8<Float>(repeating: activationMax)
        for p in 0..<pixels {
            let s = sums + p * c, d = dst + p * c
            for ch in stride(from: 0, to: blocks * 16, by: 16) {
                var v = UnsafeRawPointer(s + ch).loadUnaligned(as: SIMD16<Float>.self)
                if let bias { v += UnsafeRawPointer(bias + ch).loadUnaligned(as: SIMD16<Float>.self) }
                store(v, d + ch)
            }
            var ch = blocks * 16
            if ch + 8 <= c {
                var v = UnsafeRawPointer(s + ch).loadUnaligned(as: SIMD8<Float>.self)
                if let bias { v += UnsafeRawPointer(bias + ch).loadUnaligned(as: SIMD8<Float>.self) }
                v = v.replacing(with: lo8, where: v .< lo8).replacing(with: hi8, where: v .> hi8)
                UnsafeMutableRawPointer(d + ch).storeBytes(of: v, as: SIMD8<Float>.self)
                ch += 8
            }
            for k in ch..<c { d[k] = min(max(s[k] + (bias?[k] ?? 0), activationMin), activationMax) }
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
        guard bias != nil, requantizer.suitsGeneratedRequantization(unsigned: true), let kernels = GeneratedKernels.current
        else { return nil }
        return requantizer.parameters.activationMin < 0 ? kernels.depthwiseRequantizeInt8 : kernels.depthwiseRequantizeUInt8
    }

    static var finishesInPlace: Bool { false }
    static var sumsAreExactIntegers: Bool { true }
    var tileFinish: (bias: UnsafePointer<Float>?, min: Float, max: Float)? { nil }
    /// Where the AVX-512 row end applies (`generatedKernel512`: a bias, no left shift), so do
    /// the requantizing tiles.
    func tileRequantization(_ row: UnsafeMutablePointer<UInt8>)
        -> (output: UnsafeMutablePointer<UInt8>, requantizer: ConvRequantizer, bias: UnsafePointer<Int32>)? {
        guard let bias, generatedKernel512 != nil else { return nil }
        return (row, requantizer, bias)
    }

    func sums(for row: UnsafeMutablePointer<UInt8>, scratch: UnsafeMutablePointer<Float>) -> UnsafeMutablePointer<Float> { scratch }

    /// The AVX-512 form (`DepthwiseRequantize16AVX512`), which takes every channel, where it applies.
    var generatedKernel512: DepthwiseRequantize16AVX512.Function? {
        guard bias != nil, requantizer.suitsGeneratedRequantization(unsigned: false) else { return nil }
        return GeneratedKernels.current?.depthwiseRequantize512
    }

    /// Requantizes the row: in the generated AVX-512 form for every channel where it applies,
    /// else whole 16-channel blocks in the AVX2 form and the rest in Swift. The generated forms'
    /// argument blocks are checked under `LITEVISION_INTERNAL_CHECKS`
    /// (`GeneratedDepthwiseRequantizeArguments.violation(masksLastBlock:)`).
    @inline(never)
    func finish(_ sums: UnsafeMutablePointer<Float>, pixels: Int, channels c: Int, to dst: UnsafeMutablePointer<UInt8>) {
        if pixels > 0, c > 0, let generated = generatedKernel512 {
            let p = requantizer.parameters
            var arguments = GeneratedDepthwiseRequantizeArguments(
                sums: UnsafeRawPointer(sums), output: UnsafeMutableRawPointer(dst), pixels: pixels, blocks: (c + 15) / 16,
                sumsPixelBytes: 4 * c, outputPixelBytes: c, bias: UnsafeRawPointer(bias!),
                multipliers: UnsafeRawPointer(requantizer.multipliers),
                activationMin: p.activationMin, activationMax: p.activationMax,
                lastLaneMask: c % 16 == 0 ? 0xFFFF : (1 << UInt32(c % 16)) - 1,
                roundingTerms: requantizer.roundingTerms(atChannel: 0))
            KernelPrecondition.holds(arguments.violation(masksLastBlock: true))
            withUnsafePointer(to: &arguments) { generated(UnsafeRawPointer($0)) }
            return
        }
        let blocks = c / 16
        if blocks > 0, pixels > 0, let generated = generatedKernel {
            // Whole 16-channel blocks in generated code, the remaining channels below.
            let p = requantizer.parameters
            var arguments = GeneratedDepthwiseRequantizeArguments(
                sums: UnsafeRawPointer(sums), output: UnsafeMutableRawPointer(dst), pixels: pixels, blocks: blocks,
                sumsPixelBytes: 4 * c, outputPixelBytes: c, bias: UnsafeRawPointer(bias!),
                multipliers: UnsafeRawPointer(requantizer.multipliers),
                activationMin: p.activationMin, activationMax: p.activationMax,
                roundingTerms: requantizer.roundingTerms(atChannel: 0))
            KernelPrecondition.holds(arguments.violation(masksLastBlock: false))
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
