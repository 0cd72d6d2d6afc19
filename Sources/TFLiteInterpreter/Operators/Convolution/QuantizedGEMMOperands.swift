import TFLiteKernels

/// The weights a quantized CONV_2D / FULLY_CONNECTED packs once at prepare for `QuantizedGEMM`,
/// and the activation buffer it refills per invoke: the int8-quad layout for int8 with symmetric
/// weights and the uint8-weight quad layout for uint8, where the build has a native kernel for them
/// (AVX-512 VNNI); the int16-pair layout otherwise (hybrid, other builds). Layers with few input channels run in patch form
/// (`QuantizedConvPatches`).
final class QuantizedGEMMOperands {
    /// Whether the GEMM reads gathered patch rows instead of the input pixels.
    let patches: Bool
    /// The geometry the GEMM runs on: the layer's, or its patch form.
    let geometry: ConvolutionGeometry

    /// Weights and activations as `Int16` pairs (`Int16PairPacking`).
    struct Pairs {
        var weights: AlignedArray<Int16>
        /// Activations; the trailing zero pixel stays zero.
        var input: [Int16]
    }

    /// Weights and activations as byte quads (`Int8QuadPacking`): int8 weights against unsigned
    /// `x + 128`, or (`unsignedWeights`) uint8 weights against signed `x − 128` with window sums.
    /// A class, so the per-invoke buffers can be borrowed side by side.
    final class Quads {
        /// Packed weight bytes (int8 or uint8 per `unsignedWeights`).
        var weights: AlignedArray<UInt8>
        /// Whether these are the uint8-weight form.
        var unsignedWeights: Bool
        /// The per-channel constant of the zero points, added to the bias.
        var correction: [Int32]
        /// Activations; the trailing padding pixel holds the padding taps' value.
        var input: [UInt8]
        /// Bias plus correction, refreshed per invoke.
        var bias: [Int32]
        /// Per-pixel `Σ (x − 128)` of the uint8-weight form (refreshed per invoke).
        var sums: [Int32]
        /// The negated weight zero point (uint8-weight form).
        let filterOffset: Int32

        init(weights: AlignedArray<UInt8>, unsignedWeights: Bool, correction: [Int32], input: [UInt8], bias: [Int32],
             sums: [Int32], filterOffset: Int32) {
            self.weights = weights; self.unsignedWeights = unsignedWeights; self.correction = correction
            self.input = input; self.bias = bias; self.sums = sums; self.filterOffset = filterOffset
        }
    }

    /// Set for the int16-pair layout.
    var pairs: Pairs?
    /// Set for the int8-quad layout.
    var quads: Quads?

    /// An upper bound of the bytes `init(mode:geometry:filter:filterOffset:inputOffset:)` allocates
    /// for `g` (packed weights, activation buffer, bias, correction and window sums), saturating at
    /// `Int.max`, so the caller can reserve them before packing. The patch form's activation
    /// buffer (`taps × inputDepth` per output pixel) is usually the largest part.
    static func byteCount(mode: ConvComputeMode, geometry g: ConvolutionGeometry, filterOffset: Int32) -> Int {
        let g = QuantizedConvPatches.prefersPatches(g) ? QuantizedConvPatches.patchGeometry(g) : g
        func product(_ factors: Int...) -> Int {
            var result = 1
            for factor in factors {
                let (next, overflow) = result.multipliedReportingOverflow(by: max(0, factor))
                if overflow { return Int.max }
                result = next
            }
            return result
        }
        func sum(_ terms: Int...) -> Int {
            terms.reduce(0) { total, term in
                let (next, overflow) = total.addingReportingOverflow(term)
                return overflow ? Int.max : next
            }
        }
        let taps = g.filterHeight * g.filterWidth
        let pixels = g.batches * g.inputHeight * g.inputWidth
        let panels = Int16PairPacking.panelCount(outputDepth: g.outputDepth)
        if QuantizedGEMM.prefersInt8Quads, mode == .uint8 || (mode == .int8 && filterOffset == 0) {
            let depth = g.inputDepth + 3   // ≥ the quad depth
            return sum(product(panels, taps, depth, Int16PairPacking.panelWidth), product(pixels + 1, depth),
                       product(g.outputDepth, 8), mode == .uint8 ? product(pixels, 4) : 0)
        }
        let depth = g.inputDepth + 1   // ≥ the paired depth
        return product(2, sum(product(panels, taps, depth, Int16PairPacking.panelWidth), product(pixels + 1, depth)))
    }

    /// Packs `filter` (`[outputDepth, taps, filterInputDepth]`, element type per `mode`) for
    /// geometry `g` (groups == 1). `filterOffset` / `inputOffset` are the negated zero points
    /// (0 for hybrid, whose input offsets vary per invoke).
    /// - Throws: `AlignedArrayAllocationError` when the system cannot provide the packed weights.
    init(mode: ConvComputeMode, geometry g: ConvolutionGeometry, filter: UnsafeRawPointer,
         filterOffset: Int32, inputOffset: Int32) throws {
        patches = QuantizedConvPatches.prefersPatches(g)
        let g = patches ? QuantizedConvPatches.patchGeometry(g) : g
        geometry = g
        let taps = g.filterHeight * g.filterWidth
        let pixels = g.batches * g.inputHeight * g.inputWidth
        if mode == .int8, filterOffset == 0, QuantizedGEMM.prefersInt8Quads {
            let w = filter.assumingMemoryBound(to: Int8.self)
            var input = [UInt8](repeating: 0, count: Int8QuadPacking.activationCount(pixels: pixels, depth: g.inputDepth))
            Int8QuadPacking.fillPaddingPixel(&input, pixels: pixels, depth: g.inputDepth, inputOffset: inputOffset)
            quads = Quads(weights: try AlignedArray(Int8QuadPacking.pack(w, outputDepth: g.outputDepth, taps: taps,
                                                                         inputDepth: g.inputDepth).map { UInt8(bitPattern: $0) }),
                          unsignedWeights: false,
                          correction: Int8QuadPacking.biasCorrection(w, outputDepth: g.outputDepth, depth: taps * g.inputDepth,
                                                                     inputOffset: inputOffset),
                          input: input, bias: Array(repeating: 0, count: g.outputDepth), sums: [], filterOffset: 0)
            return
        }
        if mode == .uint8, QuantizedGEMM.prefersInt8Quads {
            let w = filter.assumingMemoryBound(to: UInt8.self)
            var input = [UInt8](repeating: 0, count: Int8QuadPacking.activationCount(pixels: pixels, depth: g.inputDepth))
            Int8QuadPacking.fillPaddingPixel(&input, pixels: pixels, depth: g.inputDepth,
                                             value: Int8QuadPacking.unsignedWeightPaddingByte(inputOffset: inputOffset))
            quads = Quads(weights: try AlignedArray(Int8QuadPacking.pack(w, outputDepth: g.outputDepth, taps: taps,
                                                                         inputDepth: g.inputDepth)),
                          unsignedWeights: true,
                          correction: Int8QuadPacking.unsignedWeightBiasCorrection(
                              w, outputDepth: g.outputDepth, depth: taps * g.inputDepth,
                              inputOffset: inputOffset, filterOffset: filterOffset),
                          input: input, bias: Array(repeating: 0, count: g.outputDepth),
                          sums: Array(repeating: 0, count: pixels), filterOffset: filterOffset)
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
        pairs = Pairs(weights: try AlignedArray(weights),
                      input: Array(repeating: 0, count: Int16PairPacking.activationCount(pixels: pixels, depth: g.inputDepth)))
    }
}
