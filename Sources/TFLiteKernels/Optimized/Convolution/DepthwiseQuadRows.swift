#if !LITEVISION_AVX512
/// 8-bit depthwise rows in tap quads, on CPUs with AVX512-VNNI and AVX512-VBMI: each padded
/// input row becomes a row of quads — for each quad pixel and channel, the unsigned bytes of four
/// horizontal taps in one 32-bit lane (`DepthwiseTapQuadsAVX512VBMI`) — and the tiles
/// (`DepthwiseQuadTiles16AVX512VNNI`) multiply each lane by its four weights
/// (`DepthwiseQuadFilter`) with one `vpdpbusd`: 3 per pixel and 16 channels for a 3×3 filter
/// where the exact-float tiles take 9 fused multiply-adds, no float conversion of the input, and
/// Int32 sums that requantize without one either. Bit-exact with the reference: the sums are
/// the reference's Int32 accumulators (see `DepthwiseQuadFilter` for the input offset's share).
///
/// Quad pixel `i` of a row holds the taps at padded columns `i · stride + j · dilation`
/// (j = 0…3), so output pixel `ox` reads quad pixels `ox + k · (4 · dilation / stride)` for its
/// `k`-th quad of each filter row: the stride must divide `4 · dilation` (1, 2 and 4 do for
/// every dilation). A call keeps the rows of one filter span in a ring of `span` slots (padded
/// row `r` in slot `r mod span`) in its workspace, so each row is built once per chunk and none
/// is ever moved: the tiles find the filter's rows through a table of slot pointers. Rows with
/// input are built straight from the input where their taps are inside it, from a padded byte
/// copy of the input row (the workspace's byte row) at the edges; padding rows are the padding
/// byte throughout.
extension DepthwiseConv2DOptimized {
    /// The generated kernels of the quad rows, or nil where this process has none.
    static var tapQuadKernels: DepthwiseQuadKernels? {
        GeneratedKernels.current?.depthwiseQuads
    }

    /// True when the quad rows can run layer `g` in this process (the kernels exist, `supports(g)`,
    /// the width stride divides `4 · dilation`, a window spans at most `maximumQuadSpan` rows),
    /// leaving the filter (`DepthwiseQuadFilter.parts`), the bias (required) and the requantizer
    /// (`takesTapQuads(_:)`) to the caller.
    public static func takesTapQuads(_ g: ConvolutionGeometry) -> Bool {
        tapQuadKernels != nil && supports(g) && (4 * g.dilationWidth) % g.strideWidth == 0 && quadSpan(g) <= maximumQuadSpan
    }

    /// The most padded rows a window of the quad rows may span (the ring's slots): 3×3 filters
    /// up to dilation 3, 5×5 and 7×7 undilated. Wider spans (a dilated layer) would keep rows that
    /// are read once every `dilation` output rows; those run in the float windows.
    static let maximumQuadSpan = 8

    /// True when `requantizer` runs in the quad tiles: the AVX-512 requantization takes it.
    public static func takesTapQuads(_ requantizer: ConvRequantizer) -> Bool {
        requantizer.suitsGeneratedRequantization(unsigned: false)
    }

    /// Quad pixels per row: those the output row's last pixel reads, from 0.
    static func quadPixels(_ g: ConvolutionGeometry) -> Int {
        g.outputWidth + (DepthwiseQuadFilter.quadsPerRow(g) - 1) * (4 * g.dilationWidth / g.strideWidth)
    }

    /// Padded input columns the quads read (the byte row's width): up to the last quad's last tap.
    static func quadColumns(_ g: ConvolutionGeometry) -> Int {
        (quadPixels(g) - 1) * g.strideWidth + 3 * g.dilationWidth + 1
    }

    /// Bytes past a row of quads and past the byte row that the builder's last 16-channel block
    /// may write or read beyond the channels (`DepthwiseTapQuadsAVX512VBMI`'s preconditions).
    static let quadSpillBytes = 64

