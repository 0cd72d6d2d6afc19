import TFLiteKernels

/// How operators split their work over the ``ThreadPool``: the least work one chunk of a
/// `parallelFor` carries, so that small layers stay on one thread (a chunk handed to a worker
/// costs a wake-up and some cache misses, which only pays above these sizes). Operators take
/// their chunk sizes from here, never from literals of their own; the pool then splits a job
/// into at most ``ThreadPool/chunksPerThread`` chunks per thread.
///
/// The amounts were tuned on the benchmark models (two cores) and are stated in the unit the
/// kernels' inner loops count: multiply-adds for convolutions, window taps for pooling,
/// elements for layout conversions and elementwise work, bytes for data movement.
enum WorkSplitPolicy {
    /// Multiply-adds per chunk of the float GEMM's pixel tiles (CONV_2D, FULLY_CONNECTED).
    static let floatGEMMMultiplyAdds = 100_000
    /// Multiply-adds per chunk of the integer GEMM's pixel tiles (uint8, int8, hybrid).
    static let integerGEMMMultiplyAdds = 200_000
    /// Input elements per chunk when activations are converted into a GEMM's operand layout.
    static let activationPackingElements = 65_536
    /// Multiply-adds per chunk of the depthwise kernels' output rows.
    static let depthwiseMultiplyAdds = 50_000
    /// Window taps per chunk of the pooling kernels' output rows.
    static let poolingTaps = 20_000
    /// Output elements per chunk of the elementwise kernels (unary, binary, activations, byte
    /// tables) and of SOFTMAX's rows.
    static let elementwiseElements = 16_384
    /// Output elements per chunk of the computed (not tabulated) 8-bit ADD, SUB and MUL, whose
    /// rescalings cost about 3 ns per element in the default build (three rounding multiplies
    /// for ADD): at `elementwiseElements` efficientnet_lite0's 9,408- and 15,680-element residual
    /// ADDs ran on one thread.
    static let quantizedArithmeticElements = 4_096
    /// Output elements per chunk of the RESIZE kernels' output rows.
    static let resizeElements = 16_384
    /// Elements per chunk of QUANTIZE / DEQUANTIZE / requantize arithmetic loops.
    static let quantizeElements = 8_192
    /// Elements per chunk of a 256-entry byte-table lookup (about 1 ns per 4 elements).
    static let byteTableElements = 65_536
    /// Bytes per chunk of the data-movement copies (PAD, TRANSPOSE, CONCATENATION, strided
    /// windows): smaller copies stay on one thread.
    static let movedBytes = 65_536

    /// The least units per chunk when each unit costs `workPerUnit` and a chunk should carry
    /// `work`: at least 1.
    static func minChunk(work: Int, workPerUnit: Int) -> Int {
        max(1, work / max(1, workPerUnit))
    }

    /// Pixel tiles per chunk of `Conv2DOptimized.float` on `g`.
    static func floatGEMMMinChunk(_ g: ConvolutionGeometry) -> Int {
        let rows = Conv2DOptimized.floatTileRows(g)
        return minChunk(work: floatGEMMMultiplyAdds,
                        workPerUnit: rows * g.outputDepth * g.filterHeight * g.filterWidth * g.inputDepth)
    }

    /// Tiles per chunk of `QuantizedGEMM` on `gemm` (the GEMM's own geometry, patch form included).
    static func integerGEMMMinChunk(_ gemm: ConvolutionGeometry) -> Int {
        minChunk(work: integerGEMMMultiplyAdds,
                 workPerUnit: QuantizedGEMM.tilePixels * gemm.outputDepth * gemm.filterHeight * gemm.filterWidth
                     * gemm.inputDepth)
    }

    /// Pixels per chunk when pixels of `depth` elements are converted into a GEMM operand layout.
    static func activationPackingMinChunk(depth: Int) -> Int {
        minChunk(work: activationPackingElements, workPerUnit: depth)
    }

    /// Output rows per chunk of the depthwise kernels on `g`.
    static func depthwiseMinChunk(_ g: ConvolutionGeometry) -> Int {
        minChunk(work: depthwiseMultiplyAdds, workPerUnit: g.outputWidth * g.outputDepth * g.filterHeight * g.filterWidth)
    }

    /// Output rows per chunk of the 8-bit depthwise kernel in tap quads on `g` over `threadCount`
    /// threads. A chunk first builds the rows of quads that its first output row reads and the
    /// next ones step past (`filter span − stride` rows: 4 for a 5×5 filter at stride 1), so short
    /// chunks build most rows several times: a chunk is at least `quadRingChunkRows` times
    /// that many rows, but no more than an even share per thread, and never below
    /// `depthwiseMinChunk` (small layers stay on one thread). Measured on the AMD Zen 4 at 2
    /// threads: efficientnet_lite0's depthwise layers 0.99–1.04 → 0.87–0.89 ms per invoke (its
    /// 14×14 and 7×7 ones had split into chunks of one or two rows, and ran no faster than on
    /// one thread).
    static func depthwiseQuadMinChunk(_ g: ConvolutionGeometry, threadCount: Int) -> Int {
        let span = (g.filterHeight - 1) * g.dilationHeight + 1
        let rebuilt = max(0, span - g.strideHeight)
        let share = max(1, g.batches * g.outputHeight / max(1, threadCount))
        return max(depthwiseMinChunk(g), min(quadRingChunkRows * rebuilt, share))
    }

    /// Output rows per chunk of the tap-quad depthwise kernel, per row a chunk builds again.
    static let quadRingChunkRows = 8

    /// Units per chunk of a data-movement copy whose unit (row, run, block) moves `unitBytes` bytes.
    static func movedBytesMinChunk(unitBytes: Int) -> Int {
        minChunk(work: movedBytes, workPerUnit: unitBytes)
    }

    /// Output rows per chunk of the RESIZE row kernels on `p`.
    static func resizeMinChunk(_ p: ResizeParameters) -> Int {
        minChunk(work: resizeElements, workPerUnit: p.outputWidth * p.depth)
    }

    /// Output rows per chunk of the pooling kernels on `g`.
    static func poolingMinChunk(_ g: ConvolutionGeometry) -> Int {
        minChunk(work: poolingTaps, workPerUnit: g.outputWidth * g.outputDepth * g.filterHeight * g.filterWidth)
    }
}
