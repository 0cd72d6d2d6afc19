import MachineCode

/// The microkernel family a `QuantizedGEMM` call runs. All produce identical (exact) sums.
enum QuantizedGEMMKernel: Sendable, CaseIterable {
    /// Generated at run time: 8 pixels × 32 channels for AVX512-VNNI (`QuantizedGEMM8x32AVX512VNNI`,
    /// every layout), else 8 pixels × 16 channels in ymm (`QuantizedGEMM8x16AVX2`: every layout
    /// with AVX-VNNI; the pair layouts only with AVX2, the other layouts falling back to `portable`).
    case generated
    /// 8 pixels × 32 channels with `vpdpwssd` (builds with `LITEVISION_AVX512`).
    case avx512
    /// 4 pixels × 8 channels with `pmaddwd` (any x86-64 build).
    case sse2
    /// 4 pixels × 16 channels in portable Swift SIMD (every architecture).
    case portable

    /// The fastest kernel this build compiles.
    static let best: QuantizedGEMMKernel = {
        #if LITEVISION_AVX512
        return .avx512
        #elseif arch(x86_64)
        return GeneratedKernels.current?.gemm8x16 != nil ? .generated : .sse2
        #else
        return .portable
        #endif
    }()

    /// The kernels this build compiles or generated (the others fall back to `portable`).
    static var compiled: [QuantizedGEMMKernel] {
        let generated: [QuantizedGEMMKernel] = GeneratedKernels.current?.gemm8x16 != nil ? [.generated] : []
        #if LITEVISION_AVX512
        return generated + [.avx512, .sse2, .portable]
        #elseif arch(x86_64)
        return generated + [.sse2, .portable]
        #else
        return [.portable]
        #endif
    }
}

/// The operand layout of a `QuantizedGEMM` call: both are 32-bit words per input-channel group.
public enum QuantizedGEMMLayout: String, Sendable {
    /// `Int16PairPacking`: 2 channels per word, `x + inputOffset` against `w + filterOffset`.
    case int16Pairs
    /// `Int8QuadPacking`: 4 channels per word, unsigned `x + 128` against signed int8 weights
    /// (the zero-point correction folded into the bias).
    case uint8Quads
    /// `Int8QuadPacking` for uint8 weights: 4 channels per word, uint8 weights against signed
    /// `x − 128` activations; the weight zero point's term needs each pixel's window sum
    /// (`QuantizedGEMMWindowSums`).
    case uint8WeightQuads
    /// `int16Pairs` whose weights stay int8 bytes in the pairs' order (`Int16PairPacking.packBytesAligned`),
    /// sign-extended by the kernel as it loads them: half the memory of `int16Pairs`. The filter
    /// offset must be 0 (symmetric int8 weights, hybrid).
    case int8WeightPairs
    /// `int16Pairs` whose weights stay uint8 bytes in the pairs' order, zero-extended by the
    /// kernel as it loads them, the filter offset added in 16-bit lanes.
    case uint8WeightPairs

    /// Whether the activations are int16 pairs (`Int16PairPacking.convert`), else byte quads.
    public var pairsActivations: Bool { self == .int16Pairs || self == .int8WeightPairs || self == .uint8WeightPairs }

    /// Whether the weights are bytes the kernel widens to int16 pairs.
    public var widensByteWeights: Bool { self == .int8WeightPairs || self == .uint8WeightPairs }

    /// Bytes of packed weights per 32-bit input word and output channel.
    public var weightWordBytes: Int { widensByteWeights ? 2 : 4 }
}

/// Per-pixel window sums for the `uint8WeightQuads` layout: output pixel `p` gets
/// `scale · Σ_taps s` added, where `s` is `pixelSums[input pixel]` (the sum of the pixel's
/// `x − 128`) for taps inside the input and `padding` for taps outside it.
public struct QuantizedGEMMWindowSums {
    /// `Σ_c (x_c − 128)` per input pixel (all batches).
    public var pixelSums: UnsafePointer<Int32>
    /// The sum of a padding pixel (`inputDepth · (zp − 128)`).
    public var padding: Int32
    /// The factor (`−` the weight zero point).
    public var scale: Int32
    /// Creates window-sum parameters.
    public init(pixelSums: UnsafePointer<Int32>, padding: Int32, scale: Int32) {
        self.pixelSums = pixelSums; self.padding = padding; self.scale = scale
    }
}

