/// The drivers of the generated integer kernels (`QuantizedGEMM8x16AVX2`,
/// `QuantizedGEMM8x32AVX512VNNI`), kept out of line and non-generic: the sums-only calls behind
/// `QuantizedGEMM.accumulate`, and the tile loop of the variants that requantize in registers.
extension QuantizedGEMM {
    /// The generated ymm sums-only kernel `sums` on one tile (see `accumulate`).
    /// - Precondition: `taps ≥ 1`, `words ≥ 1`, `1 ≤ rows ≤ 8`; `table` holds `taps · 8` input
    ///   runs (pointers, or offsets from its base), `acc` room for 8 rows of 32 sums. Checked under `LITEVISION_INTERNAL_CHECKS` as
    ///   far as the arguments show it (`GeneratedIntegerTileArguments.violation`, once per call).
    @inline(never)
    static func generated8x16Sums(_ sums: QuantizedGEMM8x16AVX2.Function, _ table: TileTable,
                                  taps: Int, words: Int, weights: UnsafeRawPointer, rows: Int, filterOffset: Int32,
                                  into acc: UnsafeMutablePointer<Int32>) {
        var arguments = GeneratedIntegerTileArguments(table: table.entries, taps: taps, words: words,
                                                      weights: weights, rows: rows)
        arguments.tableBase = table.base
        arguments.accumulators = UnsafeMutableRawPointer(acc)
        arguments.filterOffset = filterOffset
        KernelPrecondition.holds(arguments.violation(requantizing: false, panels: 1))
        withUnsafePointer(to: &arguments) { sums(UnsafeRawPointer($0)) }
    }

    /// The generated AVX512-VNNI sums-only kernel on one tile (see `accumulate`): two panels
    /// when `panelsLeft ≥ 2`, else one. Returns the number of panels done.
    /// - Precondition: `taps ≥ 1`, `words ≥ 1`, `panelsLeft ≥ 1`; with two panels,
    ///   `panelStride` (32-bit words) at least one panel (`16 · taps · words`); `table` holds
    ///   `taps · 8` input runs (pointers, or offsets from its base), `acc` room for 8 rows of 32 sums. Checked under
    ///   `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it
    ///   (`GeneratedIntegerTileArguments.violation`, once per call).
    @inline(never)
    static func generatedVNNISums(_ kernels: VNNIQuantizedGEMMKernels, layout: QuantizedGEMMLayout,
                                  _ table: TileTable, taps: Int, words: Int,
                                  weights: UnsafeRawPointer, panelStride: Int, panelsLeft: Int,
                                  into acc: UnsafeMutablePointer<Int32>) -> Int {
        let panels = min(2, panelsLeft)
        var arguments = GeneratedIntegerTileArguments(table: table.entries, taps: taps, words: words,
                                                      weights: weights, rows: tilePixels)
        arguments.tableBase = table.base
        arguments.accumulators = UnsafeMutableRawPointer(acc)
        arguments.panelStride = panelStride * 4
        KernelPrecondition.holds(arguments.violation(requantizing: false, panels: panels))
        withUnsafePointer(to: &arguments) { kernels.kernel(layout, panels: panels, output: .accumulators)(UnsafeRawPointer($0)) }
        return panels
    }

    /// Whether output pixel `p` of `g` reads input pixel `p` and nothing else (1×1, stride 1,
    /// unpadded, the input's size): a tile then reads exactly the input rows of its own pixels.
    public static func readsOwnPixelsOnly(_ g: ConvolutionGeometry) -> Bool {
        g.filterHeight == 1 && g.filterWidth == 1 && g.strideHeight == 1 && g.strideWidth == 1 && g.padTop == 0
            && g.padLeft == 0 && g.inputHeight == g.outputHeight && g.inputWidth == g.outputWidth
    }

    /// The input pixel index (over all batches) of the window origin of the tile at `origin`
    /// (`rows` pixels) when the tile is 8 pixels in one output row (for a layer that reads its
    /// own pixels only, any 8 consecutive pixels) whose windows lie inside the input, so pixel
    /// `r`'s window starts `r · strideWidth` input pixels after it. Nil otherwise.
    @inline(__always)
    static func interiorWindowOrigin(_ g: ConvolutionGeometry, origin: GEMMTileOrigin, rows: Int) -> Int? {
        let n = tilePixels
        guard rows == n else { return nil }
        if readsOwnPixelsOnly(g) { return origin.pixel }
        guard origin.column + n <= g.outputWidth else { return nil }
        let y0 = origin.row * g.strideHeight - g.padTop, x0 = origin.column * g.strideWidth - g.padLeft
        guard y0 >= 0, y0 + (g.filterHeight - 1) * g.dilationHeight < g.inputHeight, x0 >= 0,
              x0 + (n - 1) * g.strideWidth + (g.filterWidth - 1) * g.dilationWidth < g.inputWidth else { return nil }
        return (origin.batch * g.inputHeight + y0) * g.inputWidth + x0
    }

