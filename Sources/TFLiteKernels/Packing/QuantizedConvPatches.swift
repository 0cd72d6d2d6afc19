/// Patch (im2col) form of a quantized CONV_2D with few input channels, such as the RGB stem of a
/// vision model: with 3 channels, each filter tap is a single 32-bit word of the GEMM layouts and
/// a tile spends more time on its tap table than on products. Gathering each output pixel's whole
/// window (`taps · inputDepth` values, padding taps as the layout's padding value) into one row
/// turns the layer into a 1×1 convolution over `patchGeometry`, whose filter is the original one
/// read as `[outputDepth, 1, 1, taps · inputDepth]`. Sums are unchanged, so results stay exact.
public enum QuantizedConvPatches {
    /// Whether `g` should run in patch form: several taps over fewer than 8 input channels.
    public static func prefersPatches(_ g: ConvolutionGeometry) -> Bool {
        g.inputDepth < 8 && g.filterHeight * g.filterWidth > 1
    }

    /// The 1×1 convolution over the patch rows of `g`.
    public static func patchGeometry(_ g: ConvolutionGeometry) -> ConvolutionGeometry {
        let depth = g.filterHeight * g.filterWidth * g.inputDepth
        return ConvolutionGeometry(batches: g.batches, inputHeight: g.outputHeight, inputWidth: g.outputWidth,
                                   inputDepth: depth, filterHeight: 1, filterWidth: 1, filterInputDepth: depth,
                                   outputHeight: g.outputHeight, outputWidth: g.outputWidth, outputDepth: g.outputDepth)
    }

    /// The gathers' precondition on `pixels` (see `gatherPairs`), checked under `LITEVISION_INTERNAL_CHECKS`.
    @inline(__always)
    static func checkPixels(_ pixels: Range<Int>, _ g: ConvolutionGeometry) {
        KernelPrecondition.check(pixels.lowerBound >= 0 && pixels.upperBound <= g.outputHeight * g.outputWidth,
                                 "patch gather: pixels \(pixels) outside \(g.outputHeight) × \(g.outputWidth)")
    }

    /// Gathers the patch rows of output pixels `pixels` (indices within batch image `image`'s
    /// `outputHeight · outputWidth`) into `out` (the patch buffer of that image), each row
    /// `rowStride` elements: the window's values mapped by `convert`, `padding` for taps outside
    /// the input, then `tail` up to `rowStride`.
    @inline(__always)
    static func gather<Source, Target>(_ image: UnsafePointer<Source>, _ g: ConvolutionGeometry, pixels: Range<Int>,
                                       rowStride: Int, padding: Target, tail: Target, into out: UnsafeMutablePointer<Target>,
                                       _ convert: (Source) -> Target) {
        checkPixels(pixels, g)
        let cin = g.inputDepth
        let rowRun = g.filterWidth * cin
        let used = g.filterHeight * rowRun
        for p in pixels {
            let ox = p % g.outputWidth, oy = p / g.outputWidth
            let y0 = oy * g.strideHeight - g.padTop, x0 = ox * g.strideWidth - g.padLeft
            // With dilation 1 and the window inside horizontally, each filter row is one
            // contiguous run of `filterWidth · inputDepth` values.
            let rowsContiguous = g.dilationWidth == 1 && x0 >= 0 && x0 + g.filterWidth <= g.inputWidth
            var dst = out + p * rowStride
            for fy in 0..<g.filterHeight {
                let iy = y0 + fy * g.dilationHeight
                if iy < 0 || iy >= g.inputHeight {
                    for k in 0..<rowRun { dst[k] = padding }
                } else if rowsContiguous {
                    let src = image + (iy * g.inputWidth + x0) * cin
                    for k in 0..<rowRun { dst[k] = convert(src[k]) }
                } else {
                    for fx in 0..<g.filterWidth {
                        let ix = x0 + fx * g.dilationWidth
                        let tap = dst + fx * cin
                        if ix >= 0 && ix < g.inputWidth {
                            let src = image + (iy * g.inputWidth + ix) * cin
                            for c in 0..<cin { tap[c] = convert(src[c]) }
                        } else {
                            for c in 0..<cin { tap[c] = padding }
                        }
                    }
                }
                dst += rowRun
            }
            for c in used..<rowStride { dst[c - used] = tail }
        }
    }

