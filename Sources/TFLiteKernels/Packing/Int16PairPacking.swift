/// The int16-pair layout of the quantized GEMM (`QuantizedGEMM`), shared by uint8, int8 and
/// hybrid CONV_2D and FULLY_CONNECTED.
///
/// Activations become `Int16` values `x + inputOffset` (|value| ≤ 255), one pixel after the other
/// with the channel count padded to an even `pairedDepth` (pad channels 0), so every pair of
/// channels `(2j, 2j + 1)` is one 32-bit word. Weights become `Int16` values `w + filterOffset`
/// in panels of `panelWidth` output channels: panel `p` holds, for every filter tap and every
/// input-channel pair `j`, `panelWidth` 32-bit words; word `l` is the weights of output channel
/// `panelWidth·p + l` for channels `2j` (low half) and `2j + 1` (high half). That is the operand
/// form of a pairwise multiply-add (`pmaddwd`, `vpdpwssd`): a broadcast input pair against one
/// word per output channel. Products are at most 255·255 and int32 sums stay exact.
public enum Int16PairPacking {
    /// Output channels per weight panel (one 512-bit register of Int32 results).
    public static let panelWidth = 16

    /// Number of weight panels for `outputDepth` channels.
    public static func panelCount(outputDepth: Int) -> Int { (outputDepth + panelWidth - 1) / panelWidth }

    /// Channels per pixel in the paired activation layout: `depth` rounded up to even.
    public static func pairedDepth(_ depth: Int) -> Int { (depth + 1) & ~1 }

    /// `Int16` elements of a packed filter.
    public static func packedCount(outputDepth: Int, taps: Int, inputDepth: Int) -> Int {
        panelCount(outputDepth: outputDepth) * taps * pairedDepth(inputDepth) * panelWidth
    }

    /// Elements of the paired activation buffer for `pixels` pixels of `depth` channels,
    /// including one trailing zero pixel that padding taps read.
    public static func activationCount(pixels: Int, depth: Int) -> Int { (pixels + 1) * pairedDepth(depth) }

