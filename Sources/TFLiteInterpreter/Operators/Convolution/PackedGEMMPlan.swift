import TFLiteKernels

/// The packed-weight GEMM that CONV_2D and FULLY_CONNECTED (a 1×1 convolution over its batch
/// rows) share, chosen at prepare: the float kernel, or the integer GEMM in the operand layout
/// the build's kernels want (`QuantizedGEMMPacking`). Each case carries exactly what it runs
/// with; `run` splits the work over the thread pool (`WorkSplitPolicy`).
enum PackedGEMMPlan {
    /// float32: `Conv2DOptimized.float` on weights packed in panels.
    case float(PackedFloatGEMM)
    /// float32 with one output pixel covering the input: `FloatSinglePixelGEMV`.
    case floatSinglePixel(SinglePixelFloatGEMV)
    /// uint8 activations as int16 pairs, weights as int16 pairs or bytes (`PairWeights`).
    case uint8Pairs(Int16PairGEMM)
    /// int8 activations as int16 pairs, weights as int16 pairs or bytes (`PairWeights`).
    case int8Pairs(Int16PairGEMM)
    /// int8 weights (symmetric) against unsigned activation quads `x + 128`.
    case int8Quads(Int8QuadGEMM)
    /// uint8 weights against signed activation quads `x − 128`, with window sums.
    case uint8Quads(UInt8QuadGEMM)
    /// Float activations quantized per row as int16 pairs, int8 weights as int16 pairs or bytes.
    case hybridPairs(HybridPairGEMM)
    /// Float activations quantized symmetrically per row, int8 weights, as byte quads.
    case hybridQuads(HybridQuadGEMM)

    /// Runs the layer on `o` across `threads`.
    func run(_ o: ConvolutionOperands, threads: ThreadPool) {
        switch self {
        case .float(let gemm): gemm.run(o, threads: threads)
        case .floatSinglePixel(let gemv): gemv.run(o, threads: threads)
        case .uint8Pairs(let gemm):
            gemm.run(o, threads: threads, source: UInt8.self, conversion: .init(gather: QuantizedConvPatches.gatherPairs,
                                                                                convert: Int16PairPacking.convert),
                     kernel: { QuantizedGEMM.uint8($0, $1, input: $2, packedFilter: $3.pointer, layout: $3.layout, bias: $4,
                                                   output: $5, tiles: $6, workspace: $7) })
        case .int8Pairs(let gemm):
            gemm.run(o, threads: threads, source: Int8.self, conversion: .init(gather: QuantizedConvPatches.gatherPairs,
                                                                               convert: Int16PairPacking.convert),
                     kernel: { QuantizedGEMM.int8($0, $1, input: $2, packedFilter: $3.pointer, layout: $3.layout, bias: $4,
                                                  output: $5, tiles: $6, workspace: $7) })
        case .int8Quads(let gemm): gemm.run(o, threads: threads)
        case .uint8Quads(let gemm): gemm.run(o, threads: threads)
        case .hybridPairs(let gemm): gemm.run(o, threads: threads)
        case .hybridQuads(let gemm): gemm.run(o, threads: threads)
        }
    }

    /// The packed plan of ungrouped layer `g` (FULLY_CONNECTED: its 1×1 convolution form) in
    /// `arithmetic`, its constant `filter` packed once here, the bytes reserved in `node`'s budget
    /// before they are allocated (`what` names the filter in messages: "filter", "weights");
    /// nil when the reference kernels run (a non-constant filter, int16x8).
    static func make(_ arithmetic: ConvolutionArithmetic, geometry g: ConvolutionGeometry, filter: RuntimeTensor,
                     node: NodeContext, what: String) throws -> PackedGEMMPlan? {
        guard filter.isConstant, filter.data != nil else { return nil }
        let depth = g.filterHeight * g.filterWidth * g.filterInputDepth
        /// The float `filter` packed once into the panels `layout` names (its cache key with the
        /// shape), `byteCount` bytes reserved first, by `pack`.
        func floatPanels(_ layout: String, byteCount: Int,
                         _ pack: (UnsafePointer<Float>, _ outputDepth: Int, _ depth: Int) throws -> AlignedArray<Float>)
            throws -> AlignedArray<Float> {
            try node.packedWeights(of: filter, key: "\(layout) \(g.outputDepth)x\(depth)", byteCount: byteCount, "the packed \(what)") {
                try pack(try filter.view(as: Float.self, "the packed \(what)").base, g.outputDepth, depth)
            }
        }
        switch arithmetic {
        case .float(let clamp) where FloatSinglePixelGEMV.takes(g):
            let weights = try floatPanels("float single-pixel panels",
                                          byteCount: FloatSinglePixelGEMV.packedByteCount(outputDepth: g.outputDepth, depth: depth),
                                          FloatSinglePixelGEMV.pack(_:outputDepth:depth:))
            return .floatSinglePixel(SinglePixelFloatGEMV(geometry: g, clamp: clamp, weights: weights))
        case .float(let clamp):
            let weights = try floatPanels("float panels",
                                          byteCount: ConvFilterPacking.packedFloatByteCount(outputDepth: g.outputDepth, depth: depth),
                                          ConvFilterPacking.packFloatAligned(_:outputDepth:depth:))
            let workspace = try node.requestWorkspace(bytesPerThread: Conv2DOptimized.floatWorkspaceBytes(g),
                                                      "the float GEMM's run tables")
            return .float(PackedFloatGEMM(geometry: g, clamp: clamp, weights: weights,
                                          zeros: Array(repeating: 0, count: max(g.inputDepth, FloatConvResidual.zeroRowFloats)),
                                          fusedMultiplyAdd: node.fusesMultiplyAdd, workspace: workspace))
        case .uint8, .int8, .hybrid:
            return try QuantizedGEMMPacking.plan(arithmetic, geometry: g, weights: filter, node: node,
                                                 what: "the integer GEMM's packed \(what)")
        case .int16x8:
            return nil
        }
    }

