/// The general depthwise pixel: any filter, stride and dilation, taps in the padding skipped
/// exactly as the reference does. Without generated tiles, used for the pixels whose window
/// crosses the input's edge (and for all pixels of rows whose window crosses the top or bottom
/// edge, and the channels after the last 16-channel block of interior pixels); with tiles that do
/// not mask channels, for the channels after the last 16-channel block.
enum DepthwiseBorderKernel {
    /// Writes the sums of output pixels (`batch`, `oy`, `columns`) into `sums` (the row's
    /// sums: pixel `ox` at `ox · channels`), for `channels` (all by default): 16 channels at a
    /// time, then blocks of 8 and 4 (the 8- and 12-channel layers of BlazeFace, which tiles
    /// without channel masks leave here whole), then one at a time. Every lane adds its taps in
    /// the same order with separate roundings, so the block width never changes a sum.
    @inline(never)
    static func pixels(_ g: ConvolutionGeometry, batch b: Int, oy: Int, columns: Range<Int>, channels: Range<Int>? = nil,
                       input: UnsafePointer<Float>, filter: UnsafePointer<Float>, sums: UnsafeMutablePointer<Float>) {
        let c = g.inputDepth
        let channels = channels ?? 0..<c
        let y0 = oy * g.strideHeight - g.padTop
        for ox in columns {
            let x0 = ox * g.strideWidth - g.padLeft
            let dst = sums + ox * c
            /// The sums of channels `ch ..< ch + V.scalarCount` of this pixel.
            @inline(__always)
            func block<V: SIMD>(_: V.Type, _ ch: Int) where V.Scalar == Float {
                var acc = V()
                for fy in 0..<g.filterHeight {
                    let iy = y0 + fy * g.dilationHeight
                    if iy < 0 || iy >= g.inputHeight { continue }
                    let inRow = input + (b * g.inputHeight + iy) * g.inputWidth * c + ch
                    let fRow = filter + fy * g.filterWidth * c + ch
                    for fx in 0..<g.filterWidth {
                        let ix = x0 + fx * g.dilationWidth
                        if ix < 0 || ix >= g.inputWidth { continue }
                        let x = UnsafeRawPointer(inRow + ix * c).loadUnaligned(as: V.self)
                        let w = UnsafeRawPointer(fRow + fx * c).loadUnaligned(as: V.self)
                        acc = x * w + acc
                    }
                }
                UnsafeMutableRawPointer(dst + ch).storeBytes(of: acc, as: V.self)
            }
            var ch = channels.lowerBound
            while ch + 16 <= channels.upperBound { block(SIMD16<Float>.self, ch); ch += 16 }
            if ch + 8 <= channels.upperBound { block(SIMD8<Float>.self, ch); ch += 8 }
            if ch + 4 <= channels.upperBound { block(SIMD4<Float>.self, ch); ch += 4 }
            for ch in ch..<channels.upperBound {
                var acc: Float = 0
                for fy in 0..<g.filterHeight {
                    let iy = y0 + fy * g.dilationHeight
                    if iy < 0 || iy >= g.inputHeight { continue }
                    for fx in 0..<g.filterWidth {
                        let ix = x0 + fx * g.dilationWidth
                        if ix < 0 || ix >= g.inputWidth { continue }
                        acc = input[((b * g.inputHeight + iy) * g.inputWidth + ix) * c + ch]
                            * filter[(fy * g.filterWidth + fx) * c + ch] + acc
                    }
                }
                dst[ch] = acc
            }
        }
    }
}
