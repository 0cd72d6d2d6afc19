/// The interior of a depthwise output row: pixels whose whole window lies inside the input,
/// so no tap needs a bounds check. Tiles of neighbouring output pixels (4 with AVX-512 or on
/// arm64, 2 with SSE's 16 registers) are accumulated together per 16-channel block, each weight
/// load feeding all of them. `rowSums` is written with the filter size and stride as
/// parameters and always inlined, so the entry points of `DepthwiseRowSums` (literal 3×3 / 5×5,
/// stride 1 / 2) compile to unrolled tap loops.
enum DepthwiseInteriorKernel {
    /// Channels per group of the row loop (see `rowSums`).
    static let groupWidth = 128

    /// The output columns whose window lies inside the input horizontally.
    static func interiorColumns(_ g: ConvolutionGeometry) -> Range<Int> {
        let sx = g.strideWidth
        let lo = (g.padLeft + sx - 1) / sx
        let lastStart = g.inputWidth - 1 - (g.filterWidth - 1) * g.dilationWidth + g.padLeft
        guard lastStart >= 0 else { return 0..<0 }
        let hi = min(g.outputWidth, lastStart / sx + 1)
        return lo < hi ? lo..<hi : 0..<0
    }

    /// True when output row `oy`'s window lies inside the input vertically.
    @inline(__always)
    static func isInteriorRow(_ g: ConvolutionGeometry, _ oy: Int) -> Bool {
        let y0 = oy * g.strideHeight - g.padTop
        return y0 >= 0 && y0 + (g.filterHeight - 1) * g.dilationHeight < g.inputHeight
    }

    /// Writes the sums of output row (`batch`, `oy`) into `sums` (pixel `ox` at `ox · channels`)
    /// for a `kh`×`kw` filter at horizontal stride `sx` and dilation `dx` (which must equal the
    /// geometry's; literals let neighbouring pixels share column addresses). Where this process
    /// has generated tiles, the whole row runs through them (`DepthwiseGeneratedRow`, border
    /// pixels on clipped windows), with `fusedMultiplyAdd` (see `DepthwiseRowSums.compute`) in
    /// their fused multiply-add form, finished or requantized in registers as `options` asks;
    /// else through the Swift tiles and the border kernel, which only compute sums.
    @inline(__always)
    static func rowSums(_ g: ConvolutionGeometry, kh: Int, kw: Int, sx: Int, dx: Int, batch b: Int, oy: Int,
                        input: UnsafePointer<Float>, filter: UnsafePointer<Float>, sums: UnsafeMutablePointer<Float>,
                        options: DepthwiseRowOptions) {
        #if !LITEVISION_AVX512
        if let tiles = DepthwiseGeneratedRow.tiles(for: options) {
            DepthwiseGeneratedRow.row(g, tiles: tiles, batch: b, oy: oy, input: input, filter: filter, sums: sums,
                                      options: options)
            return
        }
        #endif
        precondition(options.finish == nil && options.requantize == nil, "rows are finished in the generated tiles only")
        let c = g.inputDepth
        let columns = interiorColumns(g)
        guard isInteriorRow(g, oy), !columns.isEmpty else {
            DepthwiseBorderKernel.pixels(g, batch: b, oy: oy, columns: 0..<g.outputWidth, input: input,
                                         filter: filter, sums: sums)
            return
        }
        DepthwiseBorderKernel.pixels(g, batch: b, oy: oy, columns: 0..<columns.lowerBound, input: input,
                                     filter: filter, sums: sums)
        let rowStride = g.dilationHeight * g.inputWidth * c
        let tapStep = dx * c
        let pixelStep = sx * c
        let y0 = oy * g.strideHeight - g.padTop
        // The window of column ox starts at input element inRow + ox · sx · c (column ox · sx − padLeft).
        let inRow = (b * g.inputHeight + y0) * g.inputWidth * c - g.padLeft * c
        vectorTiles(kh: kh, kw: kw, input: input, filter: filter, channels: c, columns: columns, inRow: inRow,
                    rowStride: rowStride, tapStep: tapStep, pixelStep: pixelStep, sums: sums)
        // The channels after the last 16-channel block, in narrower vectors (the same sums).
        let vectorChannels = c / 16 * 16
        if vectorChannels < c {
            DepthwiseBorderKernel.pixels(g, batch: b, oy: oy, columns: columns, channels: vectorChannels..<c, input: input,
                                         filter: filter, sums: sums)
        }
        DepthwiseBorderKernel.pixels(g, batch: b, oy: oy, columns: columns.upperBound..<g.outputWidth, input: input,
                                     filter: filter, sums: sums)
    }

