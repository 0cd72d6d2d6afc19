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

    /// The parts the 8-bit `weights` take (1: every `w + filterOffset` a signed byte; 2: all in
    /// −255…254), or nil when they take neither or there is no padding byte. `signedWeights`:
    /// int8 weights (uint8 otherwise). Complexity: O(count).
    public static func parts(_ weights: UnsafeBufferPointer<UInt8>, signedWeights: Bool, filterOffset: Int32,
                             inputOffset: Int32, signedInput: Bool) -> Int? {
        guard paddingByte(inputOffset: inputOffset, signedInput: signedInput) != nil else { return nil }
        guard let base = weights.baseAddress, !weights.isEmpty else { return 1 }
        let (lowest, highest) = signedWeights
            ? range(weights.count) { Int32(Int8(bitPattern: base[$0])) &+ filterOffset }
            : range(weights.count) { Int32(base[$0]) &+ filterOffset }
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
            var outside: UInt32 = 0     // nonzero when a part did not fit a signed byte
            for ky in 0..<g.filterHeight {
                for kx in 0..<g.filterWidth {
                    let quad = words.baseAddress! + (ky * quads + kx / 4) * parts * c
                    let shift = UInt32(8 * (kx % 4))
                    let tap = weights + (ky * g.filterWidth + kx) * c
                    let tapOutside = signedWeights
                        ? packTap(c, parts: parts, shift: shift, into: quad, corrections, offset: o) {
                            Int32(Int8(bitPattern: tap[$0])) &+ filterOffset
                        }
                        : packTap(c, parts: parts, shift: shift, into: quad, corrections, offset: o) {
                            Int32(tap[$0]) &+ filterOffset
                        }
                    outside |= tapOutside
                }
            }
            precondition(outside == 0, "depthwise quads: a weight does not fit \(parts) part(s)")
        }
    }

    /// The lowest and highest of `value(i)` for `i` in `0..<count` (`count ≥ 1`), in one
    /// branch-free pass (the weights' signedness decided once, by the caller's closure).
    @inline(__always)
    private static func range(_ count: Int, _ value: (Int) -> Int32) -> (Int32, Int32) {
        var lowest = Int32.max, highest = Int32.min
        for i in 0..<count {
            let v = value(i)
            lowest = Swift.min(lowest, v)
            highest = Swift.max(highest, v)
        }
        return (lowest, highest)
    }

    /// Adds one tap's weights `w'(ch)` (`weight(ch)`, ch in `0..<channels`) to the words at
    /// `quad` (byte `shift / 8` of each; the second part `channels` words on) and `o · w'` to the
    /// channels' corrections. Returns nonzero when a part is not a signed byte. Branch-free per
    /// channel, so the loop vectorizes.
    @inline(__always)
    private static func packTap(_ channels: Int, parts: Int, shift: UInt32, into quad: UnsafeMutablePointer<Int32>,
                                _ corrections: UnsafeMutablePointer<Int32>, offset o: Int32,
                                weight: (Int) -> Int32) -> UInt32 {
        var outside: UInt32 = 0
        if parts == 1 {
            for ch in 0..<channels {
                let w = weight(ch)
                quad[ch] |= Int32(bitPattern: (UInt32(bitPattern: w) & 0xFF) &<< shift)
                corrections[ch] = corrections[ch] &+ o &* w
                outside |= UInt32(bitPattern: w &+ 128) & ~0xFF
            }
        } else {
            for ch in 0..<channels {
                let w = weight(ch), first = w &>> 1, second = w &- first
                quad[ch] |= Int32(bitPattern: (UInt32(bitPattern: first) & 0xFF) &<< shift)
                quad[channels &+ ch] |= Int32(bitPattern: (UInt32(bitPattern: second) & 0xFF) &<< shift)
                corrections[ch] = corrections[ch] &+ o &* w
                outside |= (UInt32(bitPattern: first &+ 128) | UInt32(bitPattern: second &+ 128)) & ~0xFF
            }
        }
        return outside
    }
}