    /// This plan with a following float ADD fused in (`ResidualAddFusion`): `operand` (the
    /// ADD's other input, of the output's shape, or of fewer channels in place of a channel
    /// PAD's output, whose other channels add +0.0) added to every clamped output element, then
    /// clamped to `clamp`; nil when the layer is not a float GEMM, already has one, or its
    /// kernel is not a generated tile taking those channels (``Conv2DOptimized/fusesResidual(_:channels:)``).
    func fusingResidualAdd(_ operand: RuntimeTensor, clamp: FloatClamp) -> PackedGEMMPlan? {
        guard case .float(var gemm) = self, gemm.residual == nil,
              Conv2DOptimized.fusesResidual(gemm.geometry, channels: operand.shape.last ?? 0) else { return nil }
        gemm.residual = (operand, clamp)
        return .float(gemm)
    }

    /// This plan with `map` applied to its 8-bit output as each chunk finishes
    /// (``OutputByteMapFusion``); nil for the float and hybrid GEMMs and a plan that has a map.
    func fusingOutputByteMap(_ map: OutputByteMap) -> PackedGEMMPlan? {
        switch self {
        case .uint8Pairs(var gemm) where gemm.outputMap == nil: gemm.outputMap = map; return .uint8Pairs(gemm)
        case .int8Pairs(var gemm) where gemm.outputMap == nil: gemm.outputMap = map; return .int8Pairs(gemm)
        case .int8Quads(var gemm) where gemm.outputMap == nil: gemm.outputMap = map; return .int8Quads(gemm)
        case .uint8Quads(var gemm) where gemm.outputMap == nil: gemm.outputMap = map; return .uint8Quads(gemm)
        default: return nil
        }
    }

    /// This plan with `clamp` as the fused activation of a float GEMM (see
    /// ``ConvolutionArithmetic/fusedClamp(own:with:)``); nil for the others.
    func fusingFloatClamp(_ clamp: FloatClamp) -> PackedGEMMPlan? {
        switch self {
        case .float(var gemm):
            guard let fused = ConvolutionArithmetic.fusedClamp(own: gemm.clamp, with: clamp) else { return nil }
            gemm.clamp = fused
            return .float(gemm)
        case .floatSinglePixel(var gemv):
            guard let fused = ConvolutionArithmetic.fusedClamp(own: gemv.clamp, with: clamp) else { return nil }
            gemv.clamp = fused
            return .floatSinglePixel(gemv)
        default:
            return nil
        }
    }
}

/// The float GEMM over weights packed at prepare, split over pixel tiles.
struct PackedFloatGEMM {
    let geometry: ConvolutionGeometry
    var clamp: FloatClamp
    /// Weights in the kernel's panels (`ConvFilterPacking.packFloat`).
    let weights: AlignedArray<Float>
    /// Zeros read by the taps outside the input (one pixel's depth), and as the zero row of a
    /// fused ADD's padded channels (at least a panel).
    let zeros: [Float]
    /// Whether each multiply-add rounds once (see `FloatArithmetic`).
    let fusedMultiplyAdd: Bool
    /// The kernel's per-thread workspace (`Conv2DOptimized.floatWorkspaceBytes`).
    let workspace: ThreadWorkspaceSlot
    /// The ADD fused into the layer (`ResidualAddFusion`): its other operand, a tensor of the
    /// output's shape or, in place of a channel PAD's output, of fewer channels, and its
    /// activation range; nil without one.
    var residual: (operand: RuntimeTensor, clamp: FloatClamp)?

