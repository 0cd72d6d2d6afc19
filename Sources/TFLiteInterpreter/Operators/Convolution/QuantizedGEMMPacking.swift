import TFLiteKernels

/// Packs the weights of a quantized CONV_2D / FULLY_CONNECTED once at prepare for
/// `QuantizedGEMM` and allocates the activation buffer each invoke refills, choosing the layout:
/// int8 quads for int8 with symmetric weights and uint8-weight quads for uint8, where the build
/// has a native kernel for them (AVX-512 VNNI); int16 pairs otherwise (hybrid, other builds).
/// Layers with few input channels run in patch form (`GEMMLayout`).
enum QuantizedGEMMPacking {
    /// Whether `arithmetic` takes a quad layout in this build.
    static func usesQuads(_ arithmetic: ConvolutionArithmetic) -> Bool {
        guard QuantizedGEMM.prefersInt8Quads else { return false }
        switch arithmetic {
        case .uint8: return true
        case .int8(let q): return q.filterOffset == 0
        case .float, .hybrid, .int16x8: return false
        }
    }

    /// An upper bound of the bytes `plan(_:geometry:filter:)` allocates for `g` (packed weights,
    /// activation buffer, bias, correction and window sums), saturating at `Int.max`, so the
    /// caller can reserve them before packing. The patch form's activation buffer
    /// (`taps × inputDepth` per output pixel) is usually the largest part.
    static func byteCount(_ arithmetic: ConvolutionArithmetic, geometry g: ConvolutionGeometry) -> Int {
        let g = GEMMLayout(g).geometry
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
        if usesQuads(arithmetic) {
            let depth = g.inputDepth + 3   // ≥ the quad depth
            let unsigned: Bool
            if case .uint8 = arithmetic { unsigned = true } else { unsigned = false }
            return sum(product(panels, taps, depth, Int16PairPacking.panelWidth), product(pixels + 1, depth),
                       product(g.outputDepth, 8), unsigned ? product(pixels, 4) : 0)
        }
        let depth = g.inputDepth + 1   // ≥ the paired depth
        return product(2, sum(product(panels, taps, depth, Int16PairPacking.panelWidth), product(pixels + 1, depth)))
    }

