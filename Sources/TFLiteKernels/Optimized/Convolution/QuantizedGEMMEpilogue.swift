/// What the quantized GEMM does with a finished row of 16 Int32 accumulators (bias already
/// included for quantized outputs).
protocol ConvIntegerEpilogue {
    associatedtype Output
    /// Writes `lanes` results of output pixel `pixel` (batch `batch`), channels `n0 ..< n0 + lanes`.
    func store(_ acc: SIMD16<Int32>, pixel: Int, batch: Int, channel n0: Int, lanes: Int,
               outputDepth: Int, to output: UnsafeMutablePointer<Output>)
    /// The requantizer a generated kernel can apply in registers instead of `store` (8-bit
    /// outputs whose requantizer is vectorizable with no left shift), or nil.
    var generatedRequantization: (requantizer: ConvRequantizer, signed: Bool)? { get }
    /// Writes `panels` whole panels (16 channels each, from `n0`) of the tile's `rows` pixels
    /// from `firstPixel` at once: `acc` holds the sums (pixel `r`, panel `k` at
    /// `r · 32 + k · 16`), `bias` the Int32 terms of the panels' channels. Returns false, having
    /// written nothing, where it has no such path; the caller then stores row by row.
    func storeTile(_ acc: UnsafePointer<Int32>, bias: UnsafePointer<Int32>?, firstPixel: Int, rows: Int, pixelsPerImage: Int,
                   channel n0: Int, panels: Int, outputDepth: Int, to output: UnsafeMutablePointer<Output>) -> Bool
}

extension ConvIntegerEpilogue {
    var generatedRequantization: (requantizer: ConvRequantizer, signed: Bool)? { nil }
    func storeTile(_ acc: UnsafePointer<Int32>, bias: UnsafePointer<Int32>?, firstPixel: Int, rows: Int, pixelsPerImage: Int,
                   channel n0: Int, panels: Int, outputDepth: Int, to output: UnsafeMutablePointer<Output>) -> Bool { false }
}

/// Requantization to uint8/int8, bit-exact with the reference kernels (16 lanes at a time).
struct ConvRequantizeEpilogue<Element: FixedWidthInteger & SIMDScalar>: ConvIntegerEpilogue {
    let requantizer: ConvRequantizer
    @inline(__always)
    func store(_ acc: SIMD16<Int32>, pixel: Int, batch: Int, channel n0: Int, lanes: Int,
               outputDepth: Int, to output: UnsafeMutablePointer<Element>) {
        let dst = output + pixel * outputDepth + n0
        requantizer.store(acc, channel: n0, lanes: lanes, to: dst)
    }

    var generatedRequantization: (requantizer: ConvRequantizer, signed: Bool)? {
        guard Element.bitWidth == 8, requantizer.vectorizable, !requantizer.hasLeftShift else { return nil }
        return (requantizer, Element.isSigned)
    }
}

/// Hybrid output: `clamp(acc · filterScale_c · inputScale_b + bias_c)` in float.
struct ConvHybridEpilogue: ConvIntegerEpilogue {
    let parameters: HybridConvolutionParameters
    let inputScales: UnsafePointer<Float>
    let bias: UnsafePointer<Float>?
    @inline(__always)
    func store(_ acc: SIMD16<Int32>, pixel: Int, batch: Int, channel n0: Int, lanes: Int,
               outputDepth: Int, to output: UnsafeMutablePointer<Float>) {
        let dst = output + pixel * outputDepth + n0
        let s = inputScales[batch]
        let filterScales = parameters.filterScales
        if lanes == 16, n0 + 16 <= filterScales.count {
            // The scalar steps lane by lane, in the same order: the same floats.
            let scales = filterScales.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress! + n0).loadUnaligned(as: SIMD16<Float>.self) }
            let sums = SIMD16<Float>(acc)
            var v = parameters.scalesMultipliedFirst ? sums * (SIMD16(repeating: s) * scales) : sums * scales * SIMD16(repeating: s)
            if let bias { v += UnsafeRawPointer(bias + n0).loadUnaligned(as: SIMD16<Float>.self) }
            let low = SIMD16<Float>(repeating: parameters.activationMin), high = SIMD16<Float>(repeating: parameters.activationMax)
            v.replace(with: low, where: low .>= v)     // Swift.max(v, low)
            v.replace(with: high, where: high .< v)    // Swift.min(v, high)
            UnsafeMutableRawPointer(dst).storeBytes(of: v, as: SIMD16<Float>.self)
            return
        }
        for l in 0..<lanes {
            var v = parameters.rescale(acc[l], channel: n0 + l, inputScale: s)
            if let bias { v += bias[n0 + l] }
            dst[l] = min(max(v, parameters.activationMin), parameters.activationMax)
        }
    }
}

