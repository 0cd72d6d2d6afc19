extension Conv2DOptimized {
    /// Input bytes one block of tiles should read at most, so that the block stays in the L2
    /// cache while every weight panel (read from L1) passes over it.
    static let floatBlockInputBytes = 192 * 1024

    /// The indirect float convolution driver for microkernel `K`. Tiles of `K.rows` consecutive
    /// output pixels are processed in blocks: for every tile of a block it fills a table of
    /// input-run pointers (one per pixel and filter tap, the zero run where a tap falls into the
    /// padding), then runs `K` over every weight panel and, inside, every tile of the block, so a
    /// panel is loaded once per block. `packedFilter` must be packed with `K.panelWidth`;
    /// `tiles` counts `K.rows`-pixel tiles.
    static func floatIndirect<K: FloatConvTileKernel>(_ kernel: K.Type, _ g: ConvolutionGeometry,
                                                      activationMin: Float, activationMax: Float,
                                                      input: UnsafePointer<Float>, packedFilter: UnsafePointer<Float>,
                                                      bias: UnsafePointer<Float>?, zeros: UnsafePointer<Float>,
                                                      output: UnsafeMutablePointer<Float>, tiles: Range<Int>) {
        let mr = K.rows, nr = K.panelWidth
        let pixels = g.batches * g.outputHeight * g.outputWidth
        let cin = g.inputDepth, cout = g.outputDepth
        let taps = g.filterHeight * g.filterWidth
        let depth = taps * cin
        let panels = (cout + nr - 1) / nr
        guard pixels > 0, cin > 0, !tiles.isEmpty else { return }
        let block = max(1, min(64, tiles.count, floatBlockInputBytes / max(1, mr * depth * 4)))
        let tableSize = taps * mr
        // A pointwise layer (1×1, stride 1, no padding) reads output pixel p's input at pixel p.
        let pointwise = taps == 1 && g.strideHeight == 1 && g.strideWidth == 1 && g.padTop == 0 && g.padLeft == 0
            && g.inputHeight == g.outputHeight && g.inputWidth == g.outputWidth
        withUnsafeTemporaryAllocation(of: UnsafePointer<Float>.self, capacity: block * tableSize) { table in
            let runs = table.baseAddress!
            var blockStart = tiles.lowerBound
            while blockStart < tiles.upperBound {
                let blockEnd = min(tiles.upperBound, blockStart + block)
                for tile in blockStart..<blockEnd {
                    let first = tile * mr
                    let count = min(mr, pixels - first)
                    let tileRuns = runs + (tile - blockStart) * tableSize
                    if pointwise {
                        // Rows past the output repeat the last pixel; they are computed, not stored.
                        for r in 0..<mr { tileRuns[r] = input + (first + Swift.min(r, count - 1)) * cin }
                        continue
                    }
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
                    let epilogue = FloatConvEpilogue(bias: bias.map { $0 + n0 }, lanes: min(nr, cout - n0),
                                                     activationMin: activationMin, activationMax: activationMax)
                    let weights = packedFilter + panel * depth * nr
                    for tile in blockStart..<blockEnd {
                        let first = tile * mr
                        K.tile(runs: runs + (tile - blockStart) * tableSize, taps: taps, inputDepth: cin,
                               weights: weights, epilogue: epilogue, output: output + first * cout + n0,
                               rowStride: cout, count: min(mr, pixels - first))
                    }
                }
                blockStart = blockEnd
            }
        }
    }
}
