import TFLiteKernels

/// The channel-vectorized DEPTHWISE_CONV_2D kernels, chosen at prepare and split over output
/// rows across the thread pool (`WorkSplitPolicy.depthwiseMinChunk`). Each case carries
/// exactly what it runs with; the windowed ones, one workspace per pool thread in the arena,
/// which a chunk takes by its worker index (`ThreadPool.parallelFor`'s indexed form).
indirect enum DepthwisePlan {
    /// Float, reading the input in place, border taps through the border kernel (a filter that
    /// is not constant and finite, or a layer whose windows would move more than they convert).
    case floatInPlace(DepthwiseFloat)
    /// Float through per-thread windows of padded input rows, on an aligned copy of the filter.
    case floatWindowed(DepthwiseFloat, DepthwiseWindows)
    /// uint8 through windows of padded rows with the input offset added, on `w + filterOffset`.
    case uint8Windowed(DepthwiseQuantized, DepthwiseWindows)
    /// int8, as uint8.
    case int8Windowed(DepthwiseQuantized, DepthwiseWindows)
    /// uint8 or int8 in rows of tap quads (`DepthwiseConv2DOptimized.tapQuads`); the layer has a bias.
    case tapQuads(DepthwiseQuantized, DepthwiseQuadRows)
    /// A layer with a depth multiplier: its input expanded, then the multiplier-1 plan of the
    /// expanded geometry on it.
    case multiplied(DepthwiseExpandedInput, DepthwisePlan)

    /// Runs the layer on `o` across `threads`.
    func run(_ o: ConvolutionOperands, threads: ThreadPool) {
        switch self {
        case .floatInPlace(let layer):
            let (g, c, fma) = (layer.geometry, layer.clamp, layer.fusedMultiplyAdd)
            let (x, f, b, y) = (o.input(Float.self), o.filter(Float.self), o.bias(Float.self), o.output(Float.self))
            threads.parallelFor(DepthwiseConv2DOptimized.rowCount(g), minChunk: WorkSplitPolicy.depthwiseMinChunk(g)) { part in
                DepthwiseConv2DOptimized.float(g, activationMin: c.min, activationMax: c.max, input: x, filter: f, bias: b,
                                               output: y, rows: part, fusedMultiplyAdd: fma)
            }
        case .floatWindowed(let layer, let windows):
            let (g, c, fma) = (layer.geometry, layer.clamp, layer.fusedMultiplyAdd)
            let (x, b, y) = (o.input(Float.self), o.bias(Float.self), o.output(Float.self))
            let (filter, plan) = (UnsafePointer(windows.filter.pointer), windows.plan)
            threads.parallelFor(DepthwiseConv2DOptimized.rowCount(g), minChunk: WorkSplitPolicy.depthwiseMinChunk(g)) { part, worker in
                DepthwiseConv2DOptimized.float(g, activationMin: c.min, activationMax: c.max, input: x, filter: filter,
                                               bias: b, output: y, rows: part, plan: plan, fusedMultiplyAdd: fma,
                                               workspace: windows.workspaces.pointer(worker))
            }
        case .uint8Windowed(let layer, let windows):
            let (g, q) = (layer.geometry, layer.requantizer)
            let (x, b, y) = (o.input(UInt8.self), o.bias(Int32.self), o.output(UInt8.self))
            let (filter, plan) = (UnsafePointer(windows.filter.pointer), windows.plan)
            threads.parallelFor(DepthwiseConv2DOptimized.rowCount(g), minChunk: WorkSplitPolicy.depthwiseMinChunk(g)) { part, worker in
                DepthwiseConv2DOptimized.uint8(g, q, input: x, packedFilter: filter, bias: b, output: y, rows: part,
                                               plan: plan, workspace: windows.workspaces.pointer(worker))
            }
        case .int8Windowed(let layer, let windows):
            let (g, q) = (layer.geometry, layer.requantizer)
            let (x, b, y) = (o.input(Int8.self), o.bias(Int32.self), o.output(Int8.self))
            let (filter, plan) = (UnsafePointer(windows.filter.pointer), windows.plan)
            threads.parallelFor(DepthwiseConv2DOptimized.rowCount(g), minChunk: WorkSplitPolicy.depthwiseMinChunk(g)) { part, worker in
                DepthwiseConv2DOptimized.int8(g, q, input: x, packedFilter: filter, bias: b, output: y, rows: part,
                                              plan: plan, workspace: windows.workspaces.pointer(worker))
            }
        case .tapQuads(let layer, let quads):
            let (g, q) = (layer.geometry, layer.requantizer)
            guard let bias = o.bias(Int32.self) else { preconditionFailure("depthwise quads: planned for a layer with a bias") }
            let (filter, signedInput) = (UnsafePointer(quads.filter.pointer), quads.signedInput)
            let x = signedInput ? UnsafeRawPointer(o.input(Int8.self)) : UnsafeRawPointer(o.input(UInt8.self))
            let y = signedInput ? UnsafeMutableRawPointer(o.output(Int8.self)) : UnsafeMutableRawPointer(o.output(UInt8.self))
            let minChunk = WorkSplitPolicy.depthwiseQuadMinChunk(g, threadCount: threads.threadCount)
            threads.parallelFor(DepthwiseConv2DOptimized.rowCount(g), minChunk: minChunk) { part, worker in
                DepthwiseConv2DOptimized.tapQuads(g, q, input: x, signedInput: signedInput, packed: filter, parts: quads.parts, bias: bias,
                                                  output: y, rows: part, workspace: quads.workspaces.workspace(worker))
            }
        case .multiplied(let expansion, let plan):
            plan.run(expansion.expand(o, threads: threads), threads: threads)
        }
    }

    /// Whether the plan reads the layer's filter tensor at invoke (not only a packed copy).
    var readsFilterAtInvoke: Bool {
        switch self {
        case .floatInPlace: true
        case .floatWindowed, .uint8Windowed, .int8Windowed, .tapQuads: false
        case .multiplied(_, let plan): plan.readsFilterAtInvoke
        }
    }

    /// The optimized plan of a depthwise layer `g` in `arithmetic`, with its filter packed and
    /// its windows' workspaces requested in `node`'s scratch; nil when the reference kernels run (int16x8,
    /// hybrid, geometries the kernels do not take, quantized layers with a non-constant filter).
    static func make(_ arithmetic: ConvolutionArithmetic, geometry g: ConvolutionGeometry, filter: RuntimeTensor,
                     hasBias: Bool, node: NodeContext) throws -> DepthwisePlan? {
        if g.depthMultiplier > 1 { return try multiplied(arithmetic, geometry: g, filter: filter, hasBias: hasBias, node: node) }
        guard DepthwiseConv2DOptimized.supports(g) else { return nil }
        switch arithmetic {
        case .float(let clamp):
            let layer = DepthwiseFloat(geometry: g, clamp: clamp, fusedMultiplyAdd: node.fusesMultiplyAdd)
            // The input is read in place where the generated tiles take the border pixels and
            // finish rows themselves, or unless a window pays: its block converts at least as
            // many rows as it moves (not so for deeplabv3's 33-pixel rows of 960 channels at
            // dilation 4, where the memmove took 15% of the model's time), and its padding taps
            // add `0 · w`, which only a finite weight leaves at 0.
            let plan = DepthwiseConv2DOptimized.inputWindowPlan(g)
            guard !DepthwiseConv2DOptimized.floatReadsInPlace, filter.isConstant, filter.data != nil, plan.convertsMoreThanItMoves(g) else { return .floatInPlace(layer) }
            let weights = UnsafeBufferPointer(start: try filter.view(as: Float.self, "DEPTHWISE_CONV_2D filter").base,
                                              count: filter.elementCount)
            guard weights.allSatisfy(\.isFinite) else { return .floatInPlace(layer) }
            let aligned = try node.packedWeights(of: filter, key: "depthwise float \(weights.count)",
                                                 byteCount: SharedMemoryBudget.bytes(filter.elementCount, MemoryLayout<Float>.size),
                                                 "the aligned filter") {
                try AlignedArray(copying: weights)
            }
            return .floatWindowed(layer, try DepthwiseWindows(filter: aligned, plan: plan, geometry: g, rowOfSums: false,
                                                              node: node))
        case .uint8(let q), .int8(let q):
            guard filter.isConstant, filter.data != nil else { return nil }
            let signedInput = if case .int8 = arithmetic { true } else { false }
            let layer = DepthwiseQuantized(geometry: g, requantizer: ConvRequantizer(q, epilogue: .depthwise))
            if hasBias, let quads = try tapQuads(layer, q, filter: filter, signedInput: signedInput, node: node) {
                return quads
            }
            let unsigned = filter.type == .uint8
            let key = "depthwise \(filter.type) \(filter.elementCount) filter offset \(q.filterOffset)"
            let packed = try node.packedWeights(of: filter, key: key,
                                                byteCount: SharedMemoryBudget.bytes(filter.elementCount, MemoryLayout<Float>.size),
                                                "the packed filter") {
                try unsigned
                    ? ConvFilterPacking.packDepthwiseIntegerAligned(try filter.view(as: UInt8.self, "DEPTHWISE_CONV_2D filter").base,
                                                                    offset: q.filterOffset, count: filter.elementCount)
                    : ConvFilterPacking.packDepthwiseIntegerAligned(try filter.view(as: Int8.self, "DEPTHWISE_CONV_2D filter").base,
                                                                    offset: q.filterOffset, count: filter.elementCount)
            }
            let windows = try DepthwiseWindows(filter: packed, plan: DepthwiseConv2DOptimized.inputWindowPlan(g), geometry: g,
                                               rowOfSums: true, node: node)
            return unsigned ? .uint8Windowed(layer, windows) : .int8Windowed(layer, windows)
        case .hybrid, .int16x8:
            return nil
        }
    }
}