extension ConvHybridEpilogue {
    @inline(__always)
    func storeTile(_ acc: UnsafePointer<Int32>, bias correction: UnsafePointer<Int32>?, firstPixel: Int, rows: Int,
                   pixelsPerImage: Int, channel n0: Int, panels: Int, outputDepth: Int,
                   to output: UnsafeMutablePointer<Float>) -> Bool {
        storeTile(acc, correction: correction, firstPixel: firstPixel, rows: rows, pixelsPerImage: pixelsPerImage, channel: n0,
                  panels: panels, outputDepth: outputDepth, to: output, kernels: GeneratedKernels.current)
    }

    /// `storeTile` in `HybridFloatEpilogueAVX` of `kernels` (tests pass each level's): for tiles
    /// whose pixels share one image (one input scale) and whole panels within the filter scales;
    /// `correction` nil adds no terms. The multipliers are the filter scales and the input scale
    /// apart (`(acc · filterScale) · inputScale`), or their products and 1 when the reference
    /// multiplies the scales first (`acc · (inputScale · filterScale)`, then `· 1`, exact).
    func storeTile(_ acc: UnsafePointer<Int32>, correction: UnsafePointer<Int32>?, firstPixel: Int, rows: Int, pixelsPerImage: Int,
                   channel n0: Int, panels: Int, outputDepth: Int, to output: UnsafeMutablePointer<Float>,
                   kernels: GeneratedKernels?) -> Bool {
        let channels = 16 * panels
        guard let generated = kernels?.hybridEpilogue, rows > 0, panels == 1 || panels == 2,
              n0 + channels <= outputDepth, n0 + channels <= parameters.filterScales.count,
              firstPixel / pixelsPerImage == (firstPixel + rows - 1) / pixelsPerImage else { return false }
        let s = inputScales[firstPixel / pixelsPerImage]
        parameters.filterScales.withUnsafeBufferPointer { filterScales in
            var products = SIMD32<Float>()
            let scales = filterScales.baseAddress! + n0
            if parameters.scalesMultipliedFirst {
                let multiplier = SIMD16<Float>(repeating: s)
                products.lowHalf = multiplier * UnsafeRawPointer(scales).loadUnaligned(as: SIMD16<Float>.self)
                if panels == 2 { products.highHalf = multiplier * UnsafeRawPointer(scales + 16).loadUnaligned(as: SIMD16<Float>.self) }
            }
            var zeros = SIMD32<Int32>()   // the terms where there are none
            withUnsafeBytes(of: &zeros) { zeros in withUnsafeBytes(of: &products) { products in
                var arguments = GeneratedHybridEpilogueArguments(
                    accumulators: UnsafeRawPointer(acc), output: UnsafeMutableRawPointer(output + firstPixel * outputDepth + n0),
                    outputStride: outputDepth * 4, rows: rows, panels: panels,
                    correction: correction.map { UnsafeRawPointer($0 + n0) } ?? zeros.baseAddress!,
                    multipliers: parameters.scalesMultipliedFirst ? products.baseAddress! : UnsafeRawPointer(scales),
                    bias: bias.map { UnsafeRawPointer($0 + n0) }, inputScale: parameters.scalesMultipliedFirst ? 1 : s,
                    lower: parameters.activationMin, upper: parameters.activationMax)
                KernelPrecondition.holds(arguments.violation())
                withUnsafePointer(to: &arguments) { generated(UnsafeRawPointer($0)) }
            } }
        }
        return true
    }
}
