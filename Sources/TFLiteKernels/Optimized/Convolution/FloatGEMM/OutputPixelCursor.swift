/// Walks consecutive output pixels (NHWC order) of a convolution without dividing per pixel:
/// the tile drivers locate a tile's first pixel once and step from there.
struct OutputPixelCursor {
    /// Batch, output row and output column of the current pixel.
    private(set) var batch: Int, row: Int, column: Int
    private let height: Int, width: Int

    /// The cursor at flat output pixel `pixel` of geometry `g`.
    @inline(__always)
    init(pixel: Int, _ g: ConvolutionGeometry) {
        height = g.outputHeight; width = g.outputWidth
        column = pixel % width
        let rest = pixel / width
        row = rest % height; batch = rest / height
    }

    /// Moves to the next output pixel.
    @inline(__always)
    mutating func advance() {
        column += 1
        if column == width {
            column = 0; row += 1
            if row == height { row = 0; batch += 1 }
        }
    }
}
