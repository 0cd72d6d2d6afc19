extension Conv2DOptimized {
    /// Input bytes one block of tiles should read at most, so that the block stays in the L2
    /// cache while every weight panel (read from L1) passes over it.
    static let floatBlockInputBytes = 192 * 1024

    /// The indirect float convolution driver for microkernel `K`. Tiles of `K.rows` consecutive
    /// output pixels are processed in blocks: for every tile of a block it fills a table of
    /// input-run pointers (one per pixel and filter tap, the zero run where a tap falls into the
    /// padding), then runs `K` over every weight panel and, inside, every tile of the block, so a
    /// panel is loaded once per block. Without horizontal dilation a filter row's taps lie side
    /// by side in the input, so a tile whose every window lies wholly inside the input takes one
    /// run of `filterWidth · inputDepth` floats per filter row instead of one per tap: the packed
    /// weights are in the same (row, column, channel) order either way, and the kernel adds the
    /// products in the same order, so results are identical; it only loads fewer pointers (a
    /// 3-channel stem: a third of the table and three times the steps per tap). On a 1 × 1
    /// layer a kernel that `runsPointwiseTiles` takes a block's whole tiles in one call, without
    /// a table. `packedFilter` must be packed with `K.panelWidth`; `tiles` counts `K.rows`-pixel
    /// tiles; a `residual` needs a generated `K`, and with fewer channels than the output,
    /// `zeros` of at least a panel (its zero row, `FloatConvResidual.zeroRowFloats`). The run
    /// table, the taps per tile and the room for a partial panel come from `workspace`,
    /// `floatIndirectWorkspaceBytes` bytes for this call alone (the calling thread's, see
    /// ``KernelWorkspace``), or from a temporary without one.
    static func floatIndirect<K: FloatConvTileKernel>(_ kernel: K.Type, _ g: ConvolutionGeometry,
                                                      activationMin: Float, activationMax: Float,
                                                      input: UnsafePointer<Float>, packedFilter: UnsafePointer<Float>,
                                                      bias: UnsafePointer<Float>?, zeros: UnsafePointer<Float>,
                                                      output: UnsafeMutablePointer<Float>, tiles: Range<Int>,
                                                      residual: FloatConvResidual? = nil,
                                                      workspace: KernelWorkspace? = nil) {
        let mr = K.rows, nr = K.panelWidth
        let pixels = g.batches * g.outputHeight * g.outputWidth
        let cin = g.inputDepth, cout = g.outputDepth
        let taps = g.filterHeight * g.filterWidth
        let depth = taps * cin
        let panels = (cout + nr - 1) / nr
        guard pixels > 0, cin > 0, !tiles.isEmpty else { return }
        let block = floatBlockTiles(rows: mr, g, tileCount: tiles.count)
        let tableSize = taps * mr
        // A pointwise layer (1×1, stride 1, no padding) reads output pixel p's input at pixel p.
        let pointwise = taps == 1 && g.strideHeight == 1 && g.strideWidth == 1 && g.padTop == 0 && g.padLeft == 0
            && g.inputHeight == g.outputHeight && g.inputWidth == g.outputWidth
        let mergesRows = !pointwise && g.filterWidth > 1 && g.dilationWidth == 1
        KernelWorkspace.using(workspace, orTemporary: floatIndirectWorkspaceBytes(rows: mr, panelWidth: nr, g)) { workspace in
            let runs = workspace.take(UnsafePointer<Float>.self, count: block * tableSize)
            let tileTaps = workspace.take(Int.self, count: block)
            let partialPanel = workspace.take(Float.self, count: partialPanelFloatCount(rows: mr, panelWidth: nr))
            if pointwise { tileTaps.initialize(repeating: 1, count: block) }
            var blockStart = tiles.lowerBound
            while blockStart < tiles.upperBound {
                let blockEnd = min(tiles.upperBound, blockStart + block)
                let wholeTiles = pointwise && K.runsPointwiseTiles ? max(0, min(blockEnd, pixels / mr) - blockStart) : 0
                for tile in (blockStart + wholeTiles)..<blockEnd {
                    let first = tile * mr
                    let count = min(mr, pixels - first)
                    let tileRuns = runs + (tile - blockStart) * tableSize
                    if pointwise {
                        // Rows past the output repeat the last pixel; they are computed, not stored.
                        for r in 0..<mr { tileRuns[r] = input + (first + Swift.min(r, count - 1)) * cin }
                        continue
                    }
                    if mergesRows && fillRowRuns(tileRuns, first: first, count: count, g, input: input, rows: mr) {
                        tileTaps[tile - blockStart] = g.filterHeight
                        continue
                    }
                    tileTaps[tile - blockStart] = taps
                    var cursor = OutputPixelCursor(pixel: first, g)
                    for r in 0..<mr {
                        // Rows past the output repeat the last pixel; they are computed, not stored.
                        if r > 0 && r < count { cursor.advance() }
                        let y0 = cursor.row * g.strideHeight - g.padTop, x0 = cursor.column * g.strideWidth - g.padLeft
                        let batchBase = input + cursor.batch * g.inputHeight * g.inputWidth * cin
                        var t = r
                        for fy in 0..<g.filterHeight {
                            let iy = y0 + fy * g.dilationHeight
                            let rowInside = iy >= 0 && iy < g.inputHeight
                            for fx in 0..<g.filterWidth {
                                let ix = x0 + fx * g.dilationWidth
                                tileRuns[t] = rowInside && ix >= 0 && ix < g.inputWidth
                                    ? batchBase + (iy * g.inputWidth + ix) * cin : zeros
                                t += mr
                            }
                        }
                    }
                }
                for panel in 0..<panels {
                    let n0 = panel * nr
                    var epilogue = FloatConvEpilogue(bias: bias.map { $0 + n0 }, lanes: min(nr, cout - n0),
                                                     activationMin: activationMin, activationMax: activationMax,
                                                     residualMin: residual?.min ?? -.infinity,
                                                     residualMax: residual?.max ?? .infinity,
                                                     partialPanel: partialPanel)
                    let weights = packedFilter + panel * depth * nr
                    /// The fused ADD's rows from the tile at pixel `first` on, in this panel.
                    func residualRows(_ first: Int) {
                        guard let rows = residual?.rows(pixel: first, channel: n0, zeros: zeros) else { return }
                        (epilogue.residual, epilogue.residualStride) = (rows.start, rows.stride)
                    }
                    // Whole 1 × 1 tiles in one call where the kernel loops over them itself.
                    if wholeTiles > 0 {
                        residualRows(blockStart * mr)
                        K.pointwiseTiles(wholeTiles, input: input + blockStart * mr * cin, inputDepth: cin, weights: weights,
                                         epilogue: epilogue, output: output + blockStart * mr * cout + n0, rowStride: cout)
                    }
                    for tile in (blockStart + wholeTiles)..<blockEnd {
                        let first = tile * mr
                        let tileTap = tileTaps[tile - blockStart]
                        residualRows(first)
                        K.tile(runs: runs + (tile - blockStart) * tableSize, taps: tileTap,
                               inputDepth: tileTap == taps ? cin : depth / tileTap,
                               weights: weights, epilogue: epilogue, output: output + first * cout + n0,
                               rowStride: cout, count: min(mr, pixels - first))
                    }
                }
                blockStart = blockEnd
            }
        }
    }

    /// Tiles of `rows` pixels per block of `floatIndirect` on `g` for a call of `tileCount`
    /// tiles: at most 64, and as many as keep the block's input within `floatBlockInputBytes`.
    static func floatBlockTiles(rows mr: Int, _ g: ConvolutionGeometry, tileCount: Int) -> Int {
        max(1, min(64, tileCount, floatBlockInputBytes / max(1, mr * g.filterHeight * g.filterWidth * g.inputDepth * 4)))
    }

    /// Bytes of workspace a `floatIndirect` call with a `rows` × `panelWidth` kernel on `g`
    /// takes, whatever its tiles: the run table and taps of the largest block, and room for one
    /// partial panel (`FloatConvEpilogue.partialPanel`).
    static func floatIndirectWorkspaceBytes(rows mr: Int, panelWidth nr: Int, _ g: ConvolutionGeometry) -> Int {
        let block = floatBlockTiles(rows: mr, g, tileCount: .max)
        return KernelWorkspace.bytes(UnsafePointer<Float>.self, count: block * g.filterHeight * g.filterWidth * mr)
            + KernelWorkspace.bytes(Int.self, count: block)
            + KernelWorkspace.bytes(Float.self, count: partialPanelFloatCount(rows: mr, panelWidth: nr))
    }

    /// Fills a tile's table with one run per filter row (`filterHeight` rows of `K.rows`
    /// pointers, the layout of the per-tap table's first rows) when the windows of all its
    /// pixels, `first ..< first + rows` with the rows past `count` repeating the last pixel, lie
    /// wholly inside the input; returns false, having written nothing useful, otherwise.
    /// Precondition: `dilationWidth == 1`, so each filter row is `filterWidth · inputDepth`
    /// consecutive floats.
    @inline(__always)
    private static func fillRowRuns(_ tileRuns: UnsafeMutablePointer<UnsafePointer<Float>>, first: Int, count: Int,
                                    _ g: ConvolutionGeometry, input: UnsafePointer<Float>, rows mr: Int) -> Bool {
        let cin = g.inputDepth
        let lastColumn = (g.filterWidth - 1), lastRow = (g.filterHeight - 1) * g.dilationHeight
        let rowStep = g.dilationHeight * g.inputWidth * cin
        var cursor = OutputPixelCursor(pixel: first, g)
        // A whole tile inside one output row (most tiles of a stem): its windows are
        // `strideWidth` pixels apart, so it takes a bounds check per edge, not per pixel.
        if count == mr, cursor.column + mr <= g.outputWidth {
            let y0 = cursor.row * g.strideHeight - g.padTop, x0 = cursor.column * g.strideWidth - g.padLeft
            guard y0 >= 0, y0 + lastRow < g.inputHeight, x0 >= 0,
                  x0 + (mr - 1) * g.strideWidth + lastColumn < g.inputWidth else { return false }
            let pixelStep = g.strideWidth &* cin
            var run = input + ((cursor.batch * g.inputHeight + y0) * g.inputWidth + x0) * cin
            var t = 0
            for _ in 0..<g.filterHeight {
                for r in 0..<mr { tileRuns[t &+ r] = UnsafePointer(run + r &* pixelStep) }
                run += rowStep
                t &+= mr
            }
            return true
        }
        for r in 0..<mr {
            if r > 0 && r < count { cursor.advance() }
            let y0 = cursor.row * g.strideHeight - g.padTop, x0 = cursor.column * g.strideWidth - g.padLeft
            guard y0 >= 0, y0 + lastRow < g.inputHeight, x0 >= 0, x0 + lastColumn < g.inputWidth else { return false }
            var run = input + ((cursor.batch * g.inputHeight + y0) * g.inputWidth + x0) * cin
            var t = r
            for _ in 0..<g.filterHeight {
                tileRuns[t] = UnsafePointer(run)
                run += rowStep
                t += mr
            }
        }
        return true
    }
}