    func run(_ o: ConvolutionOperands, threads: ThreadPool) {
        let (g, clamp, fma) = (geometry, clamp, fusedMultiplyAdd)
        let (x, b, y) = (o.input(Float.self), o.bias(Float.self), o.output(Float.self))
        let fusedAdd = residual.map {
            FloatConvResidual(input: $0.operand.pointer(as: Float.self), channels: $0.operand.shape.last ?? 0,
                              min: $0.clamp.min, max: $0.clamp.max)
        }
        let tiles = Conv2DOptimized.floatTileCount(g)
        zeros.withUnsafeBufferPointer { z in
            threads.parallelFor(tiles, minChunk: WorkSplitPolicy.floatGEMMMinChunk(g)) { part, worker in
                Conv2DOptimized.float(g, activationMin: clamp.min, activationMax: clamp.max, input: x,
                                      packedFilter: weights.pointer, bias: b, zeros: z.baseAddress!, output: y,
                                      tiles: part, fusedMultiplyAdd: fma, residual: fusedAdd,
                                      workspace: workspace.workspace(worker))
            }
        }
    }
}

/// The float matrix-vector product of a layer with one output pixel covering its input
/// (`FloatSinglePixelGEMV`), split over panels of output channels.
struct SinglePixelFloatGEMV {
    let geometry: ConvolutionGeometry
    var clamp: FloatClamp
    /// Weights in `FloatSinglePixelGEMV` panels.
    let weights: AlignedArray<Float>

    func run(_ o: ConvolutionOperands, threads: ThreadPool) {
        let (g, clamp, weights) = (geometry, clamp, UnsafePointer(weights.pointer))
        let (x, b, y) = (o.input(Float.self), o.bias(Float.self), o.output(Float.self))
        let depth = g.filterHeight * g.filterWidth * g.inputDepth
        let minChunk = WorkSplitPolicy.minChunk(work: WorkSplitPolicy.floatGEMMMultiplyAdds,
                                                workPerUnit: depth * FloatSinglePixelGEMV.panelWidth)
        threads.parallelFor(FloatSinglePixelGEMV.panelCount(outputDepth: g.outputDepth), minChunk: minChunk) { part in
            FloatSinglePixelGEMV.run(input: x, depth: depth, weights: weights, bias: b, outputDepth: g.outputDepth,
                                     activationMin: clamp.min, activationMax: clamp.max, output: y, panels: part)
        }
    }
}

/// The packed filter of an int16-pair GEMM and its layout (`QuantizedGEMM.pairLayout`): int16
/// pairs `w + offset`, or the weight bytes in the same order that the kernel widens.
struct PairWeights {
    let layout: QuantizedGEMMLayout
    /// The memory at `pointer` (an `AlignedArray` of `Int16` or `UInt8`, maybe shared through the
    /// model's cache), kept alive with the plan.
    private let storage: AnyObject
    let pointer: UnsafeRawPointer

    init(_ packed: AlignedArray<Int16>) {
        layout = .int16Pairs; storage = packed; pointer = UnsafeRawPointer(packed.pointer)
    }

    /// `packed` bytes (`Int16PairPacking.packBytesAligned`) in `layout`, a byte-weight pair layout.
    init(_ packed: AlignedArray<UInt8>, layout: QuantizedGEMMLayout) {
        precondition(layout.widensByteWeights, "PairWeights: \(layout) does not widen byte weights")
        self.layout = layout; storage = packed; pointer = UnsafeRawPointer(packed.pointer)
    }
}

/// The integer GEMM on int16 pairs (`Int16PairPacking`) for uint8 or int8 layers.
struct Int16PairGEMM {
    /// The layer's geometry.
    let layer: ConvolutionGeometry
    let layout: GEMMLayout
    let requantizer: ConvRequantizer
    let weights: PairWeights
    /// Activations in pairs (arena scratch); the trailing zero pixel is zeroed per invoke.
    let activations: ScratchArray<Int16>
    /// The kernel's per-thread workspace (`QuantizedGEMM.workspaceBytes`).
    let workspace: ThreadWorkspaceSlot
    /// A byte table applied to each chunk's output (``OutputByteMapFusion``); nil without one.
    var outputMap: OutputByteMap? = nil

