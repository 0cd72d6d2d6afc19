/// Optimized float CONV_2D (and FULLY_CONNECTED as a 1×1 convolution): an indirect, im2col-free
/// GEMM whose register block is picked per build and layer (`FloatConvKernelShape.native`).
/// The quantized convolutions live in `QuantizedGEMM`.
public enum Conv2DOptimized {
    /// Output pixels per tile of the float kernel this build runs for `g`.
    public static func floatTileRows(_ g: ConvolutionGeometry) -> Int {
        FloatConvKernelShape.native(outputDepth: g.outputDepth, depth: g.filterHeight * g.filterWidth * g.inputDepth).rows
    }

    /// Number of float tiles covering the output (the unit `float` splits across threads).
    public static func floatTileCount(_ g: ConvolutionGeometry) -> Int {
        floatTileCount(g, rows: floatTileRows(g))
    }

    /// Number of `rows`-pixel tiles covering the output.
    static func floatTileCount(_ g: ConvolutionGeometry, rows: Int) -> Int {
        (g.batches * g.outputHeight * g.outputWidth + rows - 1) / rows
    }

    /// Bytes of ``KernelWorkspace`` a `float` call on `g` takes (its contract, see
    /// `KernelWorkspace`): the pre-broadcast inputs of one tile where the SSE2 build runs
    /// `floatBroadcast6x8`, else the indirect driver's run table for a block of tiles and room
    /// for a partial panel (`floatIndirectWorkspaceBytes`).
    public static func floatWorkspaceBytes(_ g: ConvolutionGeometry) -> Int {
        if preBroadcasts(g) { return floatBroadcast6x8WorkspaceBytes(g) }
        let shape = FloatConvKernelShape.native(outputDepth: g.outputDepth, depth: g.filterHeight * g.filterWidth * g.inputDepth)
        return floatIndirectWorkspaceBytes(rows: shape.rows, panelWidth: shape.panelWidth, g)
    }

    /// Whether `float` runs `g` through `floatBroadcast6x8`: the 6 × 8 kernel, from 5 panels on
    /// or for fewer than 16 steps per panel (SSE2, measured: cout 12/16 -13%, cout 24/32
    /// +2..10% without the broadcasts; depth 8 × cout 32 +10% with them).
    static func preBroadcasts(_ g: ConvolutionGeometry) -> Bool {
        FloatConvKernelShape.native(outputDepth: g.outputDepth, depth: g.filterHeight * g.filterWidth * g.inputDepth) == .rows6x8
            && (g.outputDepth > 4 * FloatConvKernel6x8.panelWidth || g.filterHeight * g.filterWidth * g.inputDepth < 16)
    }

    /// Whether the kernel this build runs for `g` takes a fused ADD (`FloatConvResidual`) whose
    /// operand has `channels` channels: the generated tiles do, the Swift ones do not; an operand
    /// with fewer channels than the output (a channel PAD's input) needs whole panels of them.
    public static func fusesResidual(_ g: ConvolutionGeometry, channels: Int) -> Bool {
        let shape = FloatConvKernelShape.native(outputDepth: g.outputDepth, depth: g.filterHeight * g.filterWidth * g.inputDepth)
        switch shape {
        case .generated8x32, .generated8x16, .generated6x16:
            return channels == g.outputDepth || (channels > 0 && channels < g.outputDepth && channels % shape.panelWidth == 0)
        case .rows8x32, .rows6x16, .rows6x8: return false
        }
    }

    /// Computes the output pixels of float tiles `tiles` (see `floatTileCount`) with the
    /// microkernel this build runs for `g`. `packedFilter` comes from `ConvFilterPacking.packFloat`
    /// (which packs for that same kernel); `zeros` must hold at least `inputDepth` zeros.
    /// Groups == 1 only. With `fusedMultiplyAdd`, the generated kernels add each product with
    /// one rounding (the Swift kernels are unchanged): the same order of sums, each within an
    /// ulp of the separately rounded step. A `residual` (an ADD fused into the layer) requires
    /// `fusesResidual(g, channels:)`, and with fewer channels than the output, `zeros` of at
    /// least `FloatConvResidual.zeroRowFloats` floats (its zero row). `workspace` has
    /// `floatWorkspaceBytes(g)` bytes for this call alone (the calling thread's, see
    /// ``KernelWorkspace``), or is nil: the call then takes a temporary of its own.
    public static func float(_ g: ConvolutionGeometry, activationMin: Float, activationMax: Float,
                             input: UnsafePointer<Float>, packedFilter: UnsafePointer<Float>,
                             bias: UnsafePointer<Float>?, zeros: UnsafePointer<Float>,
                             output: UnsafeMutablePointer<Float>, tiles: Range<Int>, fusedMultiplyAdd: Bool = false,
                             residual: FloatConvResidual? = nil, workspace: KernelWorkspace? = nil) {
        KernelPrecondition.check(residual.map { fusesResidual(g, channels: $0.channels) } ?? true,
                                 "a fused ADD needs a generated float tile, and whole panels of its operand's channels")
        /// `floatIndirect` with kernel `K` on this call's operands.
        func indirect<K: FloatConvTileKernel>(_ kernel: K.Type) {
            floatIndirect(K.self, g, activationMin: activationMin, activationMax: activationMax, input: input,
                          packedFilter: packedFilter, bias: bias, zeros: zeros, output: output, tiles: tiles,
                          residual: residual, workspace: workspace)
        }
        switch FloatConvKernelShape.native(outputDepth: g.outputDepth, depth: g.filterHeight * g.filterWidth * g.inputDepth) {
        case .rows8x32: indirect(FloatConvKernel8x32.self)
        case .generated8x32 where fusedMultiplyAdd: indirect(GeneratedFusedFloatConvKernel8x32.self)
        case .generated8x32: indirect(GeneratedFloatConvKernel8x32.self)
        case .generated8x16 where fusedMultiplyAdd: indirect(GeneratedFusedFloatConvKernel8x16.self)
        case .generated8x16: indirect(GeneratedFloatConvKernel8x16.self)
        case .generated6x16 where fusedMultiplyAdd: indirect(GeneratedFusedFloatConvKernel6x16.self)
        case .generated6x16: indirect(GeneratedFloatConvKernel6x16.self)
        case .rows6x16: indirect(FloatConvKernel6x16.self)
        case .rows6x8 where preBroadcasts(g):
            // Pre-broadcast inputs pay off from 5 panels on, or when the steps per panel are
            // too few for the per-tap pointer work (`preBroadcasts`).
            floatBroadcast6x8(g, activationMin: activationMin, activationMax: activationMax, input: input,
                              packedFilter: packedFilter, bias: bias, zeros: zeros, output: output, tiles: tiles,
                              workspace: workspace)
        case .rows6x8: indirect(FloatConvKernel6x8.self)
        }
    }
}