    /// Packs a filter `[outputDepth, taps, inputDepth]` as `w + offset` (the filter offset is the
    /// negated weight zero point; 0 for symmetric int8 weights). Padding channels and padding
    /// lanes are 0.
    /// - Precondition: `outputDepth`, `taps` and `inputDepth` are not negative; `filter` holds
    ///   `outputDepth × taps × inputDepth` weights.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func pack<Weight: FixedWidthInteger>(_ filter: UnsafePointer<Weight>, offset: Int32,
                                                       outputDepth: Int, taps: Int, inputDepth: Int) -> [Int16] {
        packPairs(filter, offset: offset, outputDepth: outputDepth, taps: taps, inputDepth: inputDepth)
    }

    /// `pack` for uint8 weights, specialized here: callers in other modules would otherwise run
    /// the generic body with a closure call per weight (measured: most of yolov8n's load time).
    public static func pack(_ filter: UnsafePointer<UInt8>, offset: Int32, outputDepth: Int, taps: Int,
                            inputDepth: Int) -> [Int16] {
        packPairs(filter, offset: offset, outputDepth: outputDepth, taps: taps, inputDepth: inputDepth)
    }

    /// `pack` for int8 weights, specialized here (see the uint8 form).
    public static func pack(_ filter: UnsafePointer<Int8>, offset: Int32, outputDepth: Int, taps: Int,
                            inputDepth: Int) -> [Int16] {
        packPairs(filter, offset: offset, outputDepth: outputDepth, taps: taps, inputDepth: inputDepth)
    }

    /// `pack` into cache-line-aligned memory, written in place (no intermediate array): the
    /// form the interpreter keeps, packed at every model load.
    /// - Throws: `AlignedArrayAllocationError` when the system cannot provide the memory.
    public static func packAligned(_ filter: UnsafePointer<UInt8>, offset: Int32, outputDepth: Int, taps: Int,
                                   inputDepth: Int) throws -> AlignedArray<Int16> {
        try packPairsAligned(filter, offset: offset, outputDepth: outputDepth, taps: taps, inputDepth: inputDepth)
    }

    /// `packAligned` for int8 weights.
    public static func packAligned(_ filter: UnsafePointer<Int8>, offset: Int32, outputDepth: Int, taps: Int,
                                   inputDepth: Int) throws -> AlignedArray<Int16> {
        try packPairsAligned(filter, offset: offset, outputDepth: outputDepth, taps: taps, inputDepth: inputDepth)
    }

    @inline(__always)
    static func packPairs<Weight: FixedWidthInteger>(_ filter: UnsafePointer<Weight>, offset: Int32,
                                                     outputDepth: Int, taps: Int, inputDepth: Int) -> [Int16] {
        var packed = [Int16](repeating: 0, count: packedCount(outputDepth: outputDepth, taps: taps, inputDepth: inputDepth))
        packed.withUnsafeMutableBufferPointer { dst in
            packPairs(filter, offset: offset, outputDepth: outputDepth, taps: taps, inputDepth: inputDepth, into: dst)
        }
        return packed
    }

    /// The body of both `packAligned`s (`Weight` is `Int8` or `UInt8`): written straight into
    /// cache-line-aligned memory in destination order, every element once (padding included, so
    /// no zero fill), 8 pairs of 16 lanes at a time transposed in registers. The weight-major
    /// loop it replaces wrote one 32-bit word per cache line visited and was two thirds of
    /// efficientnet_lite0's prepare at `LITEVISION_ISA=avx2` on the AMD Zen 4 (EPYC family 25
    /// model 17; with the region's huge pages sized for the pairs, 13.65 → 7.22 ms).
    @inline(__always)
    static func packPairsAligned<Weight: FixedWidthInteger>(
        _ filter: UnsafePointer<Weight>, offset: Int32, outputDepth: Int, taps: Int, inputDepth: Int
    ) throws -> AlignedArray<Int16> {
        precondition(MemoryLayout<Weight>.size == 1, "Int16PairPacking.packAligned: 8-bit weights only")
        KernelPrecondition.check(outputDepth >= 0 && taps >= 0 && inputDepth >= 0,
                                 "Int16PairPacking.packAligned: outputDepth \(outputDepth), taps \(taps), inputDepth \(inputDepth)")
        let count = packedCount(outputDepth: outputDepth, taps: taps, inputDepth: inputDepth)
        let o = Int16(truncatingIfNeeded: offset)
        return try AlignedArray(count: count) { buffer in
            guard count > 0, let start = buffer.baseAddress else { return }
            let end = writePairPanels(filter, outputDepth: outputDepth, taps: taps, inputDepth: inputDepth,
                                      wordBytes: 4, to: UnsafeMutableRawPointer(start)) { row, laneStride, d in
                transposePairBlocks(row, laneStride: laneStride, offset: o, into: d)
            } word: { pair, hasHigh in
                guard let pair else { return 0 as UInt32 }
                let low = Int16(truncatingIfNeeded: pair[0]) &+ o
                let high = hasHigh ? Int16(truncatingIfNeeded: pair[1]) &+ o : 0
                return UInt32(UInt16(bitPattern: low)) | UInt32(UInt16(bitPattern: high)) &<< 16
            }
            precondition(end == UnsafeMutableRawPointer(start) + 2 &* count,
                         "pair packing wrote \(end - UnsafeMutableRawPointer(start)) of \(2 &* count) bytes")
        }
    }

    /// The destination-order loop of both aligned pair packings (`wordBytes` per lane and word:
    /// 4 for int16 pairs, 2 for byte pairs), from `start`: for every tap of every panel, 8 words of
    /// a full panel at a time through `block(row, laneStride, destination)` (the lanes' weights
    /// from `row`, `laneStride` apart), the other words lane by lane through `word(pair, hasHigh)`
    /// (the lane's two weights, the second past the input depth when `hasHigh` is false; nil for
    /// a padding lane). Writes every byte once; returns the end.
    @inline(__always)
    private static func writePairPanels<Weight, Word: FixedWidthInteger>(
        _ filter: UnsafePointer<Weight>, outputDepth: Int, taps: Int, inputDepth: Int, wordBytes: Int,
        to start: UnsafeMutableRawPointer, block: (UnsafePointer<Weight>, Int, UnsafeMutableRawPointer) -> Void,
        word: (_ pair: UnsafePointer<Weight>?, _ hasHigh: Bool) -> Word
    ) -> UnsafeMutableRawPointer {
        precondition(MemoryLayout<Word>.size == wordBytes, "writePairPanels: \(Word.self) is not \(wordBytes) bytes")
        let words = pairedDepth(inputDepth) / 2, fullWords = inputDepth / 2
        let laneStride = taps &* inputDepth
        let wordBlockBytes = wordBytes &* panelWidth   // one pair of every lane
        var d = start
        forEachPanelTap(outputDepth: outputDepth, taps: taps) { firstChannel, lanes, t in
            let row = filter + (firstChannel &* taps &+ t) &* inputDepth
            var j = 0
            if lanes == panelWidth {
                while j &+ 8 <= fullWords {
                    block(row + 2 &* j, laneStride, d)
                    d += 8 &* wordBlockBytes
                    j &+= 8
                }
            }
            for j in j..<words {
                let hasHigh = 2 &* j &+ 1 < inputDepth
                for l in 0..<panelWidth {
                    let value = word(l < lanes ? row + (l &* laneStride &+ 2 &* j) : nil, hasHigh)
                    d.storeBytes(of: value, toByteOffset: wordBytes &* l, as: Word.self)
                }
                d += wordBlockBytes
            }
        }
        return d
    }

    /// The 8-bit weights of `filter` (`[outputDepth, taps, inputDepth]`, int8 or uint8 as bit
    /// patterns) in the order of `pack`'s pairs, one byte per weight and no offset (the layouts
    /// `int8WeightPairs` and `uint8WeightPairs`, whose kernels widen each byte and add the filter
    /// offset): `packedCount` bytes, half of `pack`'s. Padding channels and padding lanes are 0.
    /// Written as `packAligned` writes its pairs: in destination order, 8 words of a full panel's
    /// 16 lanes transposed in registers at a time.
    /// - Precondition: as `pack`'s. Checked under `LITEVISION_INTERNAL_CHECKS` as far as the
    ///   arguments show it.
    /// - Throws: `AlignedArrayAllocationError` when the system cannot provide the memory.
    public static func packBytesAligned(_ filter: UnsafePointer<UInt8>, outputDepth: Int, taps: Int,
                                        inputDepth: Int) throws -> AlignedArray<UInt8> {
        KernelPrecondition.check(outputDepth >= 0 && taps >= 0 && inputDepth >= 0,
                                 "Int16PairPacking.packBytesAligned: outputDepth \(outputDepth), taps \(taps), inputDepth \(inputDepth)")
        let count = packedCount(outputDepth: outputDepth, taps: taps, inputDepth: inputDepth)
        return try AlignedArray(count: count) { buffer in
            guard count > 0, let start = buffer.baseAddress else { return }
            let end = writePairPanels(filter, outputDepth: outputDepth, taps: taps, inputDepth: inputDepth,
                                      wordBytes: 2, to: UnsafeMutableRawPointer(start)) { row, laneStride, d in
                transposeBytePairBlocks(row, laneStride: laneStride, into: d)
            } word: { pair, hasHigh in
                guard let pair else { return 0 as UInt16 }
                return UInt16(pair[0]) | (hasHigh ? UInt16(pair[1]) &<< 8 : 0)
            }
            precondition(end == UnsafeMutableRawPointer(start) + count,
                         "byte pair packing wrote \(end - UnsafeMutableRawPointer(start)) of \(count) bytes")
        }
    }

    /// Writes eight byte pairs of each of the panel's 16 lanes (lane `l`'s 16 bytes at `source +
    /// l·laneStride`) in the packed order: pair 0 of every lane, then pair 1, … (8 × 32 bytes).
    @inline(__always)
    private static func transposeBytePairBlocks(_ source: UnsafePointer<UInt8>, laneStride: Int,
                                                into d: UnsafeMutableRawPointer) {
        storeTransposed(into: d) { lane in
            UnsafeRawPointer(source + lane &* laneStride).loadUnaligned(as: SIMD8<UInt16>.self)
        }
    }

    /// Stores word `k` of every lane's eight (`words(lane)`, lanes 0–15) as block `k` of the packed
    /// order: lane 0's word, lane 1's, … (8 blocks of 16 words), four lanes per store.
    @inline(__always)
    private static func storeTransposed<Word: SIMDScalar & FixedWidthInteger>(into d: UnsafeMutableRawPointer,
                                                                               _ words: (Int) -> SIMD8<Word>) {
        let size = MemoryLayout<Word>.size
        let wordBlockBytes = size &* panelWidth
        for l in stride(from: 0, to: panelWidth, by: 4) {
            let r0 = words(l), r1 = words(l &+ 1), r2 = words(l &+ 2), r3 = words(l &+ 3)
            for k in 0..<8 {
                d.storeBytes(of: SIMD4(r0[k], r1[k], r2[k], r3[k]), toByteOffset: k &* wordBlockBytes &+ size &* l,
                             as: SIMD4<Word>.self)
            }
        }
    }

    /// Calls `body(firstChannel, lanes, tap)` for every tap of every panel, in packed order: the
    /// loop of the destination-order packings (`packAligned` here and in `Int8QuadPacking`),
    /// whose `body` writes one tap's words of the panel's `lanes` channels (the rest padding).
    @inline(__always)
    static func forEachPanelTap(outputDepth: Int, taps: Int, _ body: (_ firstChannel: Int, _ lanes: Int, _ tap: Int) -> Void) {
        for panel in 0..<panelCount(outputDepth: outputDepth) {
            let firstChannel = panel &* panelWidth
            let lanes = Swift.min(panelWidth, outputDepth &- firstChannel)
            for t in 0..<taps { body(firstChannel, lanes, t) }
        }
    }

    /// Writes eight pairs (16 weights from each of the panel's 16 lanes, lane `l`'s at `source +
    /// l·laneStride`) as `w + offset` in the packed order: pair 0 of every lane, then pair 1, …
    /// (8 × 64 bytes).
    @inline(__always)
    private static func transposePairBlocks<Weight: FixedWidthInteger>(
        _ source: UnsafePointer<Weight>, laneStride: Int, offset: Int16, into d: UnsafeMutableRawPointer
    ) {
        storeTransposed(into: d) { lane in
            // Widened from concrete byte vectors: the generic conversion is a call per vector.
            let bytes = UnsafeRawPointer(source + lane &* laneStride).loadUnaligned(as: SIMD16<UInt8>.self)
            let values = Weight.isSigned ? SIMD16<Int16>(truncatingIfNeeded: unsafeBitCast(bytes, to: SIMD16<Int8>.self))
                                         : SIMD16<Int16>(truncatingIfNeeded: bytes)
            return unsafeBitCast(values &+ SIMD16(repeating: offset), to: SIMD8<UInt32>.self)
        }
    }

    @inline(__always)
    static func packPairs<Weight: FixedWidthInteger>(_ filter: UnsafePointer<Weight>, offset: Int32, outputDepth: Int,
                                                     taps: Int, inputDepth: Int, into dst: UnsafeMutableBufferPointer<Int16>) {
        packPanels(filter, outputDepth: outputDepth, taps: taps, inputDepth: inputDepth, channelsPerWord: 2, into: dst) {
            Int16(truncatingIfNeeded: Int32($0) &+ offset)
        }
    }

    /// The panel loop of both GEMM layouts: `filter` `[outputDepth, taps, inputDepth]` into panels
    /// of `panelWidth` output channels whose 32-bit words hold `channelsPerWord` consecutive input
    /// channels of one output channel (lowest channel first), each value mapped by `element`;
    /// the input depth is padded to a multiple of `channelsPerWord`, padding is 0.
    @inline(__always)
    static func packPanels<Weight, Element: FixedWidthInteger>(
        _ filter: UnsafePointer<Weight>, outputDepth: Int, taps: Int, inputDepth: Int, channelsPerWord: Int,
        _ element: (Weight) -> Element
    ) -> [Element] {
        let words = (inputDepth + channelsPerWord - 1) / channelsPerWord
        var packed = [Element](repeating: 0, count: panelCount(outputDepth: outputDepth) * taps * words * channelsPerWord * panelWidth)
        packed.withUnsafeMutableBufferPointer { dst in
            packPanels(filter, outputDepth: outputDepth, taps: taps, inputDepth: inputDepth, channelsPerWord: channelsPerWord,
                       into: dst, element)
        }
        return packed
    }

    /// `packPanels` into `dst`, which holds `panelCount · taps · words · channelsPerWord ·
    /// panelWidth` elements, zero where padding goes (only the weights are written).
    @inline(__always)
    static func packPanels<Weight, Element: FixedWidthInteger>(
        _ filter: UnsafePointer<Weight>, outputDepth: Int, taps: Int, inputDepth: Int, channelsPerWord: Int,
        into dst: UnsafeMutableBufferPointer<Element>, _ element: (Weight) -> Element
    ) {
        KernelPrecondition.check(outputDepth >= 0 && taps >= 0 && inputDepth >= 0 && channelsPerWord >= 1,
                                 "packPanels: outputDepth \(outputDepth), taps \(taps), inputDepth \(inputDepth)")
        let words = (inputDepth + channelsPerWord - 1) / channelsPerWord
        let panelStride = taps * words * channelsPerWord * panelWidth
        precondition(dst.count == panelCount(outputDepth: outputDepth) * panelStride, "packPanels: destination size")
        guard let start = dst.baseAddress else { return }
        // Word-major with wrapping arithmetic: no division per weight (this runs at every
        // model load, over every weight). Indices stay within `dst` by construction.
        let wordStride = panelWidth &* channelsPerWord
        for oc in 0..<outputDepth {
            let panelStart = (oc / panelWidth) &* panelStride
            let lane = (oc % panelWidth) &* channelsPerWord
            let channelBase = start + (panelStart &+ lane)
            for t in 0..<taps {
                let source = filter + (oc &* taps &+ t) &* inputDepth
                var word = channelBase + t &* words &* wordStride
                var c = 0
                while c < inputDepth {
                    let n = Swift.min(channelsPerWord, inputDepth &- c)
                    for k in 0..<n { word[k] = element(source[c &+ k]) }
                    c &+= channelsPerWord
                    word += wordStride
                }
            }
        }
    }

    /// Writes `pixels` pixels of `depth` uint8 channels as `x + offset` (offset: the negated input
    /// zero point) in the paired layout; odd depths get a 0 pad channel. The caller keeps the
    /// trailing zero pixel zero.
    /// - Precondition: `pixels ≥ 0`, `depth ≥ 0`; `x` holds `pixels × depth` values and `out`
    ///   room for `pixels × pairedDepth(depth)`.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func convert(_ x: UnsafePointer<UInt8>, pixels: Int, depth: Int, offset: Int32,
                               into out: UnsafeMutablePointer<Int16>) {
        convertPixels(x, pixels: pixels, depth: depth, offset: offset, into: out)
    }

    /// `convert` for int8 channels (offset: the negated input zero point; for hybrid inputs the
    /// negated per-batch offset of the on-the-fly quantization).
    public static func convert(_ x: UnsafePointer<Int8>, pixels: Int, depth: Int, offset: Int32,
                               into out: UnsafeMutablePointer<Int16>) {
        convertPixels(x, pixels: pixels, depth: depth, offset: offset, into: out)
    }

    /// The body of both `convert`s, specialized for each 8-bit source type.
    @inline(__always)
    static func convertPixels<Source: FixedWidthInteger>(_ x: UnsafePointer<Source>, pixels: Int, depth: Int, offset: Int32,
                                                         into out: UnsafeMutablePointer<Int16>) {
        KernelPrecondition.check(pixels >= 0 && depth >= 0, "Int16PairPacking.convert: \(pixels) pixels of depth \(depth)")
        let o = Int16(truncatingIfNeeded: offset)
        if depth & 1 == 0 {
            for i in 0..<(pixels * depth) { out[i] = Int16(truncatingIfNeeded: x[i]) &+ o }
            return
        }
        for p in 0..<pixels {
            let src = x + p * depth, dst = out + p * (depth + 1)
            for c in 0..<depth { dst[c] = Int16(truncatingIfNeeded: src[c]) &+ o }
            dst[depth] = 0
        }
    }
}