/// Quantized CONV_2D (uint8, int8, hybrid) and FULLY_CONNECTED (as a 1×1 convolution over its
/// batch rows) as an indirect, im2col-free integer GEMM: for a tile of `tilePixels` output
/// pixels, a table holds each pixel's input run for every filter tap (the trailing padding pixel
/// for taps outside the input), and a microkernel sums the products of one or two 16-channel
/// weight panels in exact Int32; the epilogue adds the bias and requantizes (or rescales, for
/// hybrid) the finished rows. Operands are in the int16-pair layout of `Int16PairPacking` (every
/// mode; its weights as int16 or as bytes, `QuantizedGEMMLayout`) or the int8-quad layout of
/// `Int8QuadPacking` (int8 with symmetric weights). Results are
/// bit-exact with `Conv2DReference` / `FullyConnectedReference`.
public enum QuantizedGEMM {
    /// Output pixels per tile (the unit the thread pool splits).
    public static let tilePixels = 8

    /// Whether this build has a native kernel for the int8-quad layout (`vpdpbusd`: AVX512-VNNI, or
    /// AVX-VNNI); elsewhere the int16-pair layout is the faster choice.
    public static var prefersInt8Quads: Bool {
        #if LITEVISION_AVX512
        return true
        #else
        return GeneratedKernels.current?.vnniGEMM != nil || GeneratedKernels.current?.gemm8x16?.avxVNNI == true
        #endif
    }

    /// The layout of an int16-pair GEMM's weights, 8-bit and `signed` or not, with `filterOffset`
    /// (the negated weight zero point), for a layer of `outputPixels` output pixels (all batches):
    /// bytes that the kernel widens (`int8WeightPairs` for signed weights with offset 0,
    /// `uint8WeightPairs` for unsigned ones) where the generated ymm kernel runs the pairs (AVX2,
    /// AVX-512 without VNNI) and the layer has at most `bytePairMaximumPixels`, else `int16Pairs`.
    public static func pairLayout(signedWeights: Bool, filterOffset: Int32, outputPixels: Int) -> QuantizedGEMMLayout {
        guard packsPairWeightsAsBytes, outputPixels <= bytePairMaximumPixels else { return .int16Pairs }
        if !signedWeights { return .uint8WeightPairs }
        return filterOffset == 0 ? .int8WeightPairs : .int16Pairs
    }

    /// The most output pixels of a layer whose pair weights stay bytes. Widening costs the same
    /// per weight and tile, so its share of a layer's time does not depend on the layer, while the
    /// memory it saves is the weights': layers of few pixels (the late, wide ones) save the most
    /// memory for the least time. 400 takes a 20 × 20 map (YOLO at 640, SSD's 19 × 19) and every
    /// FULLY_CONNECTED of up to 400 rows.
    public static let bytePairMaximumPixels = 400

    /// Whether the int16-pair GEMM keeps 8-bit weights as bytes (see `pairLayout`).
    public static var packsPairWeightsAsBytes: Bool {
        QuantizedGEMMKernel.best == .generated && GeneratedKernels.current?.vnniGEMM == nil
            && GeneratedKernels.current?.gemm8x16?.kernel(.uint8WeightPairs, .accumulators) != nil
    }

    /// Bytes per input pixel run of `layout` for `depth` input channels (whole 32-bit words).
    static func pixelBytes(_ layout: QuantizedGEMMLayout, depth: Int) -> Int {
        layout.pairsActivations ? Int16PairPacking.pairedDepth(depth) * 2 : Int8QuadPacking.quadDepth(depth)
    }

    /// Number of tiles covering the output of `g`.
    public static func tileCount(_ g: ConvolutionGeometry) -> Int {
        (g.batches * g.outputHeight * g.outputWidth + tilePixels - 1) / tilePixels
    }