    /// Fills `pointers[t·8 + r]` with output pixel `origin.pixel + r`'s input run for tap `t`
    /// (`pixelBytes` per input pixel; the padding pixel after the last batch for taps outside the
    /// input); rows past `rows` repeat the last pixel.
    @inline(__always)
    static func fillTable(_ g: ConvolutionGeometry, origin: GEMMTileOrigin, rows: Int, input: UnsafeRawPointer,
                          pixelBytes: Int, into pointers: UnsafeMutablePointer<UnsafeRawPointer>) {
        let n = tilePixels, first = origin.pixel
        if readsOwnPixelsOnly(g) {
            for r in 0..<n { pointers[r] = input + (first + min(r, rows - 1)) * pixelBytes }
            return
        }
        let imageSize = g.inputHeight * g.inputWidth * pixelBytes
        let padding = input + g.batches * imageSize
        // A full tile inside one output row (most tiles of a large image): tap t of pixel r is
        // tap t of pixel 0 plus r horizontal strides, 8 pointers per vector store where the tap's
        // 8 input pixels lie inside the input, a padding run where its input row is outside, and
        // per-pixel choices only for the taps that cross the left or right edge.
        let ox = origin.column
        if rows == n, ox + n <= g.outputWidth {
            let y0 = origin.row * g.strideHeight - g.padTop, x0 = ox * g.strideWidth - g.padLeft
            let image = Int(bitPattern: input) &+ origin.batch &* imageSize
            let steps = SIMD8<Int>(0, 1, 2, 3, 4, 5, 6, 7) &* (g.strideWidth &* pixelBytes)
            let paddingRun = SIMD8<Int>(repeating: Int(bitPattern: padding))
            let table = UnsafeMutableRawPointer(pointers)
            for fy in 0..<g.filterHeight {
                let iy = y0 &+ fy &* g.dilationHeight
                let rowInside = iy >= 0 && iy < g.inputHeight
                let row = image &+ iy &* g.inputWidth &* pixelBytes
                for fx in 0..<g.filterWidth {
                    let tapBytes = (fy &* g.filterWidth &+ fx) &* n &* MemoryLayout<Int>.stride
                    let ix = x0 &+ fx &* g.dilationWidth
                    if !rowInside {
                        table.storeBytes(of: paddingRun, toByteOffset: tapBytes, as: SIMD8<Int>.self)
                    } else if ix >= 0, ix &+ (n - 1) &* g.strideWidth < g.inputWidth {
                        table.storeBytes(of: SIMD8<Int>(repeating: row &+ ix &* pixelBytes) &+ steps,
                                         toByteOffset: tapBytes, as: SIMD8<Int>.self)
                    } else {
                        for r in 0..<n {
                            let x = ix &+ r &* g.strideWidth
                            let inside = x >= 0 && x < g.inputWidth
                            table.storeBytes(of: inside ? row &+ x &* pixelBytes : Int(bitPattern: padding),
                                             toByteOffset: tapBytes &+ r &* MemoryLayout<Int>.stride, as: Int.self)
                        }
                    }
                }
            }
            return
        }
        forEachPixel(g, origin: origin, rows: rows) { r, b, y0, x0 in
            let image = input + b * imageSize
            for fy in 0..<g.filterHeight {
                let iy = y0 + fy * g.dilationHeight
                let rowInside = iy >= 0 && iy < g.inputHeight
                for fx in 0..<g.filterWidth {
                    let ix = x0 + fx * g.dilationWidth
                    pointers[(fy * g.filterWidth + fx) * n + r] =
                        rowInside && ix >= 0 && ix < g.inputWidth ? image + (iy * g.inputWidth + ix) * pixelBytes : padding
                }
            }
        }
    }

