import TFLiteKernels

/// Packs the weights of a quantized CONV_2D / FULLY_CONNECTED once at prepare for
/// `QuantizedGEMM` and requests the activation buffer each invoke refills as arena scratch,
/// choosing the layout:
/// int8 quads for int8 with symmetric weights, uint8-weight quads for uint8 and int8 quads for
/// hybrid layers with symmetrically quantized inputs, where the build has a native kernel for
/// them (VNNI); int16 pairs otherwise (asymmetric hybrid inputs, other builds), whose weights
/// stay bytes where the generated ymm kernel widens them (`QuantizedGEMM.pairLayout`).
/// Layers with few input channels run in patch form (`GEMMLayout`).
enum QuantizedGEMMPacking {
    /// Whether `arithmetic` takes a quad layout in this build.
    static func usesQuads(_ arithmetic: ConvolutionArithmetic) -> Bool {
        guard QuantizedGEMM.prefersInt8Quads else { return false }
        switch arithmetic {
        case .uint8: return true
        case .int8(let q): return q.filterOffset == 0
        case .hybrid(_, let scratch): return !scratch.asymmetric
        case .float, .int16x8: return false
        }
    }

    /// An upper bound of the bytes `plan(_:geometry:weights:node:)` keeps for `g` (the
    /// packed weights and their zero-point correction), saturating at `Int.max`, so the caller
    /// can reserve them before packing. The activation buffer, combined bias and window sums are
    /// arena scratch (``NodeContext/requestScratch(_:count:_:)``), counted with the arena.
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
        let taps = g.filterHeight * g.filterWidth
        let panels = Int16PairPacking.panelCount(outputDepth: g.outputDepth)
        if usesQuads(arithmetic) {
            let depth = g.inputDepth + 3   // ≥ the quad depth
            let (total, overflow) = product(panels, taps, depth, Int16PairPacking.panelWidth)
                .addingReportingOverflow(product(g.outputDepth, 4))
            return overflow ? Int.max : total
        }
        let depth = g.inputDepth + 1   // ≥ the paired depth
        return product(pairWeightLayout(arithmetic, geometry: g).weightWordBytes / 2, panels, taps, depth,
                       Int16PairPacking.panelWidth)
    }

    /// The layout of `arithmetic`'s weights when layer `g` (its GEMM form) runs on pairs
    /// (`QuantizedGEMM.pairLayout`).
    static func pairWeightLayout(_ arithmetic: ConvolutionArithmetic, geometry g: ConvolutionGeometry) -> QuantizedGEMMLayout {
        let pixels = g.batches * g.outputHeight * g.outputWidth
        switch arithmetic {
        case .uint8(let q): return QuantizedGEMM.pairLayout(signedWeights: false, filterOffset: q.filterOffset, outputPixels: pixels)
        case .int8(let q): return QuantizedGEMM.pairLayout(signedWeights: true, filterOffset: q.filterOffset, outputPixels: pixels)
        case .hybrid: return QuantizedGEMM.pairLayout(signedWeights: true, filterOffset: 0, outputPixels: pixels)
        case .float, .int16x8: return .int16Pairs
        }
    }

    /// The integer GEMM plan of layer `g` (groups == 1) for `arithmetic` (uint8, int8 or hybrid),
    /// the constant `weights` (`[outputDepth, taps, filterInputDepth]`) packed
    /// for it, or taken from the model's cache when another interpreter packed them
    /// (``NodeContext/packedWeights(of:key:byteCount:_:_:)``), its bytes
    /// (`byteCount(_:geometry:)`) reserved as `what` when it packs them; nil for float and int16x8.
    /// - Throws: `AlignedArrayAllocationError` when the system cannot provide the packed weights.
    static func plan(_ arithmetic: ConvolutionArithmetic, geometry layer: ConvolutionGeometry, weights tensor: RuntimeTensor,
                     node: NodeContext, what: String) throws -> PackedGEMMPlan? {
        let packedBytes = byteCount(arithmetic, geometry: layer)
        let layout = GEMMLayout(layer)
        let g = layout.geometry
        let taps = g.filterHeight * g.filterWidth
        let pixels = layout.pixels
        let workspace = try node.requestWorkspace(bytesPerThread: QuantizedGEMM.workspaceBytes(g),
                                                  "the integer GEMM's pointer table and accumulators")
        switch arithmetic {
        case .int8(let q) where usesQuads(arithmetic):
            let packed = try int8Quads(tensor, layout: layout, inputOffset: q.inputOffset, byteCount: packedBytes, node: node,
                                       what: what)
            return .int8Quads(Int8QuadGEMM(operands: try quadOperands(
                layer, layout, packed, paddingByte: Int8QuadPacking.paddingByte(inputOffset: q.inputOffset),
                node: node, workspace: workspace), requantizer: ConvRequantizer(q)))
        case .uint8(let q) where usesQuads(arithmetic):
            let w = try tensor.view(as: UInt8.self, "uint8 weights").base
            let key = "uint8 quads \(layout.packedShape) input offset \(q.inputOffset) filter offset \(q.filterOffset)"
            let packed = try node.packedWeights(of: tensor, key: key, byteCount: packedBytes, what) {
                QuadWeights(weights: try Int8QuadPacking.packAligned(w, outputDepth: g.outputDepth, taps: taps,
                                                                     inputDepth: g.inputDepth),
                            correction: Int8QuadPacking.unsignedWeightBiasCorrection(
                                w, outputDepth: g.outputDepth, depth: taps * g.inputDepth,
                                inputOffset: q.inputOffset, filterOffset: q.filterOffset))
            }
            return .uint8Quads(UInt8QuadGEMM(
                operands: try quadOperands(layer, layout, packed,
                                           paddingByte: Int8QuadPacking.unsignedWeightPaddingByte(inputOffset: q.inputOffset),
                                           node: node, workspace: workspace),
                requantizer: ConvRequantizer(q), filterOffset: q.filterOffset,
                pixelSums: try node.requestScratch(Int32.self, count: pixels, "the integer GEMM's pixel sums")))
        case .uint8(let q):
            let weights = try pairWeights(tensor, arithmetic, layout: layout, filterOffset: q.filterOffset, byteCount: packedBytes,
                                          node: node, what: what)
            return .uint8Pairs(Int16PairGEMM(layer: layer, layout: layout, requantizer: ConvRequantizer(q), weights: weights,
                                             activations: try pairedActivations(layout, node: node), workspace: workspace))
        case .int8(let q):
            let weights = try pairWeights(tensor, arithmetic, layout: layout, filterOffset: q.filterOffset, byteCount: packedBytes,
                                          node: node, what: what)
            return .int8Pairs(Int16PairGEMM(layer: layer, layout: layout, requantizer: ConvRequantizer(q), weights: weights,
                                            activations: try pairedActivations(layout, node: node), workspace: workspace))
        case .hybrid(let p, let scratch) where usesQuads(arithmetic):
            let packed = try int8Quads(tensor, layout: layout, inputOffset: 0, byteCount: packedBytes, node: node, what: what)
            return .hybridQuads(HybridQuadGEMM(
                operands: try quadOperands(layer, layout, packed, paddingByte: Int8QuadPacking.paddingByte(inputOffset: 0),
                                           node: node, workspace: workspace),
                parameters: p, scratch: scratch))
        case .hybrid(let p, let scratch):
            let weights = try pairWeights(tensor, arithmetic, layout: layout, filterOffset: 0, byteCount: packedBytes,
                                          node: node, what: what)
            return .hybridPairs(HybridPairGEMM(layer: layer, layout: layout, parameters: p, scratch: scratch,
                                               weights: weights, activations: try pairedActivations(layout, node: node),
                                               workspace: workspace))
        case .float, .int16x8:
            return nil
        }
    }

    /// The 8-bit weights of `arithmetic` (uint8, int8 or hybrid) packed for the pairs of `layout`
    /// in their layout (`pairWeightLayout`), or taken from the model's cache
    /// (``NodeContext/packedWeights(of:key:byteCount:_:_:)``).
    private static func pairWeights(_ tensor: RuntimeTensor, _ arithmetic: ConvolutionArithmetic, layout: GEMMLayout,
                                    filterOffset: Int32, byteCount: Int, node: NodeContext, what: String) throws -> PairWeights {
        let g = layout.geometry
        let taps = g.filterHeight * g.filterWidth
        let weightLayout = pairWeightLayout(arithmetic, geometry: g)
        let signed: Bool
        if case .uint8 = arithmetic { signed = false } else { signed = true }
        let key = "\(signed ? "int8" : "uint8") \(weightLayout.rawValue) \(layout.packedShape) filter offset \(filterOffset)"
        if weightLayout.widensByteWeights {
            // Packing moves bytes unchanged, so both types pack as their bit patterns.
            let bytes = try tensor.byteView("\(signed ? "int8" : "uint8") weights").base
            return PairWeights(try node.packedWeights(of: tensor, key: key, byteCount: byteCount, what) {
                try Int16PairPacking.packBytesAligned(bytes, outputDepth: g.outputDepth, taps: taps, inputDepth: g.inputDepth)
            }, layout: weightLayout)
        }
        return PairWeights(try node.packedWeights(of: tensor, key: key, byteCount: byteCount, what) {
            signed ? try Int16PairPacking.packAligned(try tensor.view(as: Int8.self, "int8 weights").base, offset: filterOffset,
                                                      outputDepth: g.outputDepth, taps: taps, inputDepth: g.inputDepth)
                : try Int16PairPacking.packAligned(try tensor.view(as: UInt8.self, "uint8 weights").base, offset: filterOffset,
                                                   outputDepth: g.outputDepth, taps: taps, inputDepth: g.inputDepth)
        })
    }

    /// The int8 `weights` (symmetric) of `layout` packed in quads with the correction for
    /// `inputOffset`, or taken from the model's cache (``NodeContext/packedWeights(of:key:byteCount:_:_:)``).
    private static func int8Quads(_ tensor: RuntimeTensor, layout: GEMMLayout, inputOffset: Int32, byteCount: Int,
                                  node: NodeContext, what: String) throws -> QuadWeights {
        let g = layout.geometry
        let taps = g.filterHeight * g.filterWidth
        let w = try tensor.view(as: Int8.self, "int8 weights").base
        let bytes = try tensor.byteView("int8 weights").base
        let key = "int8 quads \(layout.packedShape) input offset \(inputOffset)"
        return try node.packedWeights(of: tensor, key: key, byteCount: byteCount, what) {
            // Packing moves bytes unchanged, so the int8 weights pack as their bit patterns.
            QuadWeights(weights: try Int8QuadPacking.packAligned(bytes, outputDepth: g.outputDepth, taps: taps,
                                                                 inputDepth: g.inputDepth),
                        correction: Int8QuadPacking.biasCorrection(w, outputDepth: g.outputDepth,
                                                                   depth: taps * g.inputDepth, inputOffset: inputOffset))
        }
    }

    /// The int16-pair activation buffer of `layout`, with its trailing zero pixel, as `node`'s
    /// arena scratch.
    private static func pairedActivations(_ layout: GEMMLayout, node: NodeContext) throws -> ScratchArray<Int16> {
        try node.requestScratch(Int16.self, count: layout.activationCount(stride: Int16PairPacking.pairedDepth(layout.geometry.inputDepth)),
                                "the integer GEMM's activations")
    }

    /// The operands of a quad GEMM: its activation buffer (with the trailing padding pixel of
    /// `paddingByte`) and combined bias requested as `node`'s arena scratch.
    private static func quadOperands(_ layer: ConvolutionGeometry, _ layout: GEMMLayout,
                                     _ weights: QuadWeights, paddingByte: UInt8, node: NodeContext,
                                     workspace: ThreadWorkspaceSlot) throws -> QuadOperands {
        let g = layout.geometry
        return QuadOperands(
            layer: layer, layout: layout, weights: weights,
            activations: try node.requestScratch(UInt8.self, count: layout.activationCount(stride: Int8QuadPacking.quadDepth(g.inputDepth)),
                                                 "the integer GEMM's activations"),
            paddingByte: paddingByte,
            combinedBias: try node.requestScratch(Int32.self, count: g.outputDepth, "the integer GEMM's bias"),
            workspace: workspace)
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