    /// Every entry below takes its pointer table and accumulators from `workspace`,
    /// `workspaceBytes(g)` bytes for this call alone (the calling thread's, see
    /// ``KernelWorkspace``), or from a temporary without one.
    ///
    /// uint8 CONV_2D tiles, bit-exact with `Conv2DReference.uint8`. `input` is the paired
    /// activation buffer (`Int16PairPacking.convert`, with its trailing zero pixel), the filter
    /// in `layout` (a pair layout): packed by `Int16PairPacking.pack` with the filter offset
    /// (`int16Pairs`), or by `packBytesAligned` (`uint8WeightPairs`, the offset taken from `q`).
    /// Needs `groups == 1`.
    public static func uint8(_ g: ConvolutionGeometry, _ q: ConvRequantizer, input: UnsafePointer<Int16>,
                             packedFilter: UnsafeRawPointer, layout: QuantizedGEMMLayout = .int16Pairs,
                             bias: UnsafePointer<Int32>?, output: UnsafeMutablePointer<UInt8>, tiles: Range<Int>,
                             workspace: KernelWorkspace? = nil) {
        precondition(layout == .int16Pairs || layout == .uint8WeightPairs, "uint8 pairs: int16 or uint8-byte weights")
        run(g, layout: layout, input: UnsafeRawPointer(input), packedFilter: packedFilter, bias: bias,
            epilogue: ConvRequantizeEpilogue<UInt8>(requantizer: q), output: output, tiles: tiles,
            filterOffset: q.parameters.filterOffset, workspace: workspace)
    }

    /// int8 CONV_2D tiles, bit-exact with `Conv2DReference.int8` (see `uint8`; the byte layout is
    /// `int8WeightPairs`, for a filter offset of 0).
    public static func int8(_ g: ConvolutionGeometry, _ q: ConvRequantizer, input: UnsafePointer<Int16>,
                            packedFilter: UnsafeRawPointer, layout: QuantizedGEMMLayout = .int16Pairs,
                            bias: UnsafePointer<Int32>?, output: UnsafeMutablePointer<Int8>, tiles: Range<Int>,
                            workspace: KernelWorkspace? = nil) {
        precondition(layout == .int16Pairs || (layout == .int8WeightPairs && q.parameters.filterOffset == 0),
                     "int8 pairs: int16 weights, or int8-byte weights with filter offset 0")
        run(g, layout: layout, input: UnsafeRawPointer(input), packedFilter: packedFilter, bias: bias,
            epilogue: ConvRequantizeEpilogue<Int8>(requantizer: q), output: output, tiles: tiles, workspace: workspace)
    }

    /// int8 CONV_2D tiles over the int8-quad layout: `input` from `Int8QuadPacking.convert` (with
    /// its trailing padding pixel from `Int8QuadPacking.fillPaddingPixel`), the filter packed by
    /// `Int8QuadPacking.pack`, `bias` the layer's bias plus `Int8QuadPacking.biasCorrection`
    /// (never nil: the correction is part of it). Bit-exact with `Conv2DReference.int8`.
    public static func int8Quads(_ g: ConvolutionGeometry, _ q: ConvRequantizer, input: UnsafePointer<UInt8>,
                                 packedFilter: UnsafePointer<Int8>, bias: UnsafePointer<Int32>,
                                 output: UnsafeMutablePointer<Int8>, tiles: Range<Int>,
                            workspace: KernelWorkspace? = nil) {
        run(g, layout: .uint8Quads, input: UnsafeRawPointer(input), packedFilter: UnsafeRawPointer(packedFilter), bias: bias,
            epilogue: ConvRequantizeEpilogue<Int8>(requantizer: q), output: output, tiles: tiles, workspace: workspace)
    }

    /// uint8 CONV_2D tiles over the uint8-weight quad layout: `input` from
    /// `Int8QuadPacking.convert(_:pixels:depth:into:sums:)` (window sums in `windowSums`), the
    /// filter from `Int8QuadPacking.pack`, `bias` the layer's bias plus
    /// `Int8QuadPacking.unsignedWeightBiasCorrection`. Bit-exact with `Conv2DReference.uint8`.
    public static func uint8Quads(_ g: ConvolutionGeometry, _ q: ConvRequantizer, input: UnsafePointer<UInt8>,
                                  packedFilter: UnsafePointer<UInt8>, bias: UnsafePointer<Int32>,
                                  windowSums: QuantizedGEMMWindowSums, output: UnsafeMutablePointer<UInt8>, tiles: Range<Int>,
                            workspace: KernelWorkspace? = nil) {
        run(g, layout: .uint8WeightQuads, input: UnsafeRawPointer(input), packedFilter: UnsafeRawPointer(packedFilter),
            bias: bias, epilogue: ConvRequantizeEpilogue<UInt8>(requantizer: q), output: output, tiles: tiles,
            windowSums: windowSums, workspace: workspace)
    }

