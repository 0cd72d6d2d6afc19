/// Rows of a depthwise convolution's input copied with their zero padding (`DepthwiseInputWindow`):
/// 8-bit input as exact floats `x + inputOffset` (whose padding value is 0, matching the
/// reference, which skips those taps), float input as is, so every output pixel is an interior
/// pixel (`DepthwiseInteriorKernel`, no border path).
extension DepthwiseConv2DOptimized {
    /// The geometry over the padded input: each window starts inside it (padding 0) and the
    /// last one ends inside it. Output size, filter, strides and dilation are unchanged.
    public static func paddedGeometry(_ g: ConvolutionGeometry) -> ConvolutionGeometry {
        var p = g
        p.inputHeight = max(1, (g.outputHeight - 1) * g.strideHeight + (g.filterHeight - 1) * g.dilationHeight + 1)
        p.inputWidth = max(1, (g.outputWidth - 1) * g.strideWidth + (g.filterWidth - 1) * g.dilationWidth + 1)
        p.padTop = 0
        p.padLeft = 0
        return p
    }

    /// Converts padded rows `rows` (of `batches · paddedGeometry(g).inputHeight`) of uint8 input
    /// to exact floats `x + offset`, in consecutive rows from `out`, whose first row is `rows.lowerBound`.
    public static func padInput(_ x: UnsafePointer<UInt8>, offset: Int32, _ g: ConvolutionGeometry,
                                rows: Range<Int>, startingAt out: UnsafeMutablePointer<Float>) {
        pad(g, rows: rows, into: out) { from, count, to in
            Conv2DOptimized.offsetInput(x + from, count: count, offset: offset, into: to)
        }
    }

    /// Converts padded rows `rows` of int8 input to consecutive rows from `out` (see the uint8 form).
    public static func padInput(_ x: UnsafePointer<Int8>, offset: Int32, _ g: ConvolutionGeometry,
                                rows: Range<Int>, startingAt out: UnsafeMutablePointer<Float>) {
        pad(g, rows: rows, into: out) { from, count, to in
            Conv2DOptimized.offsetInput(x + from, count: count, offset: offset, into: to)
        }
    }

    /// Copies padded rows `rows` of float input, with zeros for the padding, to consecutive rows
    /// from `out`, whose first row is `rows.lowerBound`.
    public static func padInput(_ x: UnsafePointer<Float>, _ g: ConvolutionGeometry,
                                rows: Range<Int>, startingAt out: UnsafeMutablePointer<Float>) {
        pad(g, rows: rows, into: out) { from, count, to in to.update(from: x + from, count: count) }
    }

    /// Fills padded rows `rows`, padded row `r` at row `r − rows.lowerBound` of `out`: zeros
    /// outside the input, `copy(from, count, to)` for each row's `count` input elements
    /// starting at element `from`.
    @inline(__always)
    private static func pad(_ g: ConvolutionGeometry, rows: Range<Int>, into out: UnsafeMutablePointer<Float>,
                            copy: (Int, Int, UnsafeMutablePointer<Float>) -> Void) {
        let p = paddedGeometry(g)
        let c = g.inputDepth
        let rowLength = p.inputWidth * c
        // Columns of a padded row: `left` zeros, `middle` input columns, then zeros.
        let left = min(g.padLeft, p.inputWidth)
        let middle = max(0, min(g.inputWidth, p.inputWidth - g.padLeft))
        for row in rows {
            let b = row / p.inputHeight, iy = row % p.inputHeight - g.padTop
            let dst = out + (row - rows.lowerBound) * rowLength
            if iy < 0 || iy >= g.inputHeight || middle == 0 {
                dst.update(repeating: 0, count: rowLength)
            } else {
                dst.update(repeating: 0, count: left * c)
                copy((b * g.inputHeight + iy) * g.inputWidth * c, middle * c, dst + left * c)
                let right = (left + middle) * c
                (dst + right).update(repeating: 0, count: rowLength - right)
            }
        }
    }
}
