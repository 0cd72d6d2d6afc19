/// Depthwise convolution streamed through a small window of padded input rows instead of a
/// padded copy of the whole input (quantized layers: exact floats `x + inputOffset`) or border
/// pixels computed one tap at a time (float layers).
///
/// A thread computes its output rows in blocks. For each block it converts just the padded
/// input rows the block's windows cover (`padInput(_:…startingAt:)`, zeros for padding) into a
/// window buffer and runs the interior kernels on it. Rows shared with the previous block of
/// the same image are moved to the front of the buffer, not converted again, so every input row
/// is converted about once per thread. The buffer is at most `windowByteBudget` (plus one block's
/// rows when a single block needs more) and cache-line aligned, so the rows stay in the core's
/// L2 cache — the whole-input copy of efficientnet_lite0's 112×112×96 layer was 4.9 MB — and no
/// vector load straddles two lines.
extension DepthwiseConv2DOptimized {
    /// The window buffer size aimed at, in bytes (within a core's L2 cache on the CPUs we run on).
    public static let windowByteBudget = 384 * 1024

    /// How a thread's output rows are blocked: `blockRows` output rows per block, whose windows
    /// span `windowRows` padded input rows (the buffer's capacity in rows).
    public struct InputWindowPlan: Equatable, Sendable {
        /// Output rows per block (at least 1).
        public let blockRows: Int
        /// Padded input rows the buffer holds: `(blockRows − 1) · strideHeight + filter span`.
        public let windowRows: Int
        /// Floats per padded input row.
        public let rowLength: Int
        /// Floats of the window buffer (`windowRows · rowLength`).
        public var floatCount: Int { windowRows * rowLength }

        /// True when each block converts at least as many new rows as it moves from the previous
        /// block (`blockRows · strideHeight ≥` the rows its windows share), so the copying stays
        /// within about twice the input's size.
        public func convertsMoreThanItMoves(_ g: ConvolutionGeometry) -> Bool {
            blockRows * g.strideHeight >= windowRows - blockRows * g.strideHeight
        }

        /// Floats of one thread's workspace on layer `g`: the window buffer, rounded up to a
        /// whole 64-byte line, then, `withRowOfSums` (the 8-bit kernels, whose epilogue does not
        /// finish in place; not the float ones), one output row of float sums.
        public func workspaceFloatCount(_ g: ConvolutionGeometry, withRowOfSums: Bool) -> Int {
            Self.sumsOffset(floatCount) + (withRowOfSums ? g.outputWidth * g.outputDepth : 0)
        }

        /// Where the row of sums starts in a workspace: after `windowFloats`, on a 64-byte line.
        static func sumsOffset(_ windowFloats: Int) -> Int { (windowFloats + 15) / 16 * 16 }
    }

    /// The block plan for geometry `g` within `byteBudget` bytes (at least one output row per
    /// block, whatever the budget).
    public static func inputWindowPlan(_ g: ConvolutionGeometry, byteBudget: Int = windowByteBudget) -> InputWindowPlan {
        let p = paddedGeometry(g)
        let rowLength = p.inputWidth * g.inputDepth
        let span = (g.filterHeight - 1) * g.dilationHeight + 1
        let budgetRows = byteBudget / max(1, rowLength * MemoryLayout<Float>.size)
        let blockRows = max(1, min(g.outputHeight, (budgetRows - span) / max(1, g.strideHeight) + 1))
        return InputWindowPlan(blockRows: blockRows, windowRows: (blockRows - 1) * g.strideHeight + span,
                               rowLength: rowLength)
    }

