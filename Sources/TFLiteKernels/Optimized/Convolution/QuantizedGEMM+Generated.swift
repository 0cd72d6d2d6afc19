/// The drivers of the generated int16-pair kernels (`QuantizedPairGEMM8x16AVX2`), kept out of
/// line and non-generic: the sums-only call behind `QuantizedGEMM.accumulate`, and the tile loop
/// of the variant that requantizes in registers.
extension QuantizedGEMM {
    /// The generated sums-only kernel on one tile (see `accumulate`).
    @inline(never)
    static func generatedPairSums(_ pointers: UnsafePointer<UnsafeRawPointer>, taps: Int, words: Int,
                                  weights: UnsafeRawPointer, rows: Int, into acc: UnsafeMutablePointer<Int32>) {
        var arguments = GeneratedIntegerTileArguments(table: UnsafeRawPointer(pointers), taps: taps, words: words,
                                                      weights: weights, rows: rows)
        arguments.accumulators = UnsafeMutableRawPointer(acc)
        withUnsafePointer(to: &arguments) { GeneratedKernels.current!.quantizedPairGEMM!(UnsafeRawPointer($0)) }
    }

    /// Fills `pointers[t·8 + r]` with output pixel `first + r`'s input for tap `t` (int16-pair
    /// layout, `padding` for taps outside the input); rows past `rows` repeat the last pixel.
    @inline(__always)
    static func fillPairTable(_ g: ConvolutionGeometry, first: Int, rows: Int, input: UnsafeRawPointer,
                              into pointers: UnsafeMutablePointer<UnsafeRawPointer>) {
        let n = tilePixels
        let pixelBytes = Int16PairPacking.pairedDepth(g.inputDepth) * 2
        let imageSize = g.inputHeight * g.inputWidth * pixelBytes
        let padding = input + g.batches * imageSize
        var ox = first % g.outputWidth, oy = (first / g.outputWidth) % g.outputHeight
        var b = first / (g.outputHeight * g.outputWidth)
        for r in 0..<n {
            let y0 = oy * g.strideHeight - g.padTop, x0 = ox * g.strideWidth - g.padLeft
            let image = input + b * imageSize
            for fy in 0..<g.filterHeight {
                let iy = y0 + fy * g.dilationHeight
                let rowInside = iy >= 0 && iy < g.inputHeight
                for fx in 0..<g.filterWidth {
                    let ix = x0 + fx * g.dilationWidth
                    pointers[(fy * g.filterWidth + fx) * n + r] =
                        rowInside && ix >= 0 && ix < g.inputWidth ? image + (iy * g.inputWidth + ix) * pixelBytes : padding
                }
            }
            if r + 1 < rows {
                ox += 1
                if ox == g.outputWidth {
                    ox = 0; oy += 1
                    if oy == g.outputHeight { oy = 0; b += 1 }
                }
            }
        }
    }
}

/// A generated int16-pair kernel that requantizes in registers (`QuantizedPairGEMM8x16AVX2`
/// `.uint8` / `.int8`) with the requantizer whose tables it reads. Full 16-channel panels run
/// fused; a partial last panel takes the generated sums and the requantizer's scalar path.
struct FusedRequantization {
    let kernel: QuantizedPairGEMM8x16AVX2.Function
    let requantizer: ConvRequantizer

    /// The fused kernel for `requantization` (from `ConvIntegerEpilogue.generatedRequantization`),
    /// or nil where there is none.
    @inline(never)
    init?(_ requantization: (requantizer: ConvRequantizer, signed: Bool)?) {
        guard let requantization, let generated = GeneratedKernels.current,
              let kernel = requantization.signed ? generated.quantizedPairGEMMInt8 : generated.quantizedPairGEMMUInt8
        else { return nil }
        self.kernel = kernel
        requantizer = requantization.requantizer
    }

    /// Tiles `tiles` of `g` (as `QuantizedGEMM.run` with the int16-pair layout), bias optional.
    @inline(never)
    func run(_ g: ConvolutionGeometry, input: UnsafeRawPointer, packedFilter: UnsafeRawPointer,
             bias: UnsafePointer<Int32>?, output: UnsafeMutableRawPointer, tiles: Range<Int>) {
        let n = QuantizedGEMM.tilePixels, panelWidth = Int16PairPacking.panelWidth
        let pixels = g.batches * g.outputHeight * g.outputWidth
        let taps = g.filterHeight * g.filterWidth
        let words = Int16PairPacking.pairedDepth(g.inputDepth) / 2
        let panelStride = taps * words * panelWidth * 4
        let fullPanels = g.outputDepth / panelWidth
        let p = requantizer.parameters
        withUnsafeTemporaryAllocation(of: UnsafeRawPointer.self, capacity: taps * n) { table in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: n * 2 * panelWidth + panelWidth) { scratch in
                let pointers = table.baseAddress!, acc = scratch.baseAddress!
                let zeroBias = acc + n * 2 * panelWidth
                for l in 0..<panelWidth { zeroBias[l] = 0 }
                var arguments = GeneratedIntegerTileArguments(table: UnsafeRawPointer(pointers), taps: taps, words: words,
                                                              weights: packedFilter, rows: n)
                arguments.outputStride = g.outputDepth
                arguments.outputOffset = p.outputOffset
                arguments.activationMin = p.activationMin
                arguments.activationMax = p.activationMax
                for tile in tiles {
                    let first = tile * n
                    let rows = min(n, pixels - first)
                    QuantizedGEMM.fillPairTable(g, first: first, rows: rows, input: input, into: pointers)
                    arguments.rows = rows
                    for panel in 0..<fullPanels {
                        let n0 = panel * panelWidth
                        arguments.weights = packedFilter + panel * panelStride
                        arguments.output = output + (first * g.outputDepth + n0)
                        arguments.bias = UnsafeRawPointer(bias.map { $0 + n0 } ?? UnsafePointer(zeroBias))
                        arguments.multipliers = UnsafeRawPointer(requantizer.multipliers + n0)
                        arguments.rightShifts = UnsafeRawPointer(requantizer.rightShifts + n0)
                        arguments.remainderMasks = UnsafeRawPointer(requantizer.remainderMasks + n0)
                        withUnsafePointer(to: &arguments) { kernel(UnsafeRawPointer($0)) }
                    }
                    let n0 = fullPanels * panelWidth
                    guard n0 < g.outputDepth else { continue }
                    QuantizedGEMM.generatedPairSums(pointers, taps: taps, words: words,
                                                    weights: packedFilter + fullPanels * panelStride, rows: rows, into: acc)
                    let lanes = g.outputDepth - n0
                    for r in 0..<rows {
                        var sums = UnsafeRawPointer(acc + r * 2 * panelWidth).loadUnaligned(as: SIMD16<Int32>.self)
                        if let bias { for l in 0..<lanes { sums[l] = sums[l] &+ bias[n0 + l] } }
                        let dst = output + ((first + r) * g.outputDepth + n0)
                        // Results are clamped into the 8-bit range: their low byte is the same for UInt8 and Int8.
                        requantizer.storeScalar(sums, channel: n0, lanes: lanes, to: dst.assumingMemoryBound(to: UInt8.self))
                    }
                }
            }
        }
    }
}
