/// The window walk every reference convolution shares (float, uint8/int8, hybrid, int16x8):
/// each output element in NHWC order, its sum started at `zero` and accumulated over the filter
/// taps that fall inside the input — taps in the padding are skipped, as the reference skips
/// them — in the reference's order (filter rows, columns, then channels), then finished. The
/// kernels differ only in what a tap adds and how a sum is finished, which they pass in; inlined,
/// each is the plain loop nest it replaces.
enum ConvolutionWindowWalk {
    /// CONV_2D (grouped when `filterInputDepth < inputDepth`), NHWC input, OHWI filter. For the
    /// output element at `output` (batch `batch`, channel `channel`): `tap(&sum, batch, input,
    /// filter)` for each tap inside the input, with the indices of the first of the tap's
    /// `filterInputDepth` input values and weights; then `finish(sum, batch, channel, output)`.
    /// - Complexity: O(outputCount · filterHeight · filterWidth) calls of `tap`.
    @inline(__always)
    static func convolution<Sum>(_ g: ConvolutionGeometry, zero: Sum,
                                 tap: (_ sum: inout Sum, _ batch: Int, _ input: Int, _ filter: Int) -> Void,
                                 finish: (_ sum: Sum, _ batch: Int, _ channel: Int, _ output: Int) -> Void) {
        let filtersPerGroup = max(1, g.outputDepth / max(1, g.groups))
        for b in 0..<g.batches {
            for oy in 0..<g.outputHeight {
                let inYOrigin = oy * g.strideHeight - g.padTop
                for ox in 0..<g.outputWidth {
                    let inXOrigin = ox * g.strideWidth - g.padLeft
                    for oc in 0..<g.outputDepth {
                        let group = oc / filtersPerGroup
                        var sum = zero
                        for fy in 0..<g.filterHeight {
                            let iy = inYOrigin + g.dilationHeight * fy
                            if iy < 0 || iy >= g.inputHeight { continue }
                            for fx in 0..<g.filterWidth {
                                let ix = inXOrigin + g.dilationWidth * fx
                                if ix < 0 || ix >= g.inputWidth { continue }
                                let inBase = ((b * g.inputHeight + iy) * g.inputWidth + ix) * g.inputDepth
                                    + group * g.filterInputDepth
                                let fBase = ((oc * g.filterHeight + fy) * g.filterWidth + fx) * g.filterInputDepth
                                tap(&sum, b, inBase, fBase)
                            }
                        }
                        finish(sum, b, oc, ((b * g.outputHeight + oy) * g.outputWidth + ox) * g.outputDepth + oc)
                    }
                }
            }
        }
    }

    /// DEPTHWISE_CONV_2D, filter `[1, fh, fw, outputDepth]`: output channel
    /// `oc = ic · depthMultiplier + m` reads input channel `ic`. For the output element at
    /// `output`: `tap(&sum, batch, input, filter)` with the indices of the tap's input value and
    /// weight, for each tap inside the input; then `finish(sum, batch, channel, output)`.
    /// - Complexity: O(outputCount · filterHeight · filterWidth) calls of `tap`.
    @inline(__always)
    static func depthwise<Sum>(_ g: ConvolutionGeometry, zero: Sum,
                               tap: (_ sum: inout Sum, _ batch: Int, _ input: Int, _ filter: Int) -> Void,
                               finish: (_ sum: Sum, _ batch: Int, _ channel: Int, _ output: Int) -> Void) {
        let multiplier = g.depthMultiplier
        for b in 0..<g.batches {
            for oy in 0..<g.outputHeight {
                let inYOrigin = oy * g.strideHeight - g.padTop
                for ox in 0..<g.outputWidth {
                    let inXOrigin = ox * g.strideWidth - g.padLeft
                    for ic in 0..<g.inputDepth {
                        for m in 0..<multiplier {
                            let oc = ic * multiplier + m
                            var sum = zero
                            for fy in 0..<g.filterHeight {
                                let iy = inYOrigin + g.dilationHeight * fy
                                if iy < 0 || iy >= g.inputHeight { continue }
                                for fx in 0..<g.filterWidth {
                                    let ix = inXOrigin + g.dilationWidth * fx
                                    if ix < 0 || ix >= g.inputWidth { continue }
                                    tap(&sum, b, ((b * g.inputHeight + iy) * g.inputWidth + ix) * g.inputDepth + ic,
                                        (fy * g.filterWidth + fx) * g.outputDepth + oc)
                                }
                            }
                            finish(sum, b, oc, ((b * g.outputHeight + oy) * g.outputWidth + ox) * g.outputDepth + oc)
                        }
                    }
                }
            }
        }
    }
}
