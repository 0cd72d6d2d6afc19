import TFLiteKernels

/// A byte table an 8-bit GEMM applies to its own output (``OutputByteMapFusion``: YOLO's SiLU
/// after a convolution): each chunk of tiles maps the output pixels it has just written, in
/// place, while they are still in its core's cache. The values are those of the GEMM and the
/// table run one after the other.
struct OutputByteMap {
    /// Output code → mapped code (`UInt8(bitPattern:)` for int8).
    let table: ByteTableLookup

    /// Maps, in place, the output of GEMM `tiles` on `gemm`: pixels `tiles · tilePixels` up to
    /// the last pixel, `gemm.outputDepth` one-byte elements each (int8 codes are read and
    /// written as their bit patterns; signed and unsigned bytes may alias).
    /// - Precondition: `Element` is one byte; `output` holds the GEMM's whole output, and this
    ///   chunk wrote the tiles' pixels.
    func apply<Element>(tiles: Range<Int>, of gemm: ConvolutionGeometry, to output: UnsafeMutablePointer<Element>) {
        precondition(MemoryLayout<Element>.stride == 1, "a byte map applies to one-byte elements")
        let pixels = gemm.batches * gemm.outputHeight * gemm.outputWidth
        let first = min(pixels, tiles.lowerBound * QuantizedGEMM.tilePixels)
        let end = min(pixels, tiles.upperBound * QuantizedGEMM.tilePixels)
        let bytes = UnsafeMutableRawPointer(output).assumingMemoryBound(to: UInt8.self)
        table.apply(range: (first * gemm.outputDepth)..<(end * gemm.outputDepth), bytes, bytes)
    }
}
