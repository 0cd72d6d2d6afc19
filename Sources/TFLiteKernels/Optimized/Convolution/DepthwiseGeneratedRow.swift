#if !LITEVISION_AVX512
/// A depthwise output row through the generated tiles (`DepthwiseConvTiles16AVX`), border pixels
/// included: a pixel whose window crosses the input's edge runs the same tiles on the clipped
/// window of its taps inside the input (fewer rows and columns, the filter pointer at the first
/// kept tap, `filterRowSkipBytes` past the clipped ones). Neighbouring pixels with the same
/// clipping run as one call, so a row is a few calls per 16-channel block: the left border,
/// the interior, the right border. Taps in the padding are skipped, not multiplied by zero, and
/// the kept ones are added in the reference's order, so sums are the border kernel's bit for bit
/// (with separate roundings) and no filter value is ever multiplied by a padding zero.
enum DepthwiseGeneratedRow {
    /// The generated tiles of a row.
    struct Tiles {
        /// The 16-channel tiles.
        let function: DepthwiseConvTiles16AVX.Function
        /// Whether `function` masks a last block of fewer than 16 channels (then every channel runs in it).
        let masksChannels: Bool
        /// The 8- and 4-channel tiles of the same form, for a remainder where `function` does
        /// not mask (nil: the remainder runs in the portable kernel).
        let remainder: DepthwiseRemainderTiles?

        /// The block of generated tiles that starts at channel `ch` of `c` (0, then the end of
        /// the previous block) and the channels it computes, or nil where the channels left run
        /// in the portable kernel:
        /// 16-channel blocks (with masking, the last one partial), then one of 8 and one of 4
        /// channels where the remainder has them and there are tiles for them.
        @inline(__always)
        func block(at ch: Int, of c: Int) -> (channels: Int, function: DepthwiseConvTiles16AVX.Function)? {
            let left = c - ch
            if left <= 0 { return nil }
            if masksChannels || left >= 16 { return (min(16, left), function) }
            guard let remainder else { return nil }
            return left >= 8 ? (8, remainder.eight) : left >= 4 ? (4, remainder.four) : nil
        }

        /// The channels `0..<count` of `c` that run in generated tiles (`block(at:of:)`).
        func channelCount(_ c: Int) -> Int {
            var ch = 0
            while let block = block(at: ch, of: c) { ch += block.channels }
            return ch
        }
    }

    /// The generated tiles for `options` (finishing, requantizing, fused multiply-add forms);
    /// nil when this process has none.
    static func tiles(for options: DepthwiseRowOptions) -> Tiles? {
        guard let kernels = GeneratedKernels.current else { return nil }
        let function = options.requantize != nil ? kernels.depthwiseRequantizingTiles16 : options.finish == nil
            ? (options.fusedMultiplyAdd ? kernels.depthwiseExactTiles16 : kernels.depthwiseTiles16)
            : (options.fusedMultiplyAdd ? kernels.depthwiseFinishingExactTiles16 : kernels.depthwiseFinishingTiles16)
        let remainder = options.requantize != nil ? nil : options.finish == nil
            ? (options.fusedMultiplyAdd ? kernels.depthwiseExactRemainderTiles : kernels.depthwiseRemainderTiles)
            : (options.fusedMultiplyAdd ? kernels.depthwiseFinishingExactRemainderTiles : kernels.depthwiseFinishingRemainderTiles)
        return function.map { Tiles(function: $0, masksChannels: kernels.depthwiseTilesMaskChannels, remainder: remainder) }
    }

    /// The filter taps along one axis that land inside the input: for a window whose first tap
    /// is at input coordinate `origin` (negative in the padding), the taps `t` in `0..<filterSize`
    /// with `0 ≤ origin + t · dilation < inputSize`, which are consecutive. Empty when none is.
    @inline(__always)
    static func taps(origin: Int, dilation: Int, filterSize: Int, inputSize: Int) -> Range<Int> {
        let first = origin >= 0 ? 0 : (dilation - 1 - origin) / dilation
        let end = origin >= inputSize ? 0 : min(filterSize, (inputSize - 1 - origin) / dilation + 1)
        return first < end ? first..<end : 0..<0
    }

