/// Transposes blocks of bytes in registers: an 8×8 byte matrix held as eight 64-bit words (one
/// per row, column `c` in byte `c`) is transposed by three rounds of swapping 4×4, 2×2 and 1×1
/// sub-blocks between word pairs (a shift, two xors and a mask per swap), two such matrices side
/// by side in the lanes of `SIMD2<UInt64>`. About 72 vector operations move 128 bytes, where the
/// element-by-element loop needs a load and a store per byte.
enum ByteBlockTranspose {
    /// Writes the transpose of the 8 × 16 bytes at `input` (rows `rowStride` bytes apart) as
    /// 16 output rows of 8 bytes at `output` (`outputRowStride` bytes apart): output row `c`,
    /// byte `r` = input row `r`, byte `c`.
    /// - Precondition: the 8 input rows hold 16 readable bytes each; the 16 output rows 8
    ///   writable bytes each.
    @inline(__always)
    static func rows8Columns16(_ input: UnsafeRawPointer, rowStride: Int, into output: UnsafeMutableRawPointer,
                               outputRowStride: Int) {
        var w0 = input.loadUnaligned(as: SIMD2<UInt64>.self)
        var w1 = input.loadUnaligned(fromByteOffset: rowStride, as: SIMD2<UInt64>.self)
        var w2 = input.loadUnaligned(fromByteOffset: 2 * rowStride, as: SIMD2<UInt64>.self)
        var w3 = input.loadUnaligned(fromByteOffset: 3 * rowStride, as: SIMD2<UInt64>.self)
        var w4 = input.loadUnaligned(fromByteOffset: 4 * rowStride, as: SIMD2<UInt64>.self)
        var w5 = input.loadUnaligned(fromByteOffset: 5 * rowStride, as: SIMD2<UInt64>.self)
        var w6 = input.loadUnaligned(fromByteOffset: 6 * rowStride, as: SIMD2<UInt64>.self)
        var w7 = input.loadUnaligned(fromByteOffset: 7 * rowStride, as: SIMD2<UInt64>.self)
        /// Swaps the bytes of `a` selected by `mask << shift` with the bytes of `b` selected by `mask`.
        @inline(__always)
        func swap(_ a: inout SIMD2<UInt64>, _ b: inout SIMD2<UInt64>, _ shift: UInt64, _ mask: UInt64) {
            let t = ((a &>> shift) ^ b) & SIMD2(repeating: mask)
            b ^= t
            a ^= t &<< shift
        }
        let quarters: UInt64 = 0x0000_0000_FFFF_FFFF, halves: UInt64 = 0x0000_FFFF_0000_FFFF, bytes: UInt64 = 0x00FF_00FF_00FF_00FF
        swap(&w0, &w4, 32, quarters); swap(&w1, &w5, 32, quarters); swap(&w2, &w6, 32, quarters); swap(&w3, &w7, 32, quarters)
        swap(&w0, &w2, 16, halves); swap(&w1, &w3, 16, halves); swap(&w4, &w6, 16, halves); swap(&w5, &w7, 16, halves)
        swap(&w0, &w1, 8, bytes); swap(&w2, &w3, 8, bytes); swap(&w4, &w5, 8, bytes); swap(&w6, &w7, 8, bytes)
        for (k, w) in [w0, w1, w2, w3, w4, w5, w6, w7].enumerated() {
            output.storeBytes(of: w[0], toByteOffset: k * outputRowStride, as: UInt64.self)
            output.storeBytes(of: w[1], toByteOffset: (k + 8) * outputRowStride, as: UInt64.self)
        }
    }
}
