import TFLiteKernels

/// The weights a quantized CONV_2D / FULLY_CONNECTED packs once at prepare for `QuantizedGEMM`,
/// and the activation buffer it refills per invoke: the int8-quad layout for int8 with symmetric
/// weights where the build has a native kernel for it (AVX-512 VNNI), the int16-pair layout
/// otherwise (uint8, hybrid, other builds). Layers with few input channels run in patch form
/// (`QuantizedConvPatches`).
final class QuantizedGEMMOperands {
    /// Whether the GEMM reads gathered patch rows instead of the input pixels.
    let patches: Bool
    /// The geometry the GEMM runs on: the layer's, or its patch form.
    let geometry: ConvolutionGeometry

    /// Weights and activations as `Int16` pairs (`Int16PairPacking`).
    struct Pairs {
        var weights: [Int16]
        /// Activations; the trailing zero pixel stays zero.
        var input: [Int16]
    }

    /// Weights as int8 quads and activations as unsigned bytes (`Int8QuadPacking`).
    struct Quads {
        var weights: [Int8]
        /// `−(zp + 128)·Σw` per output channel.
        var correction: [Int32]
        /// Activations; the trailing padding pixel holds `zp + 128`.
        var input: [UInt8]
        /// Bias plus correction, refreshed per invoke.
        var bias: [Int32]
    }

    /// Set for the int16-pair layout.
    var pairs: Pairs?
    /// Set for the int8-quad layout.
    var quads: Quads?

    /// Packs `filter` (`[outputDepth, taps, filterInputDepth]`, element type per `mode`) for
    /// geometry `g` (groups == 1). `filterOffset` / `inputOffset` are the negated zero points
    /// (0 for hybrid, whose input offsets vary per invoke).
    init(mode: ConvComputeMode, geometry g: ConvolutionGeometry, filter: UnsafeRawPointer,
         filterOffset: Int32, inputOffset: Int32) {
        patches = QuantizedConvPatches.prefersPatches(g)
        let g = patches ? QuantizedConvPatches.patchGeometry(g) : g
        geometry = g
        let taps = g.filterHeight * g.filterWidth
        let pixels = g.batches * g.inputHeight * g.inputWidth
        if mode == .int8, filterOffset == 0, QuantizedGEMM.prefersInt8Quads {
            let w = filter.assumingMemoryBound(to: Int8.self)
            var input = [UInt8](repeating: 0, count: Int8QuadPacking.activationCount(pixels: pixels, depth: g.inputDepth))
            Int8QuadPacking.fillPaddingPixel(&input, pixels: pixels, depth: g.inputDepth, inputOffset: inputOffset)
            quads = Quads(weights: Int8QuadPacking.pack(w, outputDepth: g.outputDepth, taps: taps, inputDepth: g.inputDepth),
                          correction: Int8QuadPacking.biasCorrection(w, outputDepth: g.outputDepth, depth: taps * g.inputDepth,
                                                                     inputOffset: inputOffset),
                          input: input, bias: Array(repeating: 0, count: g.outputDepth))
            return
        }
        let weights: [Int16]
        if mode == .uint8 {
            weights = Int16PairPacking.pack(filter.assumingMemoryBound(to: UInt8.self), offset: filterOffset,
                                            outputDepth: g.outputDepth, taps: taps, inputDepth: g.inputDepth)
        } else {
            weights = Int16PairPacking.pack(filter.assumingMemoryBound(to: Int8.self), offset: filterOffset,
                                            outputDepth: g.outputDepth, taps: taps, inputDepth: g.inputDepth)
        }
        pairs = Pairs(weights: weights,
                      input: Array(repeating: 0, count: Int16PairPacking.activationCount(pixels: pixels, depth: g.inputDepth)))
    }
}
