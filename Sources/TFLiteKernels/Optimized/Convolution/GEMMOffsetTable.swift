/// The tap table that the interior tiles of a quantized GEMM layer share, for the generated
/// integer kernels: entry `t·8 + r` is the byte offset of pixel `r`'s input run for tap `t` from
/// the tile's window origin (the input of tap 0 of pixel 0). The kernels add the tile's origin
/// address (`GeneratedIntegerTileArguments.tableBase`) to every entry, so a tile whose 8 windows
/// lie inside the input needs no table of its own: the per-tile table (`QuantizedGEMM.fillTable`)
/// remains for tiles that touch padding, cross an output row or are partial.
enum GEMMOffsetTable {
    /// Fills `offsets[t·8 + r]` (`taps · 8` entries) for `g`'s geometry, `pixelBytes` per input pixel.
    /// - Complexity: O(taps · 8), once per call of a layer's tile loop.
    @inline(__always)
    static func fill(_ g: ConvolutionGeometry, pixelBytes: Int, into offsets: UnsafeMutablePointer<Int>) {
        let n = QuantizedGEMM.tilePixels
        for fy in 0..<g.filterHeight {
            for fx in 0..<g.filterWidth {
                let tap = (fy * g.filterWidth + fx) * n
                let tapOffset = fy * g.dilationHeight * g.inputWidth + fx * g.dilationWidth
                for r in 0..<n { offsets[tap + r] = (tapOffset + r * g.strideWidth) * pixelBytes }
            }
        }
    }

    /// The window origin address of the tile at `origin` (`rows` pixels) when the shared table
    /// describes it (`QuantizedGEMM.interiorWindowOrigin`: 8 pixels in one output row whose
    /// windows lie inside the input). Nil otherwise.
    @inline(__always)
    static func base(_ g: ConvolutionGeometry, origin: GEMMTileOrigin, rows: Int, input: UnsafeRawPointer,
                     pixelBytes: Int) -> Int? {
        QuantizedGEMM.interiorWindowOrigin(g, origin: origin, rows: rows).map { Int(bitPattern: input) &+ $0 &* pixelBytes }
    }
}