    /// Converts the input (`Source` elements) into pairs with the input offset added, then runs
    /// `kernel` over the GEMM's tiles.
    func run<Source>(_ o: ConvolutionOperands, threads: ThreadPool, source: Source.Type,
                     conversion: PairedActivations<Source>, kernel: (ConvolutionGeometry, ConvRequantizer, UnsafePointer<Int16>, PairWeights,
                              UnsafePointer<Int32>?, UnsafeMutablePointer<Source>, Range<Int>, KernelWorkspace) -> Void) {
        let (g, gemm, q) = (layer, layout.geometry, requantizer)
        let (x, bias, y) = (o.input(Source.self), o.bias(Int32.self), o.output(Source.self))
        let (offset, outputMap) = (q.parameters.inputOffset, outputMap)
        activations.withUnsafeMutableBufferPointer { paired in
            let xp = paired.baseAddress!
            layout.zeroPairedPaddingPixel(xp)
            let (xin, w) = (UnsafePointer(xp), weights)
            layout.convertAndRun(threads: threads, workspace: workspace) { batch, pixels in
                conversion.fill(g, layout: layout, batch: batch, pixels: pixels, into: xp,
                                source: x + batch * g.inputHeight * g.inputWidth * g.inputDepth, offset: offset)
            } gemm: { part, workspace in
                kernel(gemm, q, xin, w, bias, y, part, workspace)
                outputMap?.apply(tiles: part, of: gemm, to: y)
            }
        }
    }
}

/// The hybrid GEMM: the float input quantized per batch row (`scratch`), then as int16 pairs
/// with each row's zero point taken out, against int8 weights.
struct HybridPairGEMM {
    let layer: ConvolutionGeometry
    let layout: GEMMLayout
    let parameters: HybridConvolutionParameters
    let scratch: HybridInputScratch
    let weights: PairWeights
    /// Activations in pairs (arena scratch); the trailing zero pixel is zeroed per invoke.
    let activations: ScratchArray<Int16>
    /// The kernel's per-thread workspace (`QuantizedGEMM.workspaceBytes`).
    let workspace: ThreadWorkspaceSlot

    func run(_ o: ConvolutionOperands, threads: ThreadPool) {
        let (g, gemm, p) = (layer, layout.geometry, parameters)
        let (b, y) = (o.bias(Float.self), o.output(Float.self))
        let rowSize = g.inputHeight * g.inputWidth * g.inputDepth
        let w = weights
        let conversion = PairedActivations<Int8>(gather: QuantizedConvPatches.gatherPairs, convert: Int16PairPacking.convert)
        scratch.quantize(o.input(Float.self), threads: threads) { q, scales, offsets in
            activations.withUnsafeMutableBufferPointer { paired in
                let xp = paired.baseAddress!
                layout.zeroPairedPaddingPixel(xp)
                let xin = UnsafePointer(xp)
                layout.convertAndRun(threads: threads, workspace: workspace) { batch, pixels in
                    conversion.fill(g, layout: layout, batch: batch, pixels: pixels, into: xp,
                                    source: q + batch * rowSize, offset: -offsets[batch])
                } gemm: { part, workspace in
                    QuantizedGEMM.hybrid(gemm, p, input: xin, inputScales: scales, packedFilter: w.pointer, layout: w.layout,
                                         bias: b, output: y, tiles: part, workspace: workspace)
                }
            }
        }
    }
}

/// How `Source` activations enter the int16-pair GEMM input: gathered into patch rows, or
/// converted pixel by pixel (the packing entry points for that element type).
struct PairedActivations<Source> {
    let gather: (UnsafePointer<Source>, ConvolutionGeometry, Range<Int>, Int32, UnsafeMutablePointer<Int16>) -> Void
    let convert: (UnsafePointer<Source>, Int, Int, Int32, UnsafeMutablePointer<Int16>) -> Void

    /// Fills rows `pixels` of batch `batch`'s part of the int16-pair GEMM input from that
    /// batch's image `source`: patch rows (over output pixels) in patch form, else the input
    /// pixels in the paired layout, both with `offset` added.
    func fill(_ g: ConvolutionGeometry, layout: GEMMLayout, batch: Int, pixels: Range<Int>,
              into base: UnsafeMutablePointer<Int16>, source: UnsafePointer<Source>, offset: Int32) {
        let gemm = layout.geometry
        let stride = Int16PairPacking.pairedDepth(gemm.inputDepth)
        let image = base + batch * gemm.inputHeight * gemm.inputWidth * stride
        if layout.patches {
            gather(source, g, pixels, offset, image)
        } else {
            convert(source + pixels.lowerBound * g.inputDepth, pixels.count, g.inputDepth, offset,
                    image + pixels.lowerBound * stride)
        }
    }
}
