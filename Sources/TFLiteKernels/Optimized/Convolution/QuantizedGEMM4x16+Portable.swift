/// The portable microkernels of `QuantizedGEMM` (architectures without an intrinsic kernel;
/// compiled and tested everywhere): 4 pixels × 16 output channels in `SIMD16<Int32>`, the
/// panel's weight pairs (quads) split into their per-channel-offset parts.
extension QuantizedGEMM {
    /// Runs 4 pixels (table entries `pointers[t·rowStride + r]`, r < 4) against the int16-pair
    /// panel at `weights`; sums of pixel `r` land at `acc[32·r ..< 32·r + 16]`.
    @inline(__always)
    static func portablePairTile4x16(_ pointers: UnsafePointer<UnsafeRawPointer>, rowStride: Int, taps: Int, words: Int,
                                     weights: UnsafeRawPointer, into acc: UnsafeMutablePointer<Int32>) {
        portablePairTile4x16(pointers, rowStride: rowStride, taps: taps, words: words, weights: weights, filterOffset: 0,
                                 into: acc, weight: Int16.self)
    }

    /// The pair tile for a panel of `Weight` values in the pairs' order: `Int16` (the
    /// int16 pairs, `filterOffset` 0), or the bytes of `int8WeightPairs` and `uint8WeightPairs`,
    /// each widened with `filterOffset` added.
    @inline(__always)
    static func portablePairTile4x16<Weight: FixedWidthInteger & SIMDScalar>(
        _ pointers: UnsafePointer<UnsafeRawPointer>, rowStride: Int, taps: Int, words: Int, weights: UnsafeRawPointer,
        filterOffset: Int32, into acc: UnsafeMutablePointer<Int32>, weight: Weight.Type
    ) {
        var a0 = SIMD16<Int32>(), a1 = a0, a2 = a0, a3 = a0
        var w = weights
        let offset = SIMD16<Int32>(repeating: filterOffset)
        for t in 0..<taps {
            let row = pointers + t * rowStride
            let x0 = row[0].assumingMemoryBound(to: Int16.self), x1 = row[1].assumingMemoryBound(to: Int16.self)
            let x2 = row[2].assumingMemoryBound(to: Int16.self), x3 = row[3].assumingMemoryBound(to: Int16.self)
            for j in 0..<words {
                let packed = w.loadUnaligned(as: SIMD32<Weight>.self)
                let even = SIMD16<Int32>(truncatingIfNeeded: packed.evenHalf) &+ offset
                let odd = SIMD16<Int32>(truncatingIfNeeded: packed.oddHalf) &+ offset
                let c = 2 * j
                a0 = a0 &+ even &* SIMD16(repeating: Int32(x0[c])) &+ odd &* SIMD16(repeating: Int32(x0[c + 1]))
                a1 = a1 &+ even &* SIMD16(repeating: Int32(x1[c])) &+ odd &* SIMD16(repeating: Int32(x1[c + 1]))
                a2 = a2 &+ even &* SIMD16(repeating: Int32(x2[c])) &+ odd &* SIMD16(repeating: Int32(x2[c + 1]))
                a3 = a3 &+ even &* SIMD16(repeating: Int32(x3[c])) &+ odd &* SIMD16(repeating: Int32(x3[c + 1]))
                w += 32 * MemoryLayout<Weight>.size
            }
        }
        portableStore(a0, a1, a2, a3, into: acc)
    }

    /// Runs 4 pixels against a quad panel at `weights` (4 channels per word, one operand unsigned
    /// and the other signed); sums of pixel `r` land at `acc[32·r ..< 32·r + 16]`. `Input` and
    /// `Weight` are `UInt8`/`Int8` for the int8 quads and `Int8`/`UInt8` for the uint8-weight quads.
    @inline(__always)
    static func portableQuadTile4x16<Input: FixedWidthInteger, Weight: FixedWidthInteger & SIMDScalar>(
        _ pointers: UnsafePointer<UnsafeRawPointer>, rowStride: Int, taps: Int, words: Int,
        weights: UnsafeRawPointer, into acc: UnsafeMutablePointer<Int32>, input: Input.Type, weight: Weight.Type
    ) {
        var a0 = SIMD16<Int32>(), a1 = a0, a2 = a0, a3 = a0
        var w = weights
        for t in 0..<taps {
            let row = pointers + t * rowStride
            let xs = (row[0].assumingMemoryBound(to: Input.self), row[1].assumingMemoryBound(to: Input.self),
                      row[2].assumingMemoryBound(to: Input.self), row[3].assumingMemoryBound(to: Input.self))
            for j in 0..<words {
                let packed = w.loadUnaligned(as: SIMD64<Weight>.self)
                let even = packed.evenHalf, odd = packed.oddHalf
                let w0 = SIMD16<Int32>(truncatingIfNeeded: even.evenHalf), w2 = SIMD16<Int32>(truncatingIfNeeded: even.oddHalf)
                let w1 = SIMD16<Int32>(truncatingIfNeeded: odd.evenHalf), w3 = SIMD16<Int32>(truncatingIfNeeded: odd.oddHalf)
                @inline(__always) func dot(_ x: UnsafePointer<Input>) -> SIMD16<Int32> {
                    let c = 4 * j
                    return w0 &* SIMD16(repeating: Int32(x[c])) &+ w1 &* SIMD16(repeating: Int32(x[c + 1]))
                        &+ w2 &* SIMD16(repeating: Int32(x[c + 2])) &+ w3 &* SIMD16(repeating: Int32(x[c + 3]))
                }
                a0 = a0 &+ dot(xs.0); a1 = a1 &+ dot(xs.1); a2 = a2 &+ dot(xs.2); a3 = a3 &+ dot(xs.3)
                w += 64
            }
        }
        portableStore(a0, a1, a2, a3, into: acc)
    }

    /// Writes the sums of pixels 0–3 to `acc[32·r ..< 32·r + 16]`.
    @inline(__always)
    static func portableStore(_ a0: SIMD16<Int32>, _ a1: SIMD16<Int32>, _ a2: SIMD16<Int32>, _ a3: SIMD16<Int32>,
                              into acc: UnsafeMutablePointer<Int32>) {
        let out = UnsafeMutableRawPointer(acc)
        out.storeBytes(of: a0, as: SIMD16<Int32>.self)
        (out + 128).storeBytes(of: a1, as: SIMD16<Int32>.self)
        (out + 256).storeBytes(of: a2, as: SIMD16<Int32>.self)
        (out + 384).storeBytes(of: a3, as: SIMD16<Int32>.self)
    }
}
