/// The int8-quad layout of the quantized GEMM (`QuantizedGEMM.int8Quads`) for int8 CONV_2D and
/// FULLY_CONNECTED with symmetric weights (filter zero point 0), the operand form of `vpdpbusd`
/// (unsigned bytes × signed bytes, four products per 32-bit lane).
///
/// Activations become unsigned bytes `u = x + 128`, one pixel after the other with the channel
/// count padded to a multiple of 4 (`quadDepth`). Since `x − zp = u − (zp + 128)`,
/// `Σ w·(x − zp) = Σ w·u − (zp + 128)·Σ w`: the second term is a per-channel constant
/// (`biasCorrection`) added to the bias, and taps in the padding read a pixel of `zp + 128`
/// bytes, whose products cancel against the correction exactly as the reference skips them.
/// All sums are modulo 2^32 like the reference's Int32 accumulator, so the result is identical.
/// Weights stay int8 in panels of `Int16PairPacking.panelWidth` output channels: panel `p` holds,
/// for every tap and every quad `j` of input channels `4j ..< 4j + 4`, one 32-bit word per
/// output channel (its four weights, channel `4j` in the lowest byte).
public enum Int8QuadPacking {
    /// Channels per pixel in the quad layout: `depth` rounded up to a multiple of 4.
    public static func quadDepth(_ depth: Int) -> Int { (depth + 3) & ~3 }

    /// Bytes of a packed filter.
    public static func packedCount(outputDepth: Int, taps: Int, inputDepth: Int) -> Int {
        Int16PairPacking.panelCount(outputDepth: outputDepth) * taps * quadDepth(inputDepth) * Int16PairPacking.panelWidth
    }

    /// Bytes of the activation buffer for `pixels` pixels of `depth` channels, including the
    /// trailing padding pixel.
    public static func activationCount(pixels: Int, depth: Int) -> Int { (pixels + 1) * quadDepth(depth) }

