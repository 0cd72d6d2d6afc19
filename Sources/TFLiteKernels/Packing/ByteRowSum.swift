/// Sums of byte rows: weight rows for the bias corrections of the 8-bit GEMMs (once per layer
/// at prepare, over every weight: part of a model's cold start) and the patch rows of the
/// uint8-weight stems (`QuantizedConvPatches.gatherSignedQuads`, every invoke).
enum ByteRowSum {
    /// `Σ bytes[k]` for `k < count`, the bytes read as `UInt8`, or as `Int8` when `signed`.
    ///
    /// Sixteen bytes per step, widened to 16-bit lanes that are added up after at most 256 steps
    /// (256 × 255 < 2¹⁶, so no lane overflows); a signed byte `b` counts as `(b ^ 0x80) − 128`.
    /// In the default (SSE2) build this is two unpacks and two adds per 16 bytes, where the
    /// element loop widened 8 bytes at a time to 32 bits.
    /// - Precondition: `count ≥ 0` and `bytes` holds `count` bytes.
    /// - Complexity: O(count).
    @inline(__always)
    static func sum(_ bytes: UnsafeRawPointer, count: Int, signed: Bool) -> Int32 {
        let flip = SIMD16<UInt8>(repeating: signed ? 0x80 : 0)
        var total: Int32 = 0, k = 0
        while count &- k >= 16 {
            let steps = Swift.min((count &- k) / 16, 256)
            var lanes = SIMD16<UInt16>()
            for step in 0..<steps {
                let v = bytes.loadUnaligned(fromByteOffset: k &+ 16 &* step, as: SIMD16<UInt8>.self) ^ flip
                lanes &+= SIMD16<UInt16>(truncatingIfNeeded: v)
            }
            k &+= 16 &* steps
            total &+= Int32(truncatingIfNeeded: SIMD16<UInt32>(truncatingIfNeeded: lanes).wrappedSum())
        }
        while k < count {
            total &+= Int32(bytes.load(fromByteOffset: k, as: UInt8.self) ^ flip[0])
            k &+= 1
        }
        return signed ? total &- 128 &* Int32(truncatingIfNeeded: count) : total
    }
}