    /// Bytes of one ring slot: a row of quads and the spill, in whole 64-byte lines.
    static func quadSlotBytes(_ g: ConvolutionGeometry) -> Int {
        (quadPixels(g) * g.inputDepth * 4 + quadSpillBytes + 63) / 64 * 64
    }

    /// Padded input rows a window spans (the ring's slots).
    static func quadSpan(_ g: ConvolutionGeometry) -> Int { (g.filterHeight - 1) * g.dilationHeight + 1 }

    /// Bytes of the workspace a `tapQuads` call on `g` takes (``KernelWorkspace``): the ring of
    /// `quadSpan(g)` slots, then the byte row and its spill.
    public static func tapQuadWorkspaceBytes(_ g: ConvolutionGeometry) -> Int {
        KernelWorkspace.bytes(UInt8.self, count: quadSpan(g) * quadSlotBytes(g))
            + KernelWorkspace.bytes(UInt8.self, count: quadColumns(g) * g.inputDepth + quadSpillBytes)
    }

    /// 8-bit depthwise rows `rows` (of `rowCount(g)`) in tap quads, requantized to `output`
    /// (uint8 or int8 bytes, as the requantizer's clamp). `input`: the layer's input bytes,
    /// int8 where `signedInput`; `packed`: `DepthwiseQuadFilter.pack` of the filter with the
    /// requantizer's offsets, in `parts` weight parts; `bias`: the layer's Int32 bias. `workspace`:
    /// this call's `tapQuadWorkspaceBytes(g)` bytes (see ``KernelWorkspace``; every row it reads
    /// is built first). Preconditions: `takesTapQuads(g)`, `takesTapQuads(q)`, a padding byte
    /// (`DepthwiseQuadFilter.paddingByte`); each tile call's and builder call's argument block is
    /// checked under `LITEVISION_INTERNAL_CHECKS`.
    /// Complexity: each padded row built once per chunk (`span` rows when a chunk starts), then
    /// one `vpdpbusd` per quad, pixel and 16 channels.
    public static func tapQuads(_ g: ConvolutionGeometry, _ q: ConvRequantizer, input: UnsafeRawPointer, signedInput: Bool,
                                packed: UnsafePointer<Int32>, parts: Int, bias: UnsafePointer<Int32>, output: UnsafeMutableRawPointer,
                                rows: Range<Int>, workspace: KernelWorkspace) {
        guard let kernels = tapQuadKernels, parts == 1 || parts == 2,
              let padding = DepthwiseQuadFilter.paddingByte(inputOffset: q.parameters.inputOffset, signedInput: signedInput)
        else { preconditionFailure("depthwise quads: no generated kernels, \(parts) weight parts, or no padding byte") }
        var workspace = workspace
        var interleave = DepthwiseTapQuadsAVX512VBMI.interleave
        withUnsafeBytes(of: &interleave) { indices in
            let ring = QuadRing(g, input: input, workspace: &workspace, padding: padding, signedInput: signedInput,
                                build: signedInput ? kernels.int8Rows : kernels.uint8Rows, indices: indices.baseAddress!)
            let (c, quads) = (g.inputDepth, DepthwiseQuadFilter.quadsPerRow(g))
            let parameters = q.parameters
            let tiles = parts == 1 ? kernels.tiles : kernels.splitTiles
            let corrections = packed + g.filterHeight * quads * parts * c
            withUnsafeTemporaryAllocation(of: UnsafeRawPointer.self, capacity: g.filterHeight) { table in
                var held = 0..<0
                for r in rows {
                    let first = (r / g.outputHeight) * ring.paddedHeight + (r % g.outputHeight) * g.strideHeight
                    let needed = first..<(first + ring.span)
                    for row in needed where !held.contains(row) { ring.build(row) }
                    held = needed
                    for ky in 0..<g.filterHeight {
                        table.initializeElement(at: ky, to: UnsafeRawPointer(ring.slot(first + ky * g.dilationHeight)))
                    }
                    var arguments = GeneratedQuadTileArguments(
                        rowTable: UnsafeRawPointer(table.baseAddress!), filter: UnsafeRawPointer(packed),
                        output: output + r * g.outputWidth * c, pixels: g.outputWidth, kh: g.filterHeight, quads: quads,
                        quadStepBytes: 4 * g.dilationWidth / g.strideWidth * c * 4, pixelStepBytes: c * 4, outputPixelBytes: c,
                        blockBytes: (c + 15) / 16 * 64, lastLaneMask: (1 << (c - (c - 1) / 16 * 16)) - 1,
                        bias: UnsafeRawPointer(bias), biasCorrection: UnsafeRawPointer(corrections),
                        multipliers: UnsafeRawPointer(q.multipliers), roundingTerms: q.roundingTerms(atChannel: 0),
                        outputMin: parameters.activationMin, outputMax: parameters.activationMax)
                    KernelPrecondition.holds(arguments.violation())
                    withUnsafePointer(to: &arguments) { tiles(UnsafeRawPointer($0)) }
                }
            }
        }
    }
}