    /// `gather` for the quad layouts, whose conversion flips each byte's sign bit (`x ^ 0x80`):
    /// each run of input bytes (a filter row, or one tap when the window is cut by the border) is
    /// converted 16 bytes per step, its last step allowed to spill into the row's next bytes
    /// (written after it, in increasing order) while it stays inside the image and the row.
    ///
    /// A window inside the input whose filter rows are at most 16 bytes (an RGB stem's 3×3 or
    /// 5×5) takes one 16-byte load and store per filter row and one 8-byte store of the tail:
    /// each store may spill into the next patch row, which is written after it, so every pixel
    /// but the range's last runs this way. Such pixels go a run at a time (the rest of their output
    /// row whose windows and loads stay inside the image), their bounds checked once per run;
    /// the patch rows of a 640 × 640 RGB stem gather 1.5× as fast as with per-pixel checks.
    /// Pixels are walked by row and column (no division).
    static func gatherFlippedBytes(_ image: UnsafePointer<UInt8>, _ g: ConvolutionGeometry, pixels: Range<Int>,
                                   rowStride: Int, padding: UInt8, tail: UInt8, into out: UnsafeMutablePointer<UInt8>) {
        checkPixels(pixels, g)
        guard !pixels.isEmpty else { return }
        let cin = g.inputDepth
        let rowRun = g.filterWidth * cin
        let used = g.filterHeight * rowRun
        let imageCount = g.inputHeight * g.inputWidth * cin
        let imageEnd = image + imageCount
        let filterRowStep = g.dilationHeight * g.inputWidth * cin
        let spillingRows = spills(g, rowStride: rowStride) && rowStride - used <= 8
        let tailWord = UInt64(tail) &* 0x0101_0101_0101_0101
        let flip = SIMD16<UInt8>(repeating: 0x80)
        let pixelStep = g.strideWidth * cin
        var ox = pixels.lowerBound % g.outputWidth, oy = pixels.lowerBound / g.outputWidth
        var p = pixels.lowerBound
        while p < pixels.upperBound {
            let y0 = oy * g.strideHeight - g.padTop, x0 = ox * g.strideWidth - g.padLeft
            if spillingRows {
                let run = spillingRun(g, ox: ox, oy: oy, pixel: p, rangeEnd: pixels.upperBound)
                if run > 0 {
                    var src = UnsafeRawPointer(image + (y0 * g.inputWidth + x0) * cin)
                    var rowStart = UnsafeMutableRawPointer(out + p * rowStride)
                    for _ in 0..<run {
                        var row = src
                        for fy in 0..<g.filterHeight {
                            rowStart.storeBytes(of: row.loadUnaligned(as: SIMD16<UInt8>.self) ^ flip,
                                                toByteOffset: fy * rowRun, as: SIMD16<UInt8>.self)
                            row += filterRowStep
                        }
                        if used < rowStride { rowStart.storeBytes(of: tailWord, toByteOffset: used, as: UInt64.self) }
                        src += pixelStep
                        rowStart += rowStride
                    }
                    p += run
                    ox += run
                    if ox == g.outputWidth { (ox, oy) = (0, oy + 1) }
                    continue
                }
            }
            ox += 1
            if ox == g.outputWidth { (ox, oy) = (0, oy + 1) }
            let rowStart = out + p * rowStride, rowEnd = rowStart + rowStride
            let rowsContiguous = g.dilationWidth == 1 && x0 >= 0 && x0 + g.filterWidth <= g.inputWidth
            var dst = rowStart
            for fy in 0..<g.filterHeight {
                let iy = y0 + fy * g.dilationHeight
                if iy < 0 || iy >= g.inputHeight {
                    for k in 0..<rowRun { dst[k] = padding }
                } else if rowsContiguous {
                    flipSignBits(image + (iy * g.inputWidth + x0) * cin, count: rowRun, into: dst,
                                 sourceEnd: imageEnd, destinationEnd: rowEnd)
                } else {
                    for fx in 0..<g.filterWidth {
                        let ix = x0 + fx * g.dilationWidth
                        let tap = dst + fx * cin
                        if ix >= 0 && ix < g.inputWidth {
                            flipSignBits(image + (iy * g.inputWidth + ix) * cin, count: cin, into: tap,
                                         sourceEnd: imageEnd, destinationEnd: rowEnd)
                        } else {
                            for c in 0..<cin { tap[c] = padding }
                        }
                    }
                }
                dst += rowRun
            }
            for c in used..<rowStride { dst[c - used] = tail }
            p += 1
        }
    }

    /// Values a spilling gather moves per filter row: one 16-byte load of input bytes, stored as
    /// 16 patch values (bytes or int16).
    static let spillValues = 16

    /// Whether `g`'s patch rows of `rowStride` values may be gathered with one store of
    /// `spillValues` values per filter row, each spilling past its row's `filterWidth · inputDepth`
    /// values into the next patch row (which is written after it) but no further.
    @inline(__always)
    static func spills(_ g: ConvolutionGeometry, rowStride: Int) -> Bool {
        let rowRun = g.filterWidth * g.inputDepth
        return g.dilationWidth == 1 && rowRun <= spillValues && (g.filterHeight - 1) * rowRun + spillValues <= 2 * rowStride
            && g.filterHeight * rowRun <= rowStride
    }