extension DepthwisePlan {
    /// The plan of a layer `g` with a depth multiplier: the multiplier-1 plan of its expanded
    /// geometry, reading the expanded input (``DepthwiseExpandedInput``); nil where either
    /// declines.
    private static func multiplied(_ arithmetic: ConvolutionArithmetic, geometry g: ConvolutionGeometry,
                                   filter: RuntimeTensor, hasBias: Bool, node: NodeContext) throws -> DepthwisePlan? {
        let element: DepthwiseExpandedInput.Element
        switch arithmetic {
        case .float: element = .float32
        case .uint8: element = .uint8
        case .int8: element = .int8
        case .hybrid, .int16x8: return nil
        }
        let expanded = DepthwiseExpandedInput.expandedGeometry(g)
        guard DepthwiseExpandedInput.takes(g), DepthwiseConv2DOptimized.supports(expanded),
              let plan = try make(arithmetic, geometry: expanded, filter: filter, hasBias: hasBias, node: node) else { return nil }
        return .multiplied(try DepthwiseExpandedInput(g, element: element, node: node), plan)
    }

    /// The tap-quad plan of 8-bit `layer` (with a bias, parameters `q`) where this process has the
    /// kernels and the layer fits them (`DepthwiseConv2DOptimized.takesTapQuads`,
    /// `DepthwiseQuadFilter.parts`), else nil. `signedInput`: int8 input and output (uint8 otherwise).
    private static func tapQuads(_ layer: DepthwiseQuantized, _ q: QuantizedConvolutionParameters, filter: RuntimeTensor,
                                 signedInput: Bool, node: NodeContext) throws -> DepthwisePlan? {
        let g = layer.geometry
        guard DepthwiseConv2DOptimized.takesTapQuads(g), DepthwiseConv2DOptimized.takesTapQuads(layer.requantizer) else {
            return nil
        }
        let signedWeights = filter.type == .int8
        let weights = UnsafeBufferPointer(
            start: signedWeights ? UnsafeRawPointer(try filter.view(as: Int8.self, "DEPTHWISE_CONV_2D filter").base)
                                     .assumingMemoryBound(to: UInt8.self)
                                 : try filter.view(as: UInt8.self, "DEPTHWISE_CONV_2D filter").base,
            count: filter.elementCount)
        guard let parts = DepthwiseQuadFilter.parts(weights, signedWeights: signedWeights, filterOffset: q.filterOffset,
                                                    inputOffset: q.inputOffset, signedInput: signedInput) else { return nil }
        let key = "depthwise quads \(filter.type) \(g.filterHeight)x\(g.filterWidth)x\(g.outputDepth) filter offset "
            + "\(q.filterOffset) input offset \(q.inputOffset) \(signedInput ? "int8" : "uint8") parts \(parts)"
        let words = DepthwiseQuadFilter.wordCount(g, parts: parts)
        let packed = try node.packedWeights(of: filter, key: key, byteCount: SharedMemoryBudget.bytes(words, MemoryLayout<Int32>.size),
                                            "the packed tap quads") {
            try DepthwiseQuadFilter.pack(weights.baseAddress!, signedWeights: signedWeights, g, parts: parts,
                                         filterOffset: q.filterOffset, inputOffset: q.inputOffset, signedInput: signedInput)
        }
        let workspaces = try DepthwiseThreadScratch(bytes: DepthwiseConv2DOptimized.tapQuadWorkspaceBytes(g), node: node) {
            "thread \($0)'s rows of tap quads"
        }
        return .tapQuads(layer, DepthwiseQuadRows(filter: packed, parts: parts, signedInput: signedInput, workspaces: workspaces))
    }
}

