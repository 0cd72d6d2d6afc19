/// Where a GEMM tile's first output pixel is: its index over all batches, its batch, output row
/// and column. The tile loops step it from tile to tile (`advance`), so filling a tile's tap
/// table costs no division.
struct GEMMTileOrigin {
    /// The pixel's index over `batches · outputHeight · outputWidth`.
    private(set) var pixel: Int
    private(set) var batch: Int
    private(set) var row: Int
    private(set) var column: Int

    /// The origin of pixel `pixel` of `g` (by division, once; all zero for a geometry without pixels).
    init(_ g: ConvolutionGeometry, pixel: Int) {
        self.pixel = pixel
        guard g.outputWidth > 0, g.outputHeight > 0 else { (batch, row, column) = (0, 0, 0); return }
        column = pixel % g.outputWidth
        row = (pixel / g.outputWidth) % g.outputHeight
        batch = pixel / (g.outputHeight * g.outputWidth)
    }

    /// Moves `count` pixels on in row-major order.
    /// - Precondition: `g.outputWidth ≥ 1` (a geometry with pixels).
    @inline(__always)
    mutating func advance(_ g: ConvolutionGeometry, by count: Int) {
        pixel += count
        column += count
        while column >= g.outputWidth {
            column -= g.outputWidth
            row += 1
            if row == g.outputHeight { row = 0; batch += 1 }
        }
    }
}