    /// Hybrid CONV_2D tiles: `input` holds each batch's on-the-fly quantized input minus its
    /// offset, with per-batch `inputScales`; the filter was packed with offset 0 (`int16Pairs`)
    /// or as bytes (`int8WeightPairs`).
    public static func hybrid(_ g: ConvolutionGeometry, _ p: HybridConvolutionParameters, input: UnsafePointer<Int16>,
                              inputScales: UnsafePointer<Float>, packedFilter: UnsafeRawPointer,
                              layout: QuantizedGEMMLayout = .int16Pairs, bias: UnsafePointer<Float>?,
                              output: UnsafeMutablePointer<Float>, tiles: Range<Int>, workspace: KernelWorkspace? = nil) {
        precondition(layout == .int16Pairs || layout == .int8WeightPairs, "hybrid pairs: int16 or int8-byte weights")
        run(g, layout: layout, input: UnsafeRawPointer(input), packedFilter: packedFilter, bias: nil,
            epilogue: ConvHybridEpilogue(parameters: p, inputScales: inputScales, bias: bias),
            output: output, tiles: tiles, workspace: workspace)
    }

    /// Hybrid CONV_2D tiles over the int8-quad layout, for symmetrically quantized inputs (zero
    /// point 0): `input` the quantized rows as unsigned bytes `x + 128` (`Int8QuadPacking.convert`,
    /// padding pixel 128), the filter from `Int8QuadPacking.pack`, `correction` its
    /// `Int8QuadPacking.biasCorrection` for input offset 0. Exact as `hybrid`: the same Int32
    /// sums, rescaled by the same float steps.
    public static func hybridQuads(_ g: ConvolutionGeometry, _ p: HybridConvolutionParameters, input: UnsafePointer<UInt8>,
                                   inputScales: UnsafePointer<Float>, packedFilter: UnsafePointer<Int8>,
                                   correction: UnsafePointer<Int32>, bias: UnsafePointer<Float>?,
                                   output: UnsafeMutablePointer<Float>, tiles: Range<Int>, workspace: KernelWorkspace? = nil) {
        run(g, layout: .uint8Quads, input: UnsafeRawPointer(input), packedFilter: UnsafeRawPointer(packedFilter), bias: correction,
            epilogue: ConvHybridEpilogue(parameters: p, inputScales: inputScales, bias: bias),
            output: output, tiles: tiles, workspace: workspace)
    }

    /// Int32 values of a tile's accumulators: two panels of sums per pixel, then a per-pixel
    /// term (the window sums of the uint8-weight quads); the fused generated path keeps two
    /// panels of zero bias between the two.
    static let accumulatorCount = tilePixels * 2 * Int16PairPacking.panelWidth + 2 * Int16PairPacking.panelWidth + tilePixels
    /// Bytes from one pixel's accumulators to the next (two panels of Int32 sums).
    static let accumulatorRowBytes = 2 * Int16PairPacking.panelWidth * 4

    /// Bytes of workspace a call on `g` takes, whatever its tiles and kernel: one tile's pointer
    /// table (a pointer per pixel and filter tap), its accumulators (`accumulatorCount`) and the
    /// layer's shared offset table (`GEMMOffsetTable`, the generated kernels').
    public static func workspaceBytes(_ g: ConvolutionGeometry) -> Int {
        KernelWorkspace.bytes(UnsafeRawPointer.self, count: g.filterHeight * g.filterWidth * tilePixels)
            + KernelWorkspace.bytes(Int32.self, count: accumulatorCount)
            + KernelWorkspace.bytes(Int.self, count: g.filterHeight * g.filterWidth * tilePixels)
    }