    /// The run of output pixels from `pixel` (at column `ox` of output row `oy`) that a spilling
    /// gather (`spills`) may take: the rest of the output row whose windows lie inside the input
    /// and whose filter rows' `spillValues`-byte loads stay inside the image, short of the range's
    /// last pixel (`rangeEnd − 1`, whose spill would leave the range); 0 when `pixel` cannot.
    @inline(__always)
    static func spillingRun(_ g: ConvolutionGeometry, ox: Int, oy: Int, pixel: Int, rangeEnd: Int) -> Int {
        let y0 = oy * g.strideHeight - g.padTop, x0 = ox * g.strideWidth - g.padLeft
        guard y0 >= 0, y0 + (g.filterHeight - 1) * g.dilationHeight < g.inputHeight, x0 >= 0,
              x0 + g.filterWidth <= g.inputWidth else { return 0 }
        let cin = g.inputDepth, imageCount = g.inputHeight * g.inputWidth * cin
        let firstLoad = (y0 * g.inputWidth + x0) * cin + (g.filterHeight - 1) * g.dilationHeight * g.inputWidth * cin
        guard firstLoad + spillValues <= imageCount else { return 0 }
        let insideRow = (g.inputWidth - g.filterWidth - x0) / g.strideWidth + 1
        let insideImage = (imageCount - spillValues - firstLoad) / (g.strideWidth * cin) + 1
        return max(0, min(insideRow, g.outputWidth - ox, rangeEnd - 1 - pixel, insideImage))
    }

    /// `out[i] = x[i] ^ 0x80` for `i < count`, 16 bytes per step; the last step may read up to
    /// `sourceEnd` and write up to `destinationEnd` past `count` (see `gatherFlippedBytes`).
    @inline(__always)
    static func flipSignBits(_ x: UnsafePointer<UInt8>, count: Int, into out: UnsafeMutablePointer<UInt8>,
                             sourceEnd: UnsafePointer<UInt8>, destinationEnd: UnsafeMutablePointer<UInt8>) {
        let flip = SIMD16<UInt8>(repeating: 0x80)
        var i = 0
        while i < count, x + i + 16 <= sourceEnd, out + i + 16 <= destinationEnd {
            let v = UnsafeRawPointer(x + i).loadUnaligned(as: SIMD16<UInt8>.self)
            UnsafeMutableRawPointer(out + i).storeBytes(of: v ^ flip, as: SIMD16<UInt8>.self)
            i += 16
        }
        while i + 8 <= count {
            let v = UnsafeRawPointer(x + i).loadUnaligned(as: UInt64.self)
            UnsafeMutableRawPointer(out + i).storeBytes(of: v ^ 0x8080_8080_8080_8080, as: UInt64.self)
            i += 8
        }
        while i < count { out[i] = x[i] ^ 0x80; i += 1 }
    }

    /// uint8 patches in the int16-pair layout (`x + offset`, padding 0).
    /// - Precondition: `pixels` lies in `0 ..< g.outputHeight × g.outputWidth`; `image` is one
    ///   batch image of `g` and `out` that image's patch buffer (a row per output pixel).
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func gatherPairs(_ image: UnsafePointer<UInt8>, _ g: ConvolutionGeometry, pixels: Range<Int>,
                                   offset: Int32, into out: UnsafeMutablePointer<Int16>) {
        gatherPairRows(image, g, pixels: pixels, offset: offset, into: out)
    }

    /// int8 patches in the int16-pair layout (`x + offset`, padding 0); also the hybrid form with
    /// the batch's negated quantization offset.
    /// - Precondition: `pixels` lies in `0 ..< g.outputHeight × g.outputWidth`; `image` is one
    ///   batch image of `g` and `out` that image's patch buffer (a row per output pixel).
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func gatherPairs(_ image: UnsafePointer<Int8>, _ g: ConvolutionGeometry, pixels: Range<Int>,
                                   offset: Int32, into out: UnsafeMutablePointer<Int16>) {
        gatherPairRows(image, g, pixels: pixels, offset: offset, into: out)
    }