/// One call's ring of quad rows (`DepthwiseConv2DOptimized.tapQuads`): `span` slots, padded
/// row `r` in slot `r mod span`, then the byte row the builder reads.
private struct QuadRing {
    let g: ConvolutionGeometry
    /// The layer's input bytes.
    let input: UnsafeRawPointer
    /// The padded input's rows per image, quad pixels per row, and padded columns they read.
    let paddedHeight: Int, pixels: Int, columns: Int
    let span: Int
    let slotBytes: Int
    let slots: UnsafeMutableRawPointer
    let byteRow: UnsafeMutablePointer<UInt8>
    /// The padding byte of the quads (unsigned), and of the byte row (the input's own bits).
    let padding: UInt8
    let sourcePadding: UInt8
    let build: DepthwiseTapQuadsAVX512VBMI.Function
    let indices: UnsafeRawPointer

    /// The ring of layer `g` in `workspace`'s pieces (`tapQuadWorkspaceBytes`' order).
    init(_ g: ConvolutionGeometry, input: UnsafeRawPointer, workspace: inout KernelWorkspace, padding: UInt8, signedInput: Bool,
         build: DepthwiseTapQuadsAVX512VBMI.Function, indices: UnsafeRawPointer) {
        self.g = g
        self.input = input
        paddedHeight = DepthwiseConv2DOptimized.paddedGeometry(g).inputHeight
        pixels = DepthwiseConv2DOptimized.quadPixels(g)
        columns = DepthwiseConv2DOptimized.quadColumns(g)
        span = DepthwiseConv2DOptimized.quadSpan(g)
        slotBytes = DepthwiseConv2DOptimized.quadSlotBytes(g)
        slots = UnsafeMutableRawPointer(workspace.take(UInt8.self, count: span * slotBytes))
        byteRow = workspace.take(UInt8.self, count: columns * g.inputDepth + DepthwiseConv2DOptimized.quadSpillBytes)
        self.padding = padding
        sourcePadding = signedInput ? padding ^ 0x80 : padding
        self.build = build
        self.indices = indices
    }

    /// The slot of padded row `row` (global: `batch · paddedHeight + y`).
    @inline(__always)
    func slot(_ row: Int) -> UnsafeMutableRawPointer { slots + (row % span) * slotBytes }