    /// The shared tile loop: indirection table, microkernel, bias and epilogue.
    @inline(__always)
    static func run<E: ConvIntegerEpilogue>(
        _ g: ConvolutionGeometry, layout: QuantizedGEMMLayout, input: UnsafeRawPointer, packedFilter: UnsafeRawPointer,
        bias: UnsafePointer<Int32>?, epilogue: E, output: UnsafeMutablePointer<E.Output>, tiles: Range<Int>,
        windowSums: QuantizedGEMMWindowSums? = nil, filterOffset: Int32 = 0, kernel: QuantizedGEMMKernel = .best,
        workspace: KernelWorkspace? = nil
    ) {
        precondition((layout == .uint8WeightQuads) == (windowSums != nil), "window sums belong to the uint8-weight quads")
        if kernel == .generated, let fused = FusedRequantization(epilogue.generatedRequantization, layout: layout) {
            fused.run(g, layout: layout, input: input, packedFilter: packedFilter, bias: bias, windowSums: windowSums,
                      filterOffset: filterOffset, output: UnsafeMutableRawPointer(output), tiles: tiles, workspace: workspace)
            return
        }
        let pixels = g.batches * g.outputHeight * g.outputWidth
        let perImage = g.outputHeight * g.outputWidth
        let pixelBytes = pixelBytes(layout, depth: g.inputDepth)
        let words = pixelBytes / 4
        let taps = g.filterHeight * g.filterWidth
        let panelWidth = Int16PairPacking.panelWidth
        let panels = Int16PairPacking.panelCount(outputDepth: g.outputDepth)
        let panelStride = taps * words * panelWidth
        let n = tilePixels
        KernelWorkspace.using(workspace, orTemporary: workspaceBytes(g)) { workspace in
            let pointers = workspace.take(UnsafeRawPointer.self, count: taps * n)
            let acc = workspace.take(Int32.self, count: accumulatorCount)
            // Interior tiles of the generated kernels read the layer's shared tap offsets.
            let offsets = workspace.take(Int.self, count: taps * n)
            let sharesOffsets = kernel == .generated && generatedSums(layout)
            if sharesOffsets { GEMMOffsetTable.fill(g, pixelBytes: pixelBytes, into: offsets) }
            // Per-row window-sum terms (uint8WeightQuads), after the accumulators.
            let rowTerms = acc + n * 2 * panelWidth
            for r in 0..<n { rowTerms[r] = 0 }
            var origin = GEMMTileOrigin(g, pixel: tiles.lowerBound * n)
            for tile in tiles {
                if tile > tiles.lowerBound { origin.advance(g, by: n) }
                let first = origin.pixel
                let rows = min(n, pixels - first)
                let table = tileTable(g, origin: origin, rows: rows, input: input, pixelBytes: pixelBytes,
                                      offsets: sharesOffsets ? UnsafePointer(offsets) : nil, pointers: pointers)
                if let windowSums { windowSumTerms(g, origin: origin, rows: rows, windowSums, into: rowTerms) }
                var panel = 0
                while panel < panels {
                    let block = accumulate(kernel, layout: layout, table: table, taps: taps, words: words, rows: rows,
                                           weights: packedFilter + panel * panelStride * layout.weightWordBytes,
                                           panelStride: panelStride, panelsLeft: panels - panel, filterOffset: filterOffset,
                                           into: acc)
                    if windowSums == nil,
                       epilogue.storeTile(acc, bias: bias, firstPixel: first, rows: rows, pixelsPerImage: perImage,
                                          channel: panel * panelWidth, panels: block, outputDepth: g.outputDepth, to: output) {
                        panel += block
                        continue
                    }
                    for k in 0..<block {
                        let n0 = (panel + k) * panelWidth
                        let lanes = min(panelWidth, g.outputDepth - n0)
                        var b0 = SIMD16<Int32>()
                        if let bias {
                            if lanes == panelWidth {
                                b0 = UnsafeRawPointer(bias + n0).loadUnaligned(as: SIMD16<Int32>.self)
                            } else {
                                for l in 0..<lanes { b0[l] = bias[n0 + l] }
                            }
                        }
                        for r in 0..<rows {
                            let sums = UnsafeRawPointer(acc + r * 2 * panelWidth + k * panelWidth)
                                .loadUnaligned(as: SIMD16<Int32>.self)
                            let pixel = first + r
                            epilogue.store(sums &+ b0 &+ SIMD16(repeating: rowTerms[r]), pixel: pixel, batch: pixel / perImage, channel: n0, lanes: lanes,
                                           outputDepth: g.outputDepth, to: output)
                        }
                    }
                    panel += block
                }
            }
        }
    }

    /// A tile's table of input runs: `entries[t·8 + r] + base` is pixel `r`'s run for tap `t`
    /// (pointers and base 0, or the layer's shared offsets and the tile's window origin, which only
    /// the generated kernels read: `GEMMOffsetTable`).
    struct TileTable {
        let entries: UnsafeRawPointer
        let base: Int
        /// The entries as pointers (base 0).
        var pointers: UnsafePointer<UnsafeRawPointer> { entries.assumingMemoryBound(to: UnsafeRawPointer.self) }
    }

