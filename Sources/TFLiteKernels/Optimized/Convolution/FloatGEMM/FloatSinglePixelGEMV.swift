/// A float layer with a single output pixel whose window is its whole input, read in filter
/// order (`takes`): FULLY_CONNECTED on one row, and a convolution whose VALID filter spans its
/// input (face_landmark's 3 × 3 stride-3 head on a 3 × 3 input). Such a layer is a
/// matrix-vector product: the pixel tiles of `Conv2DOptimized.float` would compute 6 or 8 rows
/// of which one is used, so this kernel runs one row over weights packed in panels of
/// `panelWidth` channels (`ConvFilterPacking`'s layout), two 16-lane accumulators per panel.
///
/// Each output is `(Σ_k x[k] · w[k]) + bias`, the products and sums rounded separately, `k` in
/// filter order: the reference's order and roundings, so the results are the reference's bit
/// for bit (also under fused multiply-adds, which only the generated tiles use), then clamped
/// as `FloatConvEpilogue` does.
public enum FloatSinglePixelGEMV {
    /// Output channels per packed panel.
    public static let panelWidth = 32

    /// Whether `g` is such a layer: one batch and one output pixel, a window that covers the
    /// whole input without padding or dilation, and no groups.
    public static func takes(_ g: ConvolutionGeometry) -> Bool {
        g.batches == 1 && g.outputHeight == 1 && g.outputWidth == 1 && g.inputHeight == g.filterHeight
            && g.inputWidth == g.filterWidth && g.padTop == 0 && g.padLeft == 0
            && (g.filterHeight == 1 || g.dilationHeight == 1) && (g.filterWidth == 1 || g.dilationWidth == 1)
            && g.filterInputDepth == g.inputDepth
    }

    /// Number of panels for `outputDepth` channels (the unit `run` splits across threads).
    public static func panelCount(outputDepth: Int) -> Int { (outputDepth + panelWidth - 1) / panelWidth }

    /// Bytes `pack` allocates, saturating at `Int.max` (for a budget check before packing).
    public static func packedByteCount(outputDepth: Int, depth: Int) -> Int {
        ConvFilterPacking.packedFloatByteCount(outputDepth: outputDepth, depth: depth, panelWidth: panelWidth)
    }

    /// `filter` (`outputDepth` rows of `depth` weights) in panels of `panelWidth` channels, zero
    /// past `outputDepth`, in cache-line-aligned memory (`ConvFilterPacking`'s layout).
    /// - Throws: `AlignedArrayAllocationError` when the system cannot provide the memory.
    public static func pack(_ filter: UnsafePointer<Float>, outputDepth: Int, depth: Int) throws -> AlignedArray<Float> {
        try ConvFilterPacking.packFloatAligned(filter, outputDepth: outputDepth, depth: depth, panelWidth: panelWidth)
    }

    /// Computes the output channels of `panels` (see `panelCount`): `input` holds the `depth`
    /// values of the window in filter order, `weights` comes from `pack`, `bias` (or nil) and
    /// `output` hold `outputDepth` values. O(panels · depth · panelWidth).
    public static func run(input: UnsafePointer<Float>, depth: Int, weights: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
                           outputDepth: Int, activationMin: Float, activationMax: Float,
                           output: UnsafeMutablePointer<Float>, panels: Range<Int>) {
        KernelPrecondition.check(panels.lowerBound >= 0 && panels.upperBound <= panelCount(outputDepth: outputDepth) && depth >= 0,
                                 "single-pixel GEMV: panels \(panels) of \(outputDepth) channels, depth \(depth)")
        for panel in panels {
            let first = panel * panelWidth
            var w = weights + panel * depth * panelWidth
            var low = SIMD16<Float>(), high = SIMD16<Float>()
            for k in 0..<depth {
                let x = SIMD16<Float>(repeating: input[k])
                low = low + x * UnsafeRawPointer(w).loadUnaligned(as: SIMD16<Float>.self)
                high = high + x * UnsafeRawPointer(w + 16).loadUnaligned(as: SIMD16<Float>.self)
                w += panelWidth
            }
            let epilogue = FloatConvEpilogue(bias: bias.map { $0 + first }, lanes: min(panelWidth, outputDepth - first),
                                             activationMin: activationMin, activationMax: activationMax)
            epilogue.store(low, bias: epilogue.bias16(at: 0), to: output + first, offset: 0)
            epilogue.store(high, bias: epilogue.bias16(at: 16), to: output + first, offset: 16)
        }
    }
}