    /// Float depthwise rows `rows` (of `rowCount(g)`) through the window: the input rows copied
    /// with their zero padding, so every tap runs in the interior tiles. Padding taps add
    /// `0 · w`, which leaves every sum the reference's (bit for bit without `fusedMultiplyAdd`)
    /// provided every weight is finite (`0 · ∞` is NaN): callers check the filter first.
    /// `workspace`: the calling thread's `plan.workspaceFloatCount(g, withRowOfSums: false)`
    /// floats, 64-byte aligned, used by no other thread while this runs, contents ignored (each
    /// call fills what it reads); nil: allocated for the call.
    public static func float(_ g: ConvolutionGeometry, activationMin: Float, activationMax: Float,
                             input: UnsafePointer<Float>, filter: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
                             output: UnsafeMutablePointer<Float>, rows: Range<Int>, plan: InputWindowPlan,
                             fusedMultiplyAdd: Bool, workspace: UnsafeMutablePointer<Float>? = nil) {
        let epilogue = DepthwiseFloatEpilogue(bias: bias, activationMin: activationMin, activationMax: activationMax)
        streamed(g, filter: filter, epilogue: epilogue, output: output, rows: rows, plan: plan,
                 fusedMultiplyAdd: fusedMultiplyAdd, workspace: workspace) { padded, into in
            padInput(input, g, rows: padded, startingAt: into)
        }
    }

    /// uint8 depthwise rows `rows` (of `rowCount(g)`) read from the input itself through the
    /// window, bit-exact with the reference. `workspace`: as the float form's, of
    /// `plan.workspaceFloatCount(g, withRowOfSums: true)` floats.
    public static func uint8(_ g: ConvolutionGeometry, _ q: ConvRequantizer, input: UnsafePointer<UInt8>,
                             packedFilter: UnsafePointer<Float>, bias: UnsafePointer<Int32>?,
                             output: UnsafeMutablePointer<UInt8>, rows: Range<Int>, plan: InputWindowPlan,
                             workspace: UnsafeMutablePointer<Float>? = nil) {
        let offset = q.parameters.inputOffset
        streamed(g, filter: packedFilter, epilogue: DepthwiseRequantizeEpilogue(requantizer: q, bias: bias),
                 output: output, rows: rows, plan: plan, workspace: workspace) { padded, into in
            padInput(input, offset: offset, g, rows: padded, startingAt: into)
        }
    }

    /// int8 depthwise rows through the window (see `uint8(_:_:input:...)`).
    public static func int8(_ g: ConvolutionGeometry, _ q: ConvRequantizer, input: UnsafePointer<Int8>,
                            packedFilter: UnsafePointer<Float>, bias: UnsafePointer<Int32>?,
                            output: UnsafeMutablePointer<Int8>, rows: Range<Int>, plan: InputWindowPlan,
                            workspace: UnsafeMutablePointer<Float>? = nil) {
        let offset = q.parameters.inputOffset
        let bytes = UnsafeMutableRawPointer(output).assumingMemoryBound(to: UInt8.self)
        streamed(g, filter: packedFilter, epilogue: DepthwiseRequantizeEpilogue(requantizer: q, bias: bias),
                 output: bytes, rows: rows, plan: plan, workspace: workspace) { padded, into in
            padInput(input, offset: offset, g, rows: padded, startingAt: into)
        }
    }

    /// The block loop. `convert(rows, to)` writes padded rows `rows` (global padded row
    /// numbers, `batch · paddedHeight + y`) to consecutive rows from `to`.
    /// Complexity: each padded row is converted once per chunk it serves (twice at most across
    /// a chunk boundary), plus `windowRows − blockRows · stride` moved rows per block.
    /// `workspace` (nil: allocated here for the call) holds the window, then the row of sums:
    /// `plan.workspaceFloatCount(g, withRowOfSums: !E.finishesInPlace)` floats, 64-byte
    /// aligned. Nothing in it is read before this call writes it: every block converts (or
    /// moves from rows this call converted) each window row whole, its zero padding included.
    static func streamed<E: DepthwiseEpilogue>(
        _ g: ConvolutionGeometry, filter: UnsafePointer<Float>, epilogue: E, output: UnsafeMutablePointer<E.Output>,
        rows: Range<Int>, plan: InputWindowPlan, fusedMultiplyAdd: Bool = false,
        workspace: UnsafeMutablePointer<Float>? = nil,
        convert: (Range<Int>, UnsafeMutablePointer<Float>) -> Void
    ) {
        let floats = plan.workspaceFloatCount(g, withRowOfSums: !E.finishesInPlace)
        if let workspace {
            #if LITEVISION_INTERNAL_CHECKS
            precondition(Int(bitPattern: workspace) % 64 == 0, "depthwise workspace not 64-byte aligned")
            #endif
            streamBlocks(g, filter: filter, epilogue: epilogue, output: output, rows: rows, plan: plan,
                         fusedMultiplyAdd: fusedMultiplyAdd, window: workspace, convert: convert)
            return
        }
        withUnsafeTemporaryAllocation(byteCount: floats * MemoryLayout<Float>.size, alignment: 64) { memory in
            streamBlocks(g, filter: filter, epilogue: epilogue, output: output, rows: rows, plan: plan,
                         fusedMultiplyAdd: fusedMultiplyAdd,
                         window: memory.baseAddress!.bindMemory(to: Float.self, capacity: floats), convert: convert)
        }
    }