    /// Packs an int8 filter `[outputDepth, taps, inputDepth]` (zero point 0), or a uint8 filter
    /// for the uint8-weight form (raw values). Padding is 0.
    /// - Precondition: as `Int16PairPacking.pack`'s: non-negative sizes, `filter` holds
    ///   `outputDepth × taps × inputDepth` weights.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func pack<Weight: FixedWidthInteger>(_ filter: UnsafePointer<Weight>, outputDepth: Int, taps: Int,
                                                       inputDepth: Int) -> [Weight] {
        packQuads(filter, outputDepth: outputDepth, taps: taps, inputDepth: inputDepth)
    }

    /// `pack` for int8 weights, specialized here: callers in other modules would otherwise run
    /// the generic body with a closure call per weight (as `Int16PairPacking.pack`'s overloads).
    public static func pack(_ filter: UnsafePointer<Int8>, outputDepth: Int, taps: Int, inputDepth: Int) -> [Int8] {
        packQuads(filter, outputDepth: outputDepth, taps: taps, inputDepth: inputDepth)
    }

    /// `pack` for uint8 weights, specialized here (see the int8 form).
    public static func pack(_ filter: UnsafePointer<UInt8>, outputDepth: Int, taps: Int, inputDepth: Int) -> [UInt8] {
        packQuads(filter, outputDepth: outputDepth, taps: taps, inputDepth: inputDepth)
    }

    /// The bytes of `pack` (for int8 weights pass their bit patterns), written straight into
    /// cache-line-aligned memory in destination order: every byte once, 32-bit words copied
    /// whole, no zero fill and no intermediate array (the packing runs over every weight at
    /// every model load).
    /// - Throws: `AlignedArrayAllocationError` when the system cannot provide the memory.
    public static func packAligned(_ filter: UnsafePointer<UInt8>, outputDepth: Int, taps: Int,
                                   inputDepth: Int) throws -> AlignedArray<UInt8> {
        let panelWidth = Int16PairPacking.panelWidth
        let count = packedCount(outputDepth: outputDepth, taps: taps, inputDepth: inputDepth)
        let fullWords = inputDepth / 4, tail = inputDepth % 4
        let laneStride = taps &* inputDepth
        return try AlignedArray(count: count) { buffer in
            guard count > 0, let start = buffer.baseAddress else { return }
            var d = UnsafeMutableRawPointer(start)
            Int16PairPacking.forEachPanelTap(outputDepth: outputDepth, taps: taps) { firstChannel, lanes, t in
                let row = UnsafeRawPointer(filter + (firstChannel &* taps &+ t) &* inputDepth)
                var j = 0
                if lanes == panelWidth {
                    // Four quads of four lanes at a time, transposed in registers: a quarter
                    // of the loads and stores of the word-by-word loop below.
                    while j &+ 4 <= fullWords {
                        transposeQuadBlocks(row + 4 &* j, laneStride: laneStride, into: d)
                        d += 16 &* panelWidth
                        j &+= 4
                    }
                }
                for j in j..<fullWords {
                    let word = row + 4 &* j
                    for l in 0..<lanes {
                        d.storeBytes(of: word.loadUnaligned(fromByteOffset: l &* laneStride, as: UInt32.self),
                                     toByteOffset: 4 &* l, as: UInt32.self)
                    }
                    for l in lanes..<panelWidth { d.storeBytes(of: 0, toByteOffset: 4 &* l, as: UInt32.self) }
                    d += 4 &* panelWidth
                }
                if tail > 0 {
                    let word = row + 4 &* fullWords
                    for l in 0..<panelWidth {
                        for k in 0..<4 {
                            let byte: UInt8 = l < lanes && k < tail ? word.load(fromByteOffset: l &* laneStride &+ k, as: UInt8.self) : 0
                            d.storeBytes(of: byte, toByteOffset: 4 &* l &+ k, as: UInt8.self)
                        }
                    }
                    d += 4 &* panelWidth
                }
            }
            precondition(d == UnsafeMutableRawPointer(start) + count, "quad packing wrote \(d - UnsafeMutableRawPointer(start)) of \(count) bytes")
        }
    }

    /// Writes four quads (16 bytes from each of the panel's 16 lanes, lane `l`'s at `source +
    /// l·laneStride`) in the packed order: quad 0 of every lane, then quad 1, … (4 × 64 bytes).
    @inline(__always)
    private static func transposeQuadBlocks(_ source: UnsafeRawPointer, laneStride: Int, into d: UnsafeMutableRawPointer) {
        for l in stride(from: 0, to: Int16PairPacking.panelWidth, by: 4) {
            let r0 = source.loadUnaligned(fromByteOffset: l &* laneStride, as: SIMD4<UInt32>.self)
            let r1 = source.loadUnaligned(fromByteOffset: (l &+ 1) &* laneStride, as: SIMD4<UInt32>.self)
            let r2 = source.loadUnaligned(fromByteOffset: (l &+ 2) &* laneStride, as: SIMD4<UInt32>.self)
            let r3 = source.loadUnaligned(fromByteOffset: (l &+ 3) &* laneStride, as: SIMD4<UInt32>.self)
            let quadBytes = 4 &* Int16PairPacking.panelWidth
            d.storeBytes(of: SIMD4(r0[0], r1[0], r2[0], r3[0]), toByteOffset: 4 &* l, as: SIMD4<UInt32>.self)
            d.storeBytes(of: SIMD4(r0[1], r1[1], r2[1], r3[1]), toByteOffset: quadBytes &+ 4 &* l, as: SIMD4<UInt32>.self)
            d.storeBytes(of: SIMD4(r0[2], r1[2], r2[2], r3[2]), toByteOffset: 2 &* quadBytes &+ 4 &* l, as: SIMD4<UInt32>.self)
            d.storeBytes(of: SIMD4(r0[3], r1[3], r2[3], r3[3]), toByteOffset: 3 &* quadBytes &+ 4 &* l, as: SIMD4<UInt32>.self)
        }
    }

    @inline(__always)
    static func packQuads<Weight: FixedWidthInteger>(_ filter: UnsafePointer<Weight>, outputDepth: Int, taps: Int,
                                                     inputDepth: Int) -> [Weight] {
        Int16PairPacking.packPanels(filter, outputDepth: outputDepth, taps: taps, inputDepth: inputDepth,
                                    channelsPerWord: 4) { $0 }
    }

    /// `−(zp + 128) · Σ w` per output channel (inputOffset is `−zp`), to add to the bias.
    /// - Precondition: `outputDepth ≥ 0`, `depth ≥ 0`; `filter` holds `outputDepth × depth`
    ///   weights. Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func biasCorrection(_ filter: UnsafePointer<Int8>, outputDepth: Int, depth: Int,
                                      inputOffset: Int32) -> [Int32] {
        KernelPrecondition.check(outputDepth >= 0 && depth >= 0, "biasCorrection: \(outputDepth) channels of depth \(depth)")
        let shift = 128 &- inputOffset
        return (0..<outputDepth).map { oc in
            0 &- shift &* ByteRowSum.sum(filter + oc &* depth, count: depth, signed: true)
        }
    }

    /// The activation byte of a padding tap: `zp + 128` (`inputOffset` is `−zp`).
    public static func paddingByte(inputOffset: Int32) -> UInt8 { UInt8(truncatingIfNeeded: 128 &- inputOffset) }

    /// Writes `pixels` pixels of `depth` int8 channels as `x + 128` in the quad layout (pad
    /// channels 0; their weights are 0).
    /// - Precondition: `pixels ≥ 0`, `depth ≥ 0`; `x` holds `pixels × depth` values and `out`
    ///   room for `pixels × quadDepth(depth)`, not overlapping them.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func convert(_ x: UnsafePointer<Int8>, pixels: Int, depth: Int, into out: UnsafeMutablePointer<UInt8>) {
        KernelPrecondition.check(pixels >= 0 && depth >= 0, "Int8QuadPacking.convert: \(pixels) pixels of depth \(depth)")
        let stride = quadDepth(depth)
        let src = UnsafeRawPointer(x).assumingMemoryBound(to: UInt8.self)
        if stride == depth {
            flipSignBits(src, count: pixels * depth, into: out)
            return
        }
        for p in 0..<pixels {
            let s = src + p * depth, d = out + p * stride
            flipSignBits(s, count: depth, into: d)
            for c in depth..<stride { d[c] = 0 }
        }
    }

    /// `out[i] = x[i] ^ 0x80` for `i < count` (the regions must not overlap): the generated
    /// `FlipSignBitsAVX` where there is one, for all but the last partial step, then 16 bytes per
    /// step. SIMD16: one register in the default build (SSE2); a SIMD64 there was measured 20×
    /// slower.
    @inline(__always)
    static func flipSignBits(_ x: UnsafePointer<UInt8>, count: Int, into out: UnsafeMutablePointer<UInt8>) {
        let flip = SIMD16<UInt8>(repeating: 0x80)
        var i = 0
        if let generated = GeneratedKernels.current?.flipSignBits, count >= generated.bytesPerStep {
            i = flipSignBitsGenerated(generated.function, bytesPerStep: generated.bytesPerStep, x, count: count, into: out)
        }
        while i + 16 <= count {
            let v = UnsafeRawPointer(x + i).loadUnaligned(as: SIMD16<UInt8>.self)
            UnsafeMutableRawPointer(out + i).storeBytes(of: v ^ flip, as: SIMD16<UInt8>.self)
            i += 16
        }
        while i < count { out[i] = x[i] ^ 0x80; i += 1 }
    }

    /// Runs `kernel` on `x[0..<count]`; returns the bytes it converted (whole steps of
    /// `bytesPerStep`).
    /// - Precondition: `count ≥ 0`; `x` and `out` hold `count` bytes, the same bytes or not
    ///   overlapping. Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it
    ///   (`GeneratedByteTableArguments.violation`).
    @inline(never)
    static func flipSignBitsGenerated(_ kernel: FlipSignBitsAVX.Function, bytesPerStep: Int, _ x: UnsafePointer<UInt8>,
                                      count: Int, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var pattern: UInt32 = 0x8080_8080
        return withUnsafePointer(to: &pattern) { p in
            var arguments = GeneratedByteTableArguments(source: UnsafeRawPointer(x), destination: UnsafeMutableRawPointer(out),
                                                        count: count, table: UnsafeRawPointer(p))
            KernelPrecondition.holds(arguments.violation())
            withUnsafePointer(to: &arguments) { kernel(UnsafeRawPointer($0)) }
            return count - count % bytesPerStep
        }
    }

    /// The uint8 `convert` of a depth that is a multiple of 16 (its quad layout is the pixels
    /// back to back) through `kernel`, `FlipSignBitsPixelSumsAVX` with vectors of `vectorBytes`.
    /// - Precondition: as `convert`'s, and `depth % 16 == 0`. Checked under
    ///   `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it (`GeneratedPixelSumArguments.violation`).
    @inline(never)
    static func convertGenerated(_ kernel: FlipSignBitsPixelSumsAVX.Function, vectorBytes: Int, _ x: UnsafePointer<UInt8>,
                                 pixels: Int, depth: Int, into out: UnsafeMutablePointer<UInt8>,
                                 sums: UnsafeMutablePointer<Int32>) {
        precondition(depth % 16 == 0, "the generated pixel sums take whole 16-byte parts")
        var arguments = GeneratedPixelSumArguments(source: UnsafeRawPointer(x), destination: UnsafeMutableRawPointer(out),
                                                   pixels: pixels, vectorsPerPixel: depth / vectorBytes,
                                                   tailBytes: depth % vectorBytes, sums: sums,
                                                   offset: -128 &* Int32(truncatingIfNeeded: depth))
        KernelPrecondition.holds(arguments.violation(vectorBytes: vectorBytes))
        withUnsafePointer(to: &arguments) { kernel(UnsafeRawPointer($0)) }
    }

    // MARK: uint8 weights (uint8 CONV_2D / FULLY_CONNECTED)
    //
    // With uint8 weights `w` (zero point zw) the roles swap: weights are the unsigned operand and
    // activations the signed one, `a = x − 128`. Over the n window values (padding taps reading
    // `a = zp − 128`, which contributes nothing to the reference sum):
    // `Σ (w − zw)(x − zp) = Σ w·a − zw·Σ a + (128 − zp)·(Σ w − n·zw)`.
    // The last term is a per-channel constant (`unsignedWeightBiasCorrection`); `Σ a` is the
    // pixel's window sum, added per output pixel by the GEMM (`QuantizedGEMMWindowSums`).

    /// `(128 − zp)·(Σ w − n·zw)` per output channel (`inputOffset = −zp`, `filterOffset = −zw`,
    /// n = `depth`), to add to the bias.
    /// - Precondition: as `biasCorrection`'s. Checked under `LITEVISION_INTERNAL_CHECKS` as far as
    ///   the arguments show it.
    public static func unsignedWeightBiasCorrection(_ filter: UnsafePointer<UInt8>, outputDepth: Int, depth: Int,
                                                    inputOffset: Int32, filterOffset: Int32) -> [Int32] {
        KernelPrecondition.check(outputDepth >= 0 && depth >= 0,
                                 "unsignedWeightBiasCorrection: \(outputDepth) channels of depth \(depth)")
        return (0..<outputDepth).map { oc in
            let sum = ByteRowSum.sum(filter + oc &* depth, count: depth, signed: false)
            return (128 &+ inputOffset) &* (sum &+ Int32(truncatingIfNeeded: depth) &* filterOffset)
        }
    }

    /// The activation byte of a padding tap in the uint8-weight form: `zp − 128` as a signed byte.
    public static func unsignedWeightPaddingByte(inputOffset: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: 0 &- inputOffset) ^ 0x80
    }

    /// Fills the trailing padding pixel of an activation buffer of `pixels` pixels with `value`.
    /// - Precondition: `pixels ≥ 0`, `depth ≥ 0`; `buffer` holds `activationCount(pixels:depth:)`
    ///   bytes. Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func fillPaddingPixel(_ buffer: UnsafeMutablePointer<UInt8>, pixels: Int, depth: Int, value: UInt8) {
        KernelPrecondition.check(pixels >= 0 && depth >= 0, "fillPaddingPixel: \(pixels) pixels of depth \(depth)")
        let stride = quadDepth(depth)
        for c in 0..<stride { buffer[pixels * stride + c] = value }
    }

    /// Writes `pixels` pixels of `depth` uint8 channels as signed `x − 128` in the quad layout (pad
    /// channels 0) and each pixel's sum `Σ (x − 128)` to `sums`.
    /// - Precondition: as the int8 form's, and `sums` has room for `pixels` values. Checked under
    ///   `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func convert(_ x: UnsafePointer<UInt8>, pixels: Int, depth: Int, into out: UnsafeMutablePointer<UInt8>,
                               sums: UnsafeMutablePointer<Int32>) {
        KernelPrecondition.check(pixels >= 0 && depth >= 0, "Int8QuadPacking.convert: \(pixels) pixels of depth \(depth)")
        if depth % 16 == 0, let generated = GeneratedKernels.current?.flipSignBitsPixelSums {
            convertGenerated(generated.function, vectorBytes: generated.vectorBytes, x, pixels: pixels, depth: depth,
                             into: out, sums: sums)
            return
        }
        let stride = quadDepth(depth)
        let flip = SIMD16<UInt8>(repeating: 0x80)
        for p in 0..<pixels {
            let s = x + p * depth, d = out + p * stride
            // 16 bytes per step, summed in 16-bit lanes: at most 255 per lane per step, flushed
            // to 32 bits every 256 steps, before a lane could pass 65,535.
            var sum: UInt32 = 0, lanes = SIMD16<UInt16>(), steps = 0, c = 0
            while c + 16 <= depth {
                let v = UnsafeRawPointer(s + c).loadUnaligned(as: SIMD16<UInt8>.self)
                UnsafeMutableRawPointer(d + c).storeBytes(of: v ^ flip, as: SIMD16<UInt8>.self)
                lanes &+= SIMD16<UInt16>(truncatingIfNeeded: v)
                c += 16; steps += 1
                if steps == 256 { sum &+= SIMD16<UInt32>(truncatingIfNeeded: lanes).wrappedSum(); lanes = .init(); steps = 0 }
            }
            sum &+= SIMD16<UInt32>(truncatingIfNeeded: lanes).wrappedSum()
            while c < depth { d[c] = s[c] ^ 0x80; sum &+= UInt32(s[c]); c += 1 }
            for c in depth..<stride { d[c] = 0 }
            sums[p] = Int32(bitPattern: sum) &- 128 &* Int32(depth)
        }
    }
}
