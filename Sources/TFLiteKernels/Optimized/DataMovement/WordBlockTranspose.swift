/// Transposes 4 × 4 blocks of 32-bit elements (float tensors, as bit patterns) in registers:
/// four row loads of `SIMD4<UInt32>`, lanes regathered into columns (LLVM lowers the lane
/// shuffles to unpack instructions), four column stores, where the element-by-element loop
/// takes a load and a store per element.
enum WordBlockTranspose {
    /// Writes the transpose of the 4 × 4 elements at `input` (rows `rowStride` elements apart)
    /// as 4 output rows of 4 at `output` (`outputRowStride` elements apart): output row `c`,
    /// element `r` = input row `r`, element `c`.
    /// - Precondition: the 4 input rows hold 4 readable elements each; the 4 output rows 4
    ///   writable elements each.
    @inline(__always)
    static func rows4Columns4(_ input: UnsafePointer<UInt32>, rowStride: Int, into output: UnsafeMutablePointer<UInt32>,
                              outputRowStride: Int) {
        let r0 = UnsafeRawPointer(input).loadUnaligned(as: SIMD4<UInt32>.self)
        let r1 = UnsafeRawPointer(input + rowStride).loadUnaligned(as: SIMD4<UInt32>.self)
        let r2 = UnsafeRawPointer(input + 2 * rowStride).loadUnaligned(as: SIMD4<UInt32>.self)
        let r3 = UnsafeRawPointer(input + 3 * rowStride).loadUnaligned(as: SIMD4<UInt32>.self)
        let low01 = SIMD4(r0[0], r1[0], r0[1], r1[1]), low23 = SIMD4(r2[0], r3[0], r2[1], r3[1])
        let high01 = SIMD4(r0[2], r1[2], r0[3], r1[3]), high23 = SIMD4(r2[2], r3[2], r2[3], r3[3])
        let store = { (c: Int, column: SIMD4<UInt32>) in
            UnsafeMutableRawPointer(output + c * outputRowStride).storeBytes(of: column, as: SIMD4<UInt32>.self)
        }
        store(0, SIMD4(low01[0], low01[1], low23[0], low23[1]))
        store(1, SIMD4(low01[2], low01[3], low23[2], low23[3]))
        store(2, SIMD4(high01[0], high01[1], high23[0], high23[1]))
        store(3, SIMD4(high01[2], high01[3], high23[2], high23[3]))
    }
}