/// A float depthwise layer: geometry, fused activation, rounding.
struct DepthwiseFloat {
    let geometry: ConvolutionGeometry
    let clamp: FloatClamp
    /// Whether each multiply-add rounds once (see `FloatArithmetic`).
    let fusedMultiplyAdd: Bool
}

/// A quantized depthwise layer: geometry and vector requantization.
struct DepthwiseQuantized {
    let geometry: ConvolutionGeometry
    let requantizer: ConvRequantizer
}

/// The filter the windowed kernels read (cache-line aligned), how they block rows, and each
/// pool thread's workspace (its window of padded input rows, then, for 8-bit layers, a row of sums).
struct DepthwiseWindows {
    /// `w + filterOffset` (exact in Float) for quantized layers, a copy of the weights for float ones.
    let filter: AlignedArray<Float>
    let plan: DepthwiseConv2DOptimized.InputWindowPlan
    /// Each pool thread's window (each invoke's kernel refills every row it reads, padding zeros
    /// included).
    let workspaces: DepthwiseThreadScratch

    /// Windows of `plan`, with one workspace per thread of `node`'s pool requested in `node`'s
    /// scratch (`rowOfSums`: for epilogues that do not finish in place, the 8-bit ones).
    init(filter: AlignedArray<Float>, plan: DepthwiseConv2DOptimized.InputWindowPlan, geometry g: ConvolutionGeometry,
         rowOfSums: Bool, node: NodeContext) throws {
        let floats = plan.workspaceFloatCount(g, withRowOfSums: rowOfSums)
        workspaces = try DepthwiseThreadScratch(bytes: floats * MemoryLayout<Float>.size, node: node) {
            "thread \($0)'s input window (\(plan.windowRows) rows of \(plan.rowLength) values)"
        }
        self.filter = filter; self.plan = plan
    }
}

