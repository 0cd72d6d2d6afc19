/// The general depthwise pixel: any filter, stride and dilation, taps in the padding skipped
/// exactly as the reference does. Without generated tiles, used for the pixels whose window
/// crosses the input's edge (and for all pixels of rows whose window crosses the top or bottom
/// edge); with tiles that do not mask channels, for the channels after the last 16-channel block.
enum DepthwiseBorderKernel {
    /// Writes the sums of output pixels (`batch`, `oy`, `columns`) into `sums` (the row's
    /// sums: pixel `ox` at `ox · channels`), for `channels` (all by default).
    @inline(never)
    static func pixels(_ g: ConvolutionGeometry, batch b: Int, oy: Int, columns: Range<Int>, channels: Range<Int>? = nil,
                       input: UnsafePointer<Float>, filter: UnsafePointer<Float>, sums: UnsafeMutablePointer<Float>) {
        let c = g.inputDepth
        let channels = channels ?? 0..<c
        let vectorEnd = channels.lowerBound + channels.count / 16 * 16
        let y0 = oy * g.strideHeight - g.padTop
        for ox in columns {
            let x0 = ox * g.strideWidth - g.padLeft
            let dst = sums + ox * c
            for ch in stride(from: channels.lowerBound, to: vectorEnd, by: 16) {
                var acc = SIMD16<Float>()
                for fy in 0..<g.filterHeight {
                    let iy = y0 + fy * g.dilationHeight
                    if iy < 0 || iy >= g.inputHeight { continue }
                    let inRow = input + (b * g.inputHeight + iy) * g.inputWidth * c + ch
                    let fRow = filter + fy * g.filterWidth * c + ch
                    for fx in 0..<g.filterWidth {
                        let ix = x0 + fx * g.dilationWidth
                        if ix < 0 || ix >= g.inputWidth { continue }
                        let x = UnsafeRawPointer(inRow + ix * c).loadUnaligned(as: SIMD16<Float>.self)
                        let w = UnsafeRawPointer(fRow + fx * c).loadUnaligned(as: SIMD16<Float>.self)
                        acc = x * w + acc
                    }
                }
                UnsafeMutableRawPointer(dst + ch).storeBytes(of: acc, as: SIMD16<Float>.self)
            }
            for ch in vectorEnd..<channels.upperBound {
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