    /// The run table of the tile at `origin` (`rows` pixels): the layer's shared `offsets` from the
    /// tile's window origin where they describe the tile (`GEMMOffsetTable.base`), else `pointers`,
    /// filled for this tile (`fillTable`); always the pointers when `offsets` is nil (kernels that
    /// read pointers only).
    @inline(__always)
    static func tileTable(_ g: ConvolutionGeometry, origin: GEMMTileOrigin, rows: Int, input: UnsafeRawPointer, pixelBytes: Int,
                          offsets: UnsafePointer<Int>?, pointers: UnsafeMutablePointer<UnsafeRawPointer>) -> TileTable {
        if let offsets, let base = GEMMOffsetTable.base(g, origin: origin, rows: rows, input: input, pixelBytes: pixelBytes) {
            return TileTable(entries: UnsafeRawPointer(offsets), base: base)
        }
        fillTable(g, origin: origin, rows: rows, input: input, pixelBytes: pixelBytes, into: pointers)
        return TileTable(entries: UnsafeRawPointer(pointers), base: 0)
    }

    /// `terms[r]` = the window-sum term of output pixel `origin.pixel + r` (uint8-weight quads), `r < rows`.
    /// A tile whose windows lie inside the input (`interiorWindowOrigin`) sums its 8 pixels'
    /// windows together, a vector of pixel sums per tap, without bounds checks.
    @inline(__always)
    static func windowSumTerms(_ g: ConvolutionGeometry, origin: GEMMTileOrigin, rows: Int,
                               _ windowSums: QuantizedGEMMWindowSums, into terms: UnsafeMutablePointer<Int32>) {
        if let first = interiorWindowOrigin(g, origin: origin, rows: rows) {
            var sums = SIMD8<Int32>()
            for fy in 0..<g.filterHeight {
                for fx in 0..<g.filterWidth {
                    let tap = windowSums.pixelSums + (first &+ fy &* g.dilationHeight &* g.inputWidth &+ fx &* g.dilationWidth)
                    if g.strideWidth == 1 {
                        sums &+= UnsafeRawPointer(tap).loadUnaligned(as: SIMD8<Int32>.self)
                    } else {
                        for r in 0..<8 { sums[r] = sums[r] &+ tap[r &* g.strideWidth] }
                    }
                }
            }
            UnsafeMutableRawPointer(terms).storeBytes(of: sums &* windowSums.scale, as: SIMD8<Int32>.self)
            return
        }
        forEachPixel(g, origin: origin, rows: rows) { r, b, y0, x0 in
            guard r < rows else { return }
            var sum: Int32 = 0
            for fy in 0..<g.filterHeight {
                let iy = y0 + fy * g.dilationHeight
                for fx in 0..<g.filterWidth {
                    let ix = x0 + fx * g.dilationWidth
                    let inside = iy >= 0 && iy < g.inputHeight && ix >= 0 && ix < g.inputWidth
                    sum = sum &+ (inside ? windowSums.pixelSums[(b * g.inputHeight + iy) * g.inputWidth + ix] : windowSums.padding)
                }
            }
            terms[r] = windowSums.scale &* sum
        }
    }

    /// Calls `body(r, batch, y0, x0)` for the 8 rows of the tile starting at `origin`: the batch
    /// and the top-left input coordinate of the pixel's window (rows past `rows` repeat the last
    /// pixel), stepping from pixel to pixel.
    @inline(__always)
    static func forEachPixel(_ g: ConvolutionGeometry, origin: GEMMTileOrigin, rows: Int, _ body: (Int, Int, Int, Int) -> Void) {
        var pixel = origin
        for r in 0..<tilePixels {
            body(r, pixel.batch, pixel.row * g.strideHeight - g.padTop, pixel.column * g.strideWidth - g.padLeft)
            if r + 1 < rows { pixel.advance(g, by: 1) }
        }
    }
}

/// A generated kernel that requantizes in registers, with the requantizer whose tables it reads:
/// `QuantizedGEMM8x32AVX512VNNI` `.bytes` (int16 pairs and quads; a partial last panel masked), else
/// `QuantizedGEMM8x16AVX2` `.uint8` / `.int8` (the pair layouts, and the quads with AVX-VNNI; a
/// last panel of 8 channels stores half the bytes, other partial last panels take the
/// generated sums and the requantizer's scalar path).
struct FusedRequantization {
    enum Kernels {
        /// The requantizing VNNI kernels of the layout for one panel and for two, on 8 pixels and on 1.
        case vnni(onePanel: QuantizedGEMM8x32AVX512VNNI.Function, twoPanels: QuantizedGEMM8x32AVX512VNNI.Function,
                  onePixel: (onePanel: QuantizedGEMM8x32AVX512VNNI.Function, twoPanels: QuantizedGEMM8x32AVX512VNNI.Function))
        case ymm(requantizing: QuantizedGEMM8x16AVX2.Function, sums: QuantizedGEMM8x16AVX2.Function)
    }
    let kernels: Kernels
    let requantizer: ConvRequantizer