/// One workspace per thread of a node's pool, arena scratch live for the node's step (not the
/// shared per-thread region, which lives for the whole run and would add these windows and
/// rings to every model's peak), which a chunk takes by its worker index
/// (`ThreadPool.parallelFor`'s indexed form).
struct DepthwiseThreadScratch {
    /// Bytes per thread.
    let bytes: Int
    private let scratch: [ScratchArray<Float>]

    /// `bytes` (rounded up to whole floats) per thread of `node`'s pool, requested in its scratch;
    /// `what(k)` names thread `k`'s in errors.
    init(bytes: Int, node: NodeContext, _ what: (Int) -> String) throws {
        self.bytes = bytes
        scratch = try (0..<node.threads.threadCount).map { worker in
            try node.requestScratch(Float.self, count: (bytes + 3) / 4, what(worker))
        }
    }

    /// The workspace of pool thread `worker` (`0..<threadCount` of the pool prepared with).
    @inline(__always)
    func pointer(_ worker: Int) -> UnsafeMutablePointer<Float> {
        precondition(worker < scratch.count, "depthwise: worker \(worker) of a pool larger than the one prepared with")
        return scratch[worker].pointer
    }

    /// `pointer(worker)` as a kernel workspace of `bytes` bytes.
    @inline(__always)
    func workspace(_ worker: Int) -> KernelWorkspace {
        KernelWorkspace(start: UnsafeMutableRawPointer(pointer(worker)), byteCount: bytes)
    }
}

/// The packed filter of an 8-bit layer in tap quads (`DepthwiseQuadFilter`), its input type, and
/// the per-thread workspace its calls build their rings of quad rows in.
struct DepthwiseQuadRows {
    let filter: AlignedArray<Int32>
    /// The filter's weight parts (`DepthwiseQuadFilter.parts`).
    let parts: Int
    /// int8 input and output (uint8 otherwise).
    let signedInput: Bool
    /// `DepthwiseConv2DOptimized.tapQuadWorkspaceBytes` per pool thread.
    let workspaces: DepthwiseThreadScratch
}
