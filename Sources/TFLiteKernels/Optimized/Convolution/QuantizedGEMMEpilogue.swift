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
}

extension ConvIntegerEpilogue {
    var generatedRequantization: (requantizer: ConvRequantizer, signed: Bool)? { nil }
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