    /// The fused kernel for `requantization` (from `ConvIntegerEpilogue.generatedRequantization`)
    /// and `layout`, or nil where there is none.
    @inline(never)
    init?(_ requantization: (requantizer: ConvRequantizer, signed: Bool)?, layout: QuantizedGEMMLayout) {
        guard let requantization, let generated = GeneratedKernels.current else { return nil }
        let unsigned = requantization.requantizer.unsignedRounding     // the AVX2 form's terms
        if let vnni = generated.vnniGEMM, !unsigned, !layout.widensByteWeights {
            kernels = .vnni(onePanel: vnni.kernel(layout, panels: 1, output: .bytes),
                            twoPanels: vnni.kernel(layout, panels: 2, output: .bytes),
                            onePixel: (vnni.kernel(layout, panels: 1, output: .bytes, pixelRows: 1),
                                       vnni.kernel(layout, panels: 2, output: .bytes, pixelRows: 1)))
        } else if unsigned, let ymm = generated.gemm8x16,
                  let kernel = ymm.kernel(layout, requantization.signed ? .int8 : .uint8),
                  let sums = ymm.kernel(layout, .accumulators) {
            kernels = .ymm(requantizing: kernel, sums: sums)
        } else {
            return nil
        }
        requantizer = requantization.requantizer
    }