    /// The Swift interior tiles: channel groups of up to `groupWidth` outer, pixel tiles in the
    /// middle, 16-channel blocks inner, so a tile's window is read as contiguous runs of channels
    /// and the group's window columns (reused by the next tiles) stay in L1 even for wide,
    /// dilated layers.
    @inline(__always)
    static func vectorTiles(kh: Int, kw: Int, input: UnsafePointer<Float>, filter: UnsafePointer<Float>, channels c: Int,
                            columns: Range<Int>, inRow: Int, rowStride: Int, tapStep: Int, pixelStep: Int,
                            sums: UnsafeMutablePointer<Float>) {
        let vectorChannels = c / 16 * 16
        for group in stride(from: 0, to: vectorChannels, by: groupWidth) {
            let groupEnd = min(group + groupWidth, vectorChannels)
            var ox = columns.lowerBound
            #if LITEVISION_AVX512 || arch(arm64)
            while ox + 4 <= columns.upperBound {
                for ch in stride(from: group, to: groupEnd, by: 16) {
                    tile(4, kh: kh, kw: kw, input: input + (inRow + ox * pixelStep + ch), filter: filter + ch, channels: c,
                         rowStride: rowStride, tapStep: tapStep, pixelStep: pixelStep, sums: sums + (ox * c + ch))
                }
                ox += 4
            }
            #else
            while ox + 2 <= columns.upperBound {
                for ch in stride(from: group, to: groupEnd, by: 16) {
                    tile(2, kh: kh, kw: kw, input: input + (inRow + ox * pixelStep + ch), filter: filter + ch, channels: c,
                         rowStride: rowStride, tapStep: tapStep, pixelStep: pixelStep, sums: sums + (ox * c + ch))
                }
                ox += 2
            }
            #endif
            while ox < columns.upperBound {
                for ch in stride(from: group, to: groupEnd, by: 16) {
                    tile(1, kh: kh, kw: kw, input: input + (inRow + ox * pixelStep + ch), filter: filter + ch, channels: c,
                         rowStride: rowStride, tapStep: tapStep, pixelStep: pixelStep, sums: sums + (ox * c + ch))
                }
                ox += 1
            }
        }
    }

    /// `a · b + c`: fused (one rounding) in tuned builds, which target FMA hardware; separate
    /// multiply and add otherwise (a fused form would become library calls without FMA).
    /// Quantized sums are exact integers either way.
    @inline(__always)
    static func multiplyAdd(_ a: SIMD16<Float>, _ b: SIMD16<Float>, _ c: SIMD16<Float>) -> SIMD16<Float> {
        #if LITEVISION_TUNED
        return c.addingProduct(a, b)
        #else
        return a * b + c
        #endif
    }

    /// `count` (1…4, a literal at every call) neighbouring output pixels of one 16-channel
    /// block: `input` points at the first pixel's window origin, `sums` at its sums.
    @inline(__always)
    static func tile(_ count: Int, kh: Int, kw: Int, input: UnsafePointer<Float>,
                     filter: UnsafePointer<Float>, channels c: Int,
                     rowStride: Int, tapStep: Int, pixelStep: Int, sums: UnsafeMutablePointer<Float>) {
        var a0 = SIMD16<Float>(), a1 = SIMD16<Float>(), a2 = SIMD16<Float>(), a3 = SIMD16<Float>()
        for fy in 0..<kh {
            let r = input + fy * rowStride
            let f = filter + fy * kw * c
            for fx in 0..<kw {
                let w = UnsafeRawPointer(f + fx * c).loadUnaligned(as: SIMD16<Float>.self)
                let p = r + fx * tapStep
                a0 = multiplyAdd(UnsafeRawPointer(p).loadUnaligned(as: SIMD16<Float>.self), w, a0)
                if count > 1 { a1 = multiplyAdd(UnsafeRawPointer(p + pixelStep).loadUnaligned(as: SIMD16<Float>.self), w, a1) }
                if count > 2 { a2 = multiplyAdd(UnsafeRawPointer(p + 2 * pixelStep).loadUnaligned(as: SIMD16<Float>.self), w, a2) }
                if count > 3 { a3 = multiplyAdd(UnsafeRawPointer(p + 3 * pixelStep).loadUnaligned(as: SIMD16<Float>.self), w, a3) }
            }
        }
        let out = UnsafeMutableRawPointer(sums)
        out.storeBytes(of: a0, as: SIMD16<Float>.self)
        if count > 1 { out.storeBytes(of: a1, toByteOffset: 4 * c, as: SIMD16<Float>.self) }
        if count > 2 { out.storeBytes(of: a2, toByteOffset: 8 * c, as: SIMD16<Float>.self) }
        if count > 3 { out.storeBytes(of: a3, toByteOffset: 12 * c, as: SIMD16<Float>.self) }
    }
}