    /// The block loop of `streamed(_:filter:epilogue:output:rows:plan:fusedMultiplyAdd:workspace:convert:)`
    /// on the workspace `window`.
    @inline(__always)
    private static func streamBlocks<E: DepthwiseEpilogue>(
        _ g: ConvolutionGeometry, filter: UnsafePointer<Float>, epilogue: E, output: UnsafeMutablePointer<E.Output>,
        rows: Range<Int>, plan: InputWindowPlan, fusedMultiplyAdd: Bool, window: UnsafeMutablePointer<Float>,
        convert: (Range<Int>, UnsafeMutablePointer<Float>) -> Void
    ) {
        let p = paddedGeometry(g)
        let rowLength = plan.rowLength
        let span = (g.filterHeight - 1) * g.dilationHeight + 1
        let outRowLength = g.outputWidth * g.outputDepth
        // Every pixel of the window is interior, so float rows can be finished, and 8-bit rows
        // requantized, in the tiles.
        let options = DepthwiseRowOptions(fusedMultiplyAdd: E.sumsAreExactIntegers || fusedMultiplyAdd,
                                          finish: DepthwiseRowOptions.finishesFloatRows(channels: g.outputDepth) ? epilogue.tileFinish : nil)
        // Cache-line aligned, so the vector loads of channel blocks (16 floats, 64 bytes, apart
        // whenever the channel count is a multiple of 16) never straddle two lines.
        let sums = window + InputWindowPlan.sumsOffset(plan.floatCount)
        /// Global padded rows held in `window` (row `held.lowerBound` first).
        var held = 0..<0
        var row = rows.lowerBound
        while row < rows.upperBound {
            let batch = row / g.outputHeight, oy = row % g.outputHeight
            let blockEnd = min(rows.upperBound, row - oy + g.outputHeight, row + plan.blockRows)
            let first = batch * p.inputHeight + oy * g.strideHeight
            let needed = first..<(first + (blockEnd - 1 - row) * g.strideHeight + span)
            if held.contains(first) {
                let kept = held.upperBound - first
                (window).update(from: window + (first - held.lowerBound) * rowLength, count: kept * rowLength)
                convert(held.upperBound..<needed.upperBound, window + kept * rowLength)
            } else {
                convert(needed, window)
            }
            held = needed
            // The window as an image of its own: one batch, `needed.count` rows, no padding.
            var view = p
            view.batches = 1
            view.inputHeight = needed.count
            for r in row..<blockEnd {
                let outRow = output + r * outRowLength
                let rowSums = epilogue.sums(for: outRow, scratch: sums)
                var rowOptions = options
                if DepthwiseRowOptions.requantizingTiles { rowOptions.requantize = epilogue.tileRequantization(outRow) }
                DepthwiseRowSums.compute(view, input: window, filter: filter, batch: 0, oy: r - row, into: rowSums,
                                         options: rowOptions)
                if rowOptions.finish == nil, rowOptions.requantize == nil {
                    epilogue.finish(rowSums, pixels: g.outputWidth, channels: g.outputDepth, to: outRow)
                }
            }
            row = blockEnd
        }
    }
}