    /// The body of both `gatherPairs`, specialized for each 8-bit source type. Where a window
    /// lies inside the input and its filter rows are at most 16 values (an RGB stem's 3×3 or 5×5),
    /// each filter row is one 16-byte load widened to 16 int16 and stored whole, spilling into
    /// the next patch row (`spills`, `spillingRun`, as `gatherFlippedBytes` does); other pixels,
    /// and every pixel of a layer whose rows cannot spill, take the per-value `gather`.
    @inline(__always)
    static func gatherPairRows<Source: FixedWidthInteger & SIMDScalar>(_ image: UnsafePointer<Source>, _ g: ConvolutionGeometry,
                                                                       pixels: Range<Int>, offset: Int32,
                                                                       into out: UnsafeMutablePointer<Int16>) {
        let o = Int16(truncatingIfNeeded: offset)
        let stride = Int16PairPacking.pairedDepth(g.filterHeight * g.filterWidth * g.inputDepth)
        guard spills(g, rowStride: stride) else {
            gather(image, g, pixels: pixels, rowStride: stride, padding: 0, tail: 0, into: out) { Int16(truncatingIfNeeded: $0) &+ o }
            return
        }
        checkPixels(pixels, g)
        let cin = g.inputDepth, rowRun = g.filterWidth * cin, used = g.filterHeight * rowRun
        let filterRowStep = g.dilationHeight * g.inputWidth * cin, pixelStep = g.strideWidth * cin
        let offsets = SIMD16<Int16>(repeating: o)
        var ox = pixels.lowerBound % g.outputWidth, oy = pixels.lowerBound / g.outputWidth
        var p = pixels.lowerBound
        while p < pixels.upperBound {
            var run = spillingRun(g, ox: ox, oy: oy, pixel: p, rangeEnd: pixels.upperBound)
            if run > 0 {
                var src = image + ((oy * g.strideHeight - g.padTop) * g.inputWidth + ox * g.strideWidth - g.padLeft) * cin
                var rowStart = out + p * stride
                for _ in 0..<run {
                    var row = src
                    for fy in 0..<g.filterHeight {
                        let values = SIMD16<Int16>(truncatingIfNeeded: UnsafeRawPointer(row).loadUnaligned(as: SIMD16<Source>.self))
                        UnsafeMutableRawPointer(rowStart + fy * rowRun).storeBytes(of: values &+ offsets, as: SIMD16<Int16>.self)
                        row += filterRowStep
                    }
                    for c in used..<stride { rowStart[c] = 0 }
                    src += pixelStep
                    rowStart += stride
                }
            } else {
                gather(image, g, pixels: p..<(p + 1), rowStride: stride, padding: 0, tail: 0, into: out) {
                    Int16(truncatingIfNeeded: $0) &+ o
                }
                run = 1
            }
            p += run
            ox += run
            if ox == g.outputWidth { (ox, oy) = (0, oy + 1) }
        }
    }

    /// int8 patches in the int8-quad layout (`x + 128`, padding `zp + 128` where `inputOffset` is
    /// `−zp`; the weights of the row's pad channels are 0).
    /// - Precondition: `pixels` lies in `0 ..< g.outputHeight × g.outputWidth`; `image` is one
    ///   batch image of `g` and `out` that image's patch buffer (a row per output pixel).
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func gatherQuads(_ image: UnsafePointer<Int8>, _ g: ConvolutionGeometry, pixels: Range<Int>,
                                   inputOffset: Int32, into out: UnsafeMutablePointer<UInt8>) {
        let stride = Int8QuadPacking.quadDepth(g.filterHeight * g.filterWidth * g.inputDepth)
        let pad = Int8QuadPacking.paddingByte(inputOffset: inputOffset)
        gatherFlippedBytes(UnsafeRawPointer(image).assumingMemoryBound(to: UInt8.self), g, pixels: pixels, rowStride: stride,
                           padding: pad, tail: pad, into: out)
    }

    /// uint8 patches in the uint8-weight quad layout (signed `x − 128`, padding taps `zp − 128`,
    /// pad channels 0) and each row's sum to `sums` (indexed like the rows).
    /// - Precondition: `pixels` lies in `0 ..< g.outputHeight × g.outputWidth`; `image` is one
    ///   batch image of `g` and `out` that image's patch buffer (a row per output pixel).
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func gatherSignedQuads(_ image: UnsafePointer<UInt8>, _ g: ConvolutionGeometry, pixels: Range<Int>,
                                         inputOffset: Int32, into out: UnsafeMutablePointer<UInt8>,
                                         sums: UnsafeMutablePointer<Int32>) {
        let stride = Int8QuadPacking.quadDepth(g.filterHeight * g.filterWidth * g.inputDepth)
        let pad = Int8QuadPacking.unsignedWeightPaddingByte(inputOffset: inputOffset)
        gatherFlippedBytes(image, g, pixels: pixels, rowStride: stride, padding: pad, tail: 0, into: out)
        for p in pixels { sums[p] = ByteRowSum.sum(out + p * stride, count: stride, signed: true) }
    }
}