    /// Tiles `tiles` of `g` (as `QuantizedGEMM.run`, with its workspace), bias optional.
    @inline(never)
    func run(_ g: ConvolutionGeometry, layout: QuantizedGEMMLayout, input: UnsafeRawPointer, packedFilter: UnsafeRawPointer,
             bias: UnsafePointer<Int32>?, windowSums: QuantizedGEMMWindowSums?, filterOffset: Int32,
             output: UnsafeMutableRawPointer, tiles: Range<Int>, workspace: KernelWorkspace?) {
        let n = QuantizedGEMM.tilePixels, panelWidth = Int16PairPacking.panelWidth
        let pixels = g.batches * g.outputHeight * g.outputWidth
        let taps = g.filterHeight * g.filterWidth
        let pixelBytes = QuantizedGEMM.pixelBytes(layout, depth: g.inputDepth)
        let words = pixelBytes / 4
        let panelStride = taps * words * panelWidth * layout.weightWordBytes
        let p = requantizer.parameters
        KernelWorkspace.using(workspace, orTemporary: QuantizedGEMM.workspaceBytes(g)) { workspace in
            let pointers = workspace.take(UnsafeRawPointer.self, count: taps * n)
            let acc = workspace.take(Int32.self, count: QuantizedGEMM.accumulatorCount)
            // Interior tiles read the shared offset table; the ymm sums of a partial last panel
            // (below) take a table of pointers, so such layers fill every tile's own.
            let partialYMMPanel: Bool
            if case .ymm = kernels { partialYMMPanel = ![0, panelWidth / 2].contains(g.outputDepth % panelWidth) } else {
                partialYMMPanel = false
            }
            let offsets = workspace.take(Int.self, count: taps * n)
            GEMMOffsetTable.fill(g, pixelBytes: pixelBytes, into: offsets)
            let zeroBias = acc + n * 2 * panelWidth, rowTerms = zeroBias + 2 * panelWidth
            for l in 0..<(2 * panelWidth + n) { zeroBias[l] = 0 }
            // The ymm kernels read one panel (16) of `zeroBias`: the second holds the bias of a
            // last panel of 8 channels, padded with zeros.
            let halfPanelBias = zeroBias + panelWidth
            if case .ymm = kernels, let bias, g.outputDepth % panelWidth == panelWidth / 2 {
                for l in 0..<(panelWidth / 2) { halfPanelBias[l] = bias[g.outputDepth - panelWidth / 2 + l] }
            }
            var arguments = GeneratedIntegerTileArguments(table: UnsafeRawPointer(pointers), taps: taps, words: words,
                                                          weights: packedFilter, rows: n)
            arguments.outputStride = g.outputDepth
            arguments.activationMin = p.activationMin
            arguments.activationMax = p.activationMax
            arguments.panelStride = panelStride
            arguments.rowTerms = UnsafeRawPointer(rowTerms)
            arguments.filterOffset = filterOffset
            /// Points the arguments at the panels from channel `n0` on.
            func select(channel n0: Int, first: Int) {
                arguments.weights = packedFilter + n0 / panelWidth * panelStride
                arguments.output = output + (first * g.outputDepth + n0)
                arguments.bias = UnsafeRawPointer(bias.map { $0 + n0 } ?? UnsafePointer(zeroBias))
                arguments.multipliers = UnsafeRawPointer(requantizer.multipliers + n0)
                arguments.roundingTerms = requantizer.roundingTerms(atChannel: n0)
            }
            var origin = GEMMTileOrigin(g, pixel: tiles.lowerBound * n)
            for tile in tiles {
                if tile > tiles.lowerBound { origin.advance(g, by: n) }
                let first = origin.pixel
                let rows = min(n, pixels - first)
                let table = QuantizedGEMM.tileTable(g, origin: origin, rows: rows, input: input, pixelBytes: pixelBytes,
                                                    offsets: partialYMMPanel ? nil : UnsafePointer(offsets), pointers: pointers)
                (arguments.table, arguments.tableBase) = (table.entries, table.base)
                if let windowSums { QuantizedGEMM.windowSumTerms(g, origin: origin, rows: rows, windowSums, into: rowTerms) }
                arguments.rows = rows
                switch kernels {
                case .vnni(let eightPixelsOnePanel, let eightPixelsTwoPanels, let onePixel):
                    let (onePanel, twoPanels) = rows == 1 ? onePixel : (eightPixelsOnePanel, eightPixelsTwoPanels)
                    var n0 = 0
                    while n0 < g.outputDepth {
                        let panels = g.outputDepth - n0 > panelWidth ? 2 : 1
                        /// The opmask of the channels of the panel at `c` that exist.
                        func lanes(_ c: Int) -> Int32 { Int32((1 << min(panelWidth, max(0, g.outputDepth - c))) - 1) }
                        arguments.laneMasks = (lanes(n0), lanes(n0 + panelWidth))
                        select(channel: n0, first: first)
                        KernelPrecondition.holds(arguments.violation(requantizing: true, panels: panels))
                        withUnsafePointer(to: &arguments) { (panels == 2 ? twoPanels : onePanel)(UnsafeRawPointer($0)) }
                        n0 += panels * panelWidth
                    }
                case .ymm(let kernel, let sumsKernel):
                    let fullPanels = g.outputDepth / panelWidth
                    for panel in 0..<fullPanels {
                        select(channel: panel * panelWidth, first: first)
                        KernelPrecondition.holds(arguments.violation(requantizing: true, panels: 1))
                        withUnsafePointer(to: &arguments) { kernel(UnsafeRawPointer($0)) }
                    }
                    let n0 = fullPanels * panelWidth
                    guard n0 < g.outputDepth else { continue }
                    if g.outputDepth - n0 == panelWidth / 2 {
                        // A last panel of 8 channels: the kernel stores their bytes only, with the
                        // bias padded to the 16 lanes it reads.
                        select(channel: n0, first: first)
                        arguments.bias = UnsafeRawPointer(halfPanelBias)
                        arguments.laneMasks.0 = 0xFF
                        KernelPrecondition.holds(arguments.violation(requantizing: true, panels: 1))
                        withUnsafePointer(to: &arguments) { kernel(UnsafeRawPointer($0)) }
                        arguments.laneMasks.0 = 0xFFFF
                        continue
                    }
                    QuantizedGEMM.generated8x16Sums(sumsKernel, QuantizedGEMM.TileTable(entries: UnsafeRawPointer(pointers), base: 0),
                                                    taps: taps, words: words,
                                                    weights: packedFilter + fullPanels * panelStride, rows: rows,
                                                    filterOffset: filterOffset, into: acc)
                    let lanes = g.outputDepth - n0
                    for r in 0..<rows {
                        var sums = UnsafeRawPointer(acc + r * 2 * panelWidth).loadUnaligned(as: SIMD16<Int32>.self)
                        if windowSums != nil { sums &+= SIMD16(repeating: rowTerms[r]) }
                        if let bias { for l in 0..<lanes { sums[l] = sums[l] &+ bias[n0 + l] } }
                        let dst = output + ((first + r) * g.outputDepth + n0)
                        // Results are clamped into the 8-bit range: their low byte is the same for UInt8 and Int8.
                        requantizer.storeScalar(sums, channel: n0, lanes: lanes, to: dst.assumingMemoryBound(to: UInt8.self))
                    }
                }
            }
        }
    }
}