    /// The integer GEMM plan of layer `g` (groups == 1) for `arithmetic` (uint8, int8 or hybrid),
    /// the constant `weights` (`[outputDepth, taps, filterInputDepth]`, data at `filter`) packed
    /// for it, or taken from the model's cache when another interpreter packed them
    /// (``NodeContext/packedWeights(of:key:_:)``); nil for float and int16x8.
    /// - Throws: `AlignedArrayAllocationError` when the system cannot provide the packed weights.
    static func plan(_ arithmetic: ConvolutionArithmetic, geometry layer: ConvolutionGeometry, weights tensor: RuntimeTensor,
                     filter: UnsafeRawPointer, node: NodeContext) throws -> PackedGEMMPlan? {
        let layout = GEMMLayout(layer)
        let g = layout.geometry
        let taps = g.filterHeight * g.filterWidth
        let pixels = layout.pixels
        switch arithmetic {
        case .int8(let q) where usesQuads(arithmetic):
            let w = filter.assumingMemoryBound(to: Int8.self)
            var input = [UInt8](repeating: 0, count: Int8QuadPacking.activationCount(pixels: pixels, depth: g.inputDepth))
            Int8QuadPacking.fillPaddingPixel(&input, pixels: pixels, depth: g.inputDepth, inputOffset: q.inputOffset)
            let key = "int8 quads \(layout.packedShape) input offset \(q.inputOffset)"
            let packed = try node.packedWeights(of: tensor, key: key) {
                // Packing moves bytes unchanged, so the int8 weights pack as their bit patterns.
                QuadWeights(weights: try AlignedArray(Int8QuadPacking.pack(UnsafeRawPointer(w).assumingMemoryBound(to: UInt8.self),
                                                                           outputDepth: g.outputDepth, taps: taps,
                                                                           inputDepth: g.inputDepth)),
                            correction: Int8QuadPacking.biasCorrection(w, outputDepth: g.outputDepth,
                                                                       depth: taps * g.inputDepth, inputOffset: q.inputOffset))
            }
            return .int8Quads(Int8QuadGEMM(operands: QuadOperands(
                layer: layer, layout: layout, requantizer: ConvRequantizer(q), weights: packed,
                activations: InvokeBuffer(input), combinedBias: InvokeBuffer(Array(repeating: 0, count: g.outputDepth)))))
        case .uint8(let q) where usesQuads(arithmetic):
            let w = filter.assumingMemoryBound(to: UInt8.self)
            var input = [UInt8](repeating: 0, count: Int8QuadPacking.activationCount(pixels: pixels, depth: g.inputDepth))
            Int8QuadPacking.fillPaddingPixel(&input, pixels: pixels, depth: g.inputDepth,
                                             value: Int8QuadPacking.unsignedWeightPaddingByte(inputOffset: q.inputOffset))
            let key = "uint8 quads \(layout.packedShape) input offset \(q.inputOffset) filter offset \(q.filterOffset)"
            let packed = try node.packedWeights(of: tensor, key: key) {
                QuadWeights(weights: try AlignedArray(Int8QuadPacking.pack(w, outputDepth: g.outputDepth, taps: taps,
                                                                           inputDepth: g.inputDepth)),
                            correction: Int8QuadPacking.unsignedWeightBiasCorrection(
                                w, outputDepth: g.outputDepth, depth: taps * g.inputDepth,
                                inputOffset: q.inputOffset, filterOffset: q.filterOffset))
            }
            return .uint8Quads(UInt8QuadGEMM(
                operands: QuadOperands(layer: layer, layout: layout, requantizer: ConvRequantizer(q), weights: packed,
                                       activations: InvokeBuffer(input),
                                       combinedBias: InvokeBuffer(Array(repeating: 0, count: g.outputDepth))),
                filterOffset: q.filterOffset, pixelSums: InvokeBuffer(Array(repeating: 0, count: pixels))))
        case .uint8(let q):
            let key = "uint8 pairs \(layout.packedShape) filter offset \(q.filterOffset)"
            let weights = try node.packedWeights(of: tensor, key: key) {
                try AlignedArray(Int16PairPacking.pack(filter.assumingMemoryBound(to: UInt8.self), offset: q.filterOffset,
                                                       outputDepth: g.outputDepth, taps: taps, inputDepth: g.inputDepth))
            }
            return .uint8Pairs(Int16PairGEMM(layer: layer, layout: layout, requantizer: ConvRequantizer(q), weights: weights,
                                             activations: pairedActivations(layout)))
        case .int8(let q):
            let key = "int8 pairs \(layout.packedShape) filter offset \(q.filterOffset)"
            let weights = try node.packedWeights(of: tensor, key: key) {
                try AlignedArray(Int16PairPacking.pack(filter.assumingMemoryBound(to: Int8.self), offset: q.filterOffset,
                                                       outputDepth: g.outputDepth, taps: taps, inputDepth: g.inputDepth))
            }
            return .int8Pairs(Int16PairGEMM(layer: layer, layout: layout, requantizer: ConvRequantizer(q), weights: weights,
                                            activations: pairedActivations(layout)))
        case .hybrid(let p, let scratch):
            let weights = try node.packedWeights(of: tensor, key: "int8 pairs \(layout.packedShape) filter offset 0") {
                try AlignedArray(Int16PairPacking.pack(filter.assumingMemoryBound(to: Int8.self), offset: 0,
                                                       outputDepth: g.outputDepth, taps: taps, inputDepth: g.inputDepth))
            }
            return .hybridPairs(HybridPairGEMM(layer: layer, layout: layout, parameters: p, scratch: scratch,
                                               weights: weights, activations: pairedActivations(layout)))
        case .float, .int16x8:
            return nil
        }
    }

    /// The int16-pair activation buffer of `layout`, with its trailing zero pixel.
    private static func pairedActivations(_ layout: GEMMLayout) -> InvokeBuffer<Int16> {
        InvokeBuffer(Array(repeating: 0, count: Int16PairPacking.activationCount(pixels: layout.pixels,
                                                                                 depth: layout.geometry.inputDepth)))
    }
}

/// The packed weights of a quad GEMM and the per-channel zero-point constant its bias takes:
/// computed together at prepare, shared through the model's cache.
final class QuadWeights {
    let weights: AlignedArray<UInt8>
    let correction: [Int32]

    init(weights: AlignedArray<UInt8>, correction: [Int32]) {
        self.weights = weights; self.correction = correction
    }
}