    /// Writes output row (`batch`, `oy`) with `tiles` (from `tiles(for:)`): sums into `sums`
    /// (pixel `ox` at `ox · channels`), or the row finished or requantized as `options` says.
    /// Pixels without a tap inside the input get sums 0 (finished: the clamped bias).
    ///
    /// Preconditions: `options.requantize` only for rows whose every window has a tap inside the
    /// input; `options.finish` and `options.requantize` only where every channel runs in the
    /// tiles (`Tiles.channelCount`);
    /// `g.inputDepth ≥ 1`; `input` holds the batch's input rows, `filter` the whole filter, `sums`
    /// (or the requantized output) the row. Each tile call's argument block is checked under
    /// `LITEVISION_INTERNAL_CHECKS` (`GeneratedDepthwiseArguments.violation`, once per call).
    /// Complexity: O(border columns) to find the runs, then the tiles' work.
    static func row(_ g: ConvolutionGeometry, tiles: Tiles,
                    batch b: Int, oy: Int, input: UnsafePointer<Float>, filter: UnsafePointer<Float>,
                    sums: UnsafeMutablePointer<Float>, options: DepthwiseRowOptions) {
        let c = g.inputDepth
        let vectorChannels = tiles.channelCount(c)
        precondition(vectorChannels == c || (options.finish == nil && options.requantize == nil),
                     "rows finished in the tiles need every channel in the tiles")
        let y0 = oy * g.strideHeight - g.padTop
        let rows = taps(origin: y0, dilation: g.dilationHeight, filterSize: g.filterHeight, inputSize: g.inputHeight)
        /// The column taps of output column `ox`.
        func columnTaps(_ ox: Int) -> Range<Int> {
            taps(origin: ox * g.strideWidth - g.padLeft, dilation: g.dilationWidth, filterSize: g.filterWidth,
                 inputSize: g.inputWidth)
        }
        // Interior columns take every tap: one run, found without a scan.
        let interior = DepthwiseInteriorKernel.interiorColumns(g)
        var ox = 0
        while ox < g.outputWidth {
            let columns = columnTaps(ox)
            var end = ox + 1
            if interior.contains(ox) {
                end = interior.upperBound
            } else {
                while end < g.outputWidth, !interior.contains(end), columnTaps(end) == columns { end += 1 }
            }
            if rows.isEmpty || columns.isEmpty {
                precondition(options.requantize == nil, "requantized rows have a tap inside the input in every window")
                writeEmptyWindows(pixels: ox..<end, channels: c, sums: sums, finish: options.finish)
                ox = end
                continue
            }
            let firstTap = (b * g.inputHeight + y0 + rows.lowerBound * g.dilationHeight) * g.inputWidth
                + ox * g.strideWidth - g.padLeft + columns.lowerBound * g.dilationWidth
            let firstWeight = (rows.lowerBound * g.filterWidth + columns.lowerBound) * c
            var ch = 0
            while let (blockChannels, function) = tiles.block(at: ch, of: c) {
                // Whole 16-channel blocks in one call where the tiles loop over blocks.
                let blocks = options.requantize == nil && blockChannels == 16 ? (c - ch) / 16 : 1
                let channels = blockChannels * blocks
                var arguments = GeneratedDepthwiseArguments(
                    input: UnsafeRawPointer(input + (firstTap * c + ch)), filter: UnsafeRawPointer(filter + (firstWeight + ch)),
                    sums: UnsafeMutableRawPointer(sums + (ox * c + ch)), pixels: end - ox, kh: rows.count, kw: columns.count,
                    rowStrideBytes: g.dilationHeight * g.inputWidth * c * 4, tapStepBytes: g.dilationWidth * c * 4,
                    pixelStepBytes: g.strideWidth * c * 4, channelBytes: c * 4,
                    laneMask: tiles.masksChannels ? (1 << min(16, c - ch)) - 1 : 0xFFFF,
                    bias: options.finish?.bias.map { UnsafeRawPointer($0 + ch) },
                    activationMin: options.finish?.min ?? -.infinity, activationMax: options.finish?.max ?? .infinity)
                arguments.filterRowSkipBytes = (g.filterWidth - columns.count) * c * 4
                arguments.blocks = blocks
                if let requantize = options.requantize {
                    let q = requantize.requantizer, p = q.parameters
                    arguments.sums = UnsafeMutableRawPointer(requantize.output + (ox * c + ch))
                    arguments.outputPixelBytes = c
                    arguments.bias = UnsafeRawPointer(requantize.bias + ch)
                    arguments.multipliers = UnsafeRawPointer(q.multipliers + ch)
                    arguments.roundingTerms = q.roundingTerms(atChannel: ch)
                    (arguments.outputMin, arguments.outputMax) = (p.activationMin, p.activationMax)
                }
                KernelPrecondition.holds(arguments.violation(masksChannels: tiles.masksChannels,
                                                             requantizing: options.requantize != nil))
                withUnsafeMutablePointer(to: &arguments) { function(UnsafeRawPointer($0)) }
                ch += channels
            }
            ox = end
        }
        if vectorChannels < c {
            DepthwiseBorderKernel.pixels(g, batch: b, oy: oy, columns: 0..<g.outputWidth, channels: vectorChannels..<c,
                                         input: input, filter: filter, sums: sums)
        }
    }

    /// Pixels whose window has no tap inside the input: sums 0, or, finished, the bias clamped
    /// as `DepthwiseFloatEpilogue` clamps a sum.
    private static func writeEmptyWindows(pixels: Range<Int>, channels c: Int, sums: UnsafeMutablePointer<Float>,
                                          finish: (bias: UnsafePointer<Float>?, min: Float, max: Float)?) {
        for ox in pixels {
            for ch in 0..<c {
                guard let finish else { sums[ox * c + ch] = 0; continue }
                sums[ox * c + ch] = min(max(0 + (finish.bias?[ch] ?? 0), finish.min), finish.max)
            }
        }
    }
}
#endif