    /// Builds padded row `row` (global) into its slot from the layer's input bytes: the quad
    /// pixels whose taps are all inside the input straight from the input row (when the channels
    /// are whole 16-byte blocks, so no block reads past the row), the others from the byte row,
    /// filled with the input and the padding only where they read it.
    func build(_ row: Int) {
        let c = g.inputDepth, s = g.strideWidth
        let b = row / paddedHeight, iy = row % paddedHeight - g.padTop
        if iy < 0 || iy >= g.inputHeight || g.padLeft >= columns {
            slot(row).initializeMemory(as: UInt8.self, repeating: padding, count: pixels * c * 4)
            return
        }
        let inputRow = (input + (b * g.inputHeight + iy) * g.inputWidth * c).assumingMemoryBound(to: UInt8.self)
        // Quad pixels [first, end) read input columns only: i · s ≥ padLeft, i · s + 3 · dilation < padLeft + width.
        let first = min(pixels, (g.padLeft + s - 1) / s)
        let end = c % 16 == 0 ? max(first, min(pixels, (g.padLeft + g.inputWidth - 3 * g.dilationWidth + s - 1) / s)) : first
        /// Fills byte row columns `range` (padded) with the input row and the padding.
        func fill(_ range: Range<Int>) {
            let inside = g.padLeft..<(g.padLeft + g.inputWidth)
            let before = range.clamped(to: 0..<inside.lowerBound), input = range.clamped(to: inside)
            let after = range.clamped(to: inside.upperBound..<max(inside.upperBound, range.upperBound))
            (byteRow + before.lowerBound * c).update(repeating: sourcePadding, count: before.count * c)
            (byteRow + after.lowerBound * c).update(repeating: sourcePadding, count: after.count * c)
            if !input.isEmpty {
                (byteRow + input.lowerBound * c).update(from: inputRow + (input.lowerBound - g.padLeft) * c, count: input.count * c)
            }
        }
        /// Builds quad pixels `quads` from `source`, the first one's first tap.
        func run(_ quads: Range<Int>, from source: UnsafeRawPointer) {
            guard !quads.isEmpty else { return }
            var arguments = GeneratedTapQuadArguments(
                source: source, destination: slot(row) + quads.lowerBound * 4 * c, pixels: quads.count, blocks: (c + 15) / 16,
                sourcePixelBytes: s * c, tapStepBytes: g.dilationWidth * c, destinationPixelBytes: 4 * c, indices: indices)
            KernelPrecondition.holds(arguments.violation())
            withUnsafePointer(to: &arguments) { build(UnsafeRawPointer($0)) }
        }
        if first > 0 { fill(0..<min(columns, (first - 1) * s + 3 * g.dilationWidth + 1)) }
        if end < pixels { fill(end * s..<columns) }
        run(0..<first, from: UnsafeRawPointer(byteRow))
        run(first..<end, from: UnsafeRawPointer(inputRow + (first * s - g.padLeft) * c))
        run(end..<pixels, from: UnsafeRawPointer(byteRow + end * s * c))
    }
}
#else
/// Tuned AVX-512 builds (`LITEVISION_AVX512`) generate no code, so they have no tap-quad
/// kernels: the quad rows never take a layer there, and the interpreter's plan, compiled in
/// both configurations, sees that through these entry points.
extension DepthwiseConv2DOptimized {
    /// Always false: no tap-quad kernels in this build.
    public static func takesTapQuads(_ g: ConvolutionGeometry) -> Bool { false }
    /// Always false: no tap-quad kernels in this build.
    public static func takesTapQuads(_ requantizer: ConvRequantizer) -> Bool { false }
    /// 0: no tap-quad kernels in this build.
    public static func tapQuadWorkspaceBytes(_ g: ConvolutionGeometry) -> Int { 0 }
    /// Precondition: never called (`takesTapQuads` is false in this build).
    public static func tapQuads(_ g: ConvolutionGeometry, _ q: ConvRequantizer, input: UnsafeRawPointer, signedInput: Bool,
                                packed: UnsafePointer<Int32>, parts: Int, bias: UnsafePointer<Int32>, output: UnsafeMutableRawPointer,
                                rows: Range<Int>, workspace: KernelWorkspace) {
        preconditionFailure("depthwise quads: tuned AVX-512 builds have no tap-quad kernels")
    }
}
#endif
