/// The filter of 8-bit depthwise rows in tap quads (`DepthwiseConv2DOptimized.tapQuads`): each
/// filter row's taps in groups of four horizontal ones, the four signed bytes of a channel's
/// weights `w' = w + filterOffset` in one 32-bit word (zero past the filter's width), so one
/// `vpdpbusd` lane multiplies them by four input bytes. Weights that fit a signed byte take one
/// part; weights in −255…254 (uint8 filters whose zero point is far from 128) take two,
/// `⌊w'/2⌋` and `⌈w'/2⌉`, which the tiles multiply by the same input bytes into the same sums.
/// Laid out `[filterHeight][quadsPerRow][parts][channels]` words, then one Int32 bias correction
/// per channel.
///
/// The dot products take the input as unsigned bytes `u` (uint8 as is, int8 as `x + 128`), so
/// `Σ (x + inputOffset) · w' = Σ u · w' + o · Σ w'` with `o = inputOffset` (uint8) or
/// `inputOffset − 128` (int8): the bias correction is `o · Σ w'` over the channel's taps, in
/// wrapping Int32 arithmetic as the reference's accumulator. Padding reads the byte `−o` (the
/// input zero point as an unsigned byte), whose value with the offset is 0, as the reference,
/// which skips those taps.
public enum DepthwiseQuadFilter {
    /// Quads per filter row: `⌈filterWidth / 4⌉`.
    public static func quadsPerRow(_ g: ConvolutionGeometry) -> Int { (g.filterWidth + 3) / 4 }

    /// Int32 words of the packed filter in `parts` parts: the quads, then the bias corrections.
    public static func wordCount(_ g: ConvolutionGeometry, parts: Int) -> Int {
        (g.filterHeight * quadsPerRow(g) * parts + 1) * g.outputDepth
    }

    /// The offset `o` the dot products' unsigned bytes take (see the type's notes).
    static func unsignedOffset(inputOffset: Int32, signedInput: Bool) -> Int32 {
        signedInput ? inputOffset - 128 : inputOffset
    }

    /// The unsigned padding byte, `−o`, or nil when that is not a byte (an input offset that is
    /// not a zero point of the type).
    public static func paddingByte(inputOffset: Int32, signedInput: Bool) -> UInt8? {
        UInt8(exactly: -unsignedOffset(inputOffset: inputOffset, signedInput: signedInput))
    }

    /// The weight `i` of 8-bit `weights` (int8 where `signed`), as an Int32.
    @inline(__always)
    private static func weight(_ weights: UnsafePointer<UInt8>, _ i: Int, signed: Bool) -> Int32 {
        signed ? Int32(Int8(bitPattern: weights[i])) : Int32(weights[i])
    }

    /// The parts the 8-bit `weights` take (1: every `w + filterOffset` a signed byte; 2: all in
    /// −255…254), or nil when they take neither or there is no padding byte. `signedWeights`:
    /// int8 weights (uint8 otherwise). Complexity: O(count).
    public static func parts(_ weights: UnsafeBufferPointer<UInt8>, signedWeights: Bool, filterOffset: Int32,
                             inputOffset: Int32, signedInput: Bool) -> Int? {
        guard paddingByte(inputOffset: inputOffset, signedInput: signedInput) != nil else { return nil }
        guard let base = weights.baseAddress, !weights.isEmpty else { return 1 }
        var (lowest, highest) = (Int32.max, Int32.min)
        for i in 0..<weights.count {
            let value = weight(base, i, signed: signedWeights) + filterOffset
            (lowest, highest) = (min(lowest, value), max(highest, value))
        }
        if lowest >= -128 && highest <= 127 { return 1 }
        return lowest >= -255 && highest <= 254 ? 2 : nil
    }

    /// Packs the `[1, filterHeight, filterWidth, channels]` 8-bit filter of layer `g` (depth
    /// multiplier 1; int8 where `signedWeights`) in `parts` parts. Precondition: `parts` is what
    /// `parts(_:signedWeights:filterOffset:inputOffset:signedInput:)` gives, or 2 where it gives
    /// 1; `weights` holds the layer's `filterHeight · filterWidth · channels` weights.
    /// Complexity: O(filter size).
    public static func pack(_ weights: UnsafePointer<UInt8>, signedWeights: Bool, _ g: ConvolutionGeometry, parts: Int,
                            filterOffset: Int32, inputOffset: Int32, signedInput: Bool) throws -> AlignedArray<Int32> {
        precondition(parts == 1 || parts == 2, "depthwise quads: one or two weight parts")
        let c = g.outputDepth, quads = quadsPerRow(g)
        let o = unsignedOffset(inputOffset: inputOffset, signedInput: signedInput)
        return try AlignedArray(zeroedCount: wordCount(g, parts: parts)) { words in
            let corrections = words.baseAddress! + g.filterHeight * quads * parts * c
            for ky in 0..<g.filterHeight {
                for kx in 0..<g.filterWidth {
                    let quad = words.baseAddress! + (ky * quads + kx / 4) * parts * c
                    let shift = 8 * (kx % 4)
                    let tap = (ky * g.filterWidth + kx) * c
                    for ch in 0..<c {
                        let w = weight(weights, tap + ch, signed: signedWeights) + filterOffset
                        let first = parts == 1 ? w : w >> 1, second = w - first
                        precondition(Int8(exactly: first) != nil && Int8(exactly: second) != nil,
                                     "depthwise quads: weight \(w) does not fit \(parts) part(s)")
                        quad[ch] |= Int32(bitPattern: UInt32(UInt8(truncatingIfNeeded: first)) << shift)
                        if parts == 2 { quad[c + ch] |= Int32(bitPattern: UInt32(UInt8(truncatingIfNeeded: second)) << shift) }
                        corrections[ch] = corrections[ch] &+ o &* w
                    }
                }
            }
        }
    }
}
