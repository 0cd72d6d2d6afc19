/// The interior of a depthwise output row: pixels whose whole window lies inside the input,
/// so no tap needs a bounds check. Per 16-channel block, `pixelTile` neighbouring output pixels
/// are accumulated together, each weight load feeding all of them. `rows` is written with the
/// filter size and stride as parameters and always inlined, so calls with literal 3×3 / 5×5
/// and stride 1 / 2 compile to fully unrolled tap loops.
enum DepthwiseInteriorKernel {
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

    /// Computes output rows `rows` (indices over `batches · outputHeight`) for a `kh`×`kw`
    /// filter at horizontal stride `sx` (which must equal the geometry's).
    @inline(__always)
    static func rows<E: DepthwiseEpilogue>(_ g: ConvolutionGeometry, kh: Int, kw: Int, sx: Int,
                                           input: UnsafePointer<Float>, filter: UnsafePointer<Float>,
                                           epilogue: E, output: UnsafeMutablePointer<E.Output>, rows: Range<Int>) {
        let c = g.inputDepth
        let blocks = c / 16
        let columns = interiorColumns(g)
        let rowStride = g.dilationHeight * g.inputWidth * c
        let tapStep = g.dilationWidth * c
        let pixelStep = sx * c
        for row in rows {
            let b = row / g.outputHeight, oy = row % g.outputHeight
            guard isInteriorRow(g, oy), !columns.isEmpty else {
                for ox in 0..<g.outputWidth {
                    DepthwiseBorderKernel.pixel(g, batch: b, oy: oy, ox: ox, input: input, filter: filter,
                                                epilogue: epilogue, output: output)
                }
                continue
            }
            for ox in 0..<columns.lowerBound {
                DepthwiseBorderKernel.pixel(g, batch: b, oy: oy, ox: ox, input: input, filter: filter,
                                            epilogue: epilogue, output: output)
            }
            let y0 = oy * g.strideHeight - g.padTop
            // The window of column ox starts at input element inRow + ox · sx · c (column ox · sx − padLeft).
            let inRow = (b * g.inputHeight + y0) * g.inputWidth * c - g.padLeft * c
            let outRow = output + (b * g.outputHeight + oy) * g.outputWidth * c
            for blk in 0..<blocks {
                let ch = blk * 16
                var ox = columns.lowerBound
                #if LITEVISION_AVX512 || arch(arm64)
                while ox + 4 <= columns.upperBound {
                    tile(4, kh: kh, kw: kw, input: input + (inRow + ox * pixelStep + ch), filter: filter + ch, channels: c,
                         rowStride: rowStride, tapStep: tapStep, pixelStep: pixelStep,
                         epilogue: epilogue, channel: ch, output: outRow + ox * c + ch)
                    ox += 4
                }
                #else
                while ox + 2 <= columns.upperBound {
                    tile(2, kh: kh, kw: kw, input: input + (inRow + ox * pixelStep + ch), filter: filter + ch, channels: c,
                         rowStride: rowStride, tapStep: tapStep, pixelStep: pixelStep,
                         epilogue: epilogue, channel: ch, output: outRow + ox * c + ch)
                    ox += 2
                }
                #endif
                while ox < columns.upperBound {
                    tile(1, kh: kh, kw: kw, input: input + (inRow + ox * pixelStep + ch), filter: filter + ch, channels: c,
                         rowStride: rowStride, tapStep: tapStep, pixelStep: pixelStep,
                         epilogue: epilogue, channel: ch, output: outRow + ox * c + ch)
                    ox += 1
                }
            }
            if blocks * 16 < c {
                for ox in columns {
                    let window = input + (inRow + ox * pixelStep)
                    for ch in (blocks * 16)..<c {
                        var acc: Float = 0
                        for fy in 0..<kh {
                            for fx in 0..<kw {
                                acc = window[fy * rowStride + fx * tapStep + ch] * filter[(fy * kw + fx) * c + ch] + acc
                            }
                        }
                        epilogue.store(acc, channel: ch, to: outRow + ox * c + ch)
                    }
                }
            }
            for ox in columns.upperBound..<g.outputWidth {
                DepthwiseBorderKernel.pixel(g, batch: b, oy: oy, ox: ox, input: input, filter: filter,
                                            epilogue: epilogue, output: output)
            }
        }
    }

    /// `count` (1…4, a literal at every call) neighbouring output pixels of one 16-channel
    /// block: `input` points at the first pixel's window origin, `output` at its result.
    @inline(__always)
    static func tile<E: DepthwiseEpilogue>(_ count: Int, kh: Int, kw: Int, input: UnsafePointer<Float>,
                                           filter: UnsafePointer<Float>, channels c: Int,
                                           rowStride: Int, tapStep: Int, pixelStep: Int,
                                           epilogue: E, channel: Int, output: UnsafeMutablePointer<E.Output>) {
        var a0 = SIMD16<Float>(), a1 = SIMD16<Float>(), a2 = SIMD16<Float>(), a3 = SIMD16<Float>()
        for fy in 0..<kh {
            let r = input + fy * rowStride
            let f = filter + fy * kw * c
            for fx in 0..<kw {
                let w = UnsafeRawPointer(f + fx * c).loadUnaligned(as: SIMD16<Float>.self)
                let p = r + fx * tapStep
                a0 = UnsafeRawPointer(p).loadUnaligned(as: SIMD16<Float>.self) * w + a0
                if count > 1 { a1 = UnsafeRawPointer(p + pixelStep).loadUnaligned(as: SIMD16<Float>.self) * w + a1 }
                if count > 2 { a2 = UnsafeRawPointer(p + 2 * pixelStep).loadUnaligned(as: SIMD16<Float>.self) * w + a2 }
                if count > 3 { a3 = UnsafeRawPointer(p + 3 * pixelStep).loadUnaligned(as: SIMD16<Float>.self) * w + a3 }
            }
        }
        epilogue.store(a0, channel: channel, to: output)
        if count > 1 { epilogue.store(a1, channel: channel, to: output + c) }
        if count > 2 { epilogue.store(a2, channel: channel, to: output + 2 * c) }
        if count > 3 { epilogue.store(a3, channel: channel, to: output + 3 * c) }
    }
}