    /// Whether `accumulate` runs `layout` on a generated kernel (which reads a shared offset table).
    static func generatedSums(_ layout: QuantizedGEMMLayout) -> Bool {
        (!layout.widensByteWeights && GeneratedKernels.current?.vnniGEMM != nil)
            || GeneratedKernels.current?.gemm8x16?.kernel(layout, .accumulators) != nil
    }

    /// Runs `kernel` on one tile for the panels starting at `weights` (`panelStride` 32-bit words
    /// apart); writes the sums of pixel `r`, panel `k` to `acc[r·32 + k·16 ..< +16]`. Returns how
    /// many panels (1 or 2) it did. Kernels this build lacks fall back to the portable ones; the
    /// byte-weight pair layouts run on the generated ymm kernel or the portable one. A `table`
    /// with a base (shared offsets) needs `kernel == .generated` and `generatedSums(layout)`.
    @inline(__always)
    static func accumulate(_ kernel: QuantizedGEMMKernel, layout: QuantizedGEMMLayout,
                           table: TileTable, taps: Int, words: Int, rows: Int,
                           weights: UnsafeRawPointer, panelStride: Int, panelsLeft: Int, filterOffset: Int32 = 0,
                           into acc: UnsafeMutablePointer<Int32>) -> Int {
        let n = tilePixels
        if kernel == .generated, !layout.widensByteWeights, let vnni = GeneratedKernels.current?.vnniGEMM {
            return generatedVNNISums(vnni, layout: layout, table, taps: taps, words: words, weights: weights,
                                     panelStride: panelStride, panelsLeft: panelsLeft, into: acc)
        }
        if kernel == .generated, let sums = GeneratedKernels.current?.gemm8x16?.kernel(layout, .accumulators) {
            generated8x16Sums(sums, table, taps: taps, words: words, weights: weights, rows: rows,
                              filterOffset: filterOffset, into: acc)
            return 1
        }
        precondition(table.base == 0, "QuantizedGEMM.accumulate: shared offsets need a generated kernel")
        let pointers = table.pointers
        #if LITEVISION_AVX512
        if kernel == .avx512, !layout.widensByteWeights {
            // Each call passes its step and width literally, so inlining leaves one instruction per
            // product and the width's own accumulators, no call.
            @inline(__always) func tile(_ step: AVX512WordStep) -> Int {
                if panelsLeft >= 2 {
                    avx512Tile8(pointers, taps: taps, words: words, weights: weights, panelStride: panelStride,
                                twoPanels: true, into: acc, step)
                    return 2
                }
                avx512Tile8(pointers, taps: taps, words: words, weights: weights, panelStride: panelStride,
                            twoPanels: false, into: acc, step)
                return 1
            }
            switch layout {
            case .int16Pairs: return tile(avx512PairStep)
            case .uint8Quads: return tile(avx512QuadStep)
            case .uint8WeightQuads: return tile(avx512UnsignedWeightQuadStep)
            case .int8WeightPairs, .uint8WeightPairs: break
            }
        }
        #endif
        #if arch(x86_64)
        if kernel == .sse2, layout == .int16Pairs {
            for half in stride(from: 0, to: rows, by: 4) {
                for quarter in 0..<2 {
                    sse2PairTile4x8(pointers + half, rowStride: n, taps: taps, words: words, weights: weights + quarter * 32,
                                    into: acc + half * 32 + quarter * 8)
                }
            }
            return 1
        }
        #endif
        for half in stride(from: 0, to: rows, by: 4) {
            switch layout {
            case .int16Pairs:
                portablePairTile4x16(pointers + half, rowStride: n, taps: taps, words: words, weights: weights,
                                     into: acc + half * 32)
            case .uint8Quads:
                portableQuadTile4x16(pointers + half, rowStride: n, taps: taps, words: words, weights: weights,
                                     into: acc + half * 32, input: UInt8.self, weight: Int8.self)
            case .uint8WeightQuads:
                portableQuadTile4x16(pointers + half, rowStride: n, taps: taps, words: words, weights: weights,
                                     into: acc + half * 32, input: Int8.self, weight: UInt8.self)
            case .int8WeightPairs:
                portablePairTile4x16(pointers + half, rowStride: n, taps: taps, words: words, weights: weights,
                                         filterOffset: 0, into: acc + half * 32, weight: Int8.self)
            case .uint8WeightPairs:
                portablePairTile4x16(pointers + half, rowStride: n, taps: taps, words: words, weights: weights,
                                         filterOffset: filterOffset, into: acc + half * 32, weight: UInt8.self)
            }
        }
        return 1
    }
}

