extension Conv2DReference {
    /// Quantized CONV_2D shared by the uint8 and int8 entry points:
    /// `acc = Σ (w + filterOffset)(x + inputOffset) + bias_c`, then requantized per channel.
    /// Taps outside the input are skipped (they stand for the real value 0).
    static func quantized<Element: FixedWidthInteger, Weight: FixedWidthInteger>(
        _ g: ConvolutionGeometry, _ q: QuantizedConvolutionParameters,
        input: UnsafePointer<Element>, filter: UnsafePointer<Weight>,
        bias: UnsafePointer<Int32>?, output: UnsafeMutablePointer<Element>
    ) {
        let filtersPerGroup = max(1, g.outputDepth / max(1, g.groups))
        for b in 0..<g.batches {
            for oy in 0..<g.outputHeight {
                let inYOrigin = oy * g.strideHeight - g.padTop
                for ox in 0..<g.outputWidth {
                    let inXOrigin = ox * g.strideWidth - g.padLeft
                    for oc in 0..<g.outputDepth {
                        let group = oc / filtersPerGroup
                        var acc: Int32 = 0
                        for fy in 0..<g.filterHeight {
                            let iy = inYOrigin + g.dilationHeight * fy
                            if iy < 0 || iy >= g.inputHeight { continue }
                            for fx in 0..<g.filterWidth {
                                let ix = inXOrigin + g.dilationWidth * fx
                                if ix < 0 || ix >= g.inputWidth { continue }
                                let inBase = ((b * g.inputHeight + iy) * g.inputWidth + ix) * g.inputDepth
                                    + group * g.filterInputDepth
                                let fBase = ((oc * g.filterHeight + fy) * g.filterWidth + fx) * g.filterInputDepth
                                for ic in 0..<g.filterInputDepth {
                                    let x = Int32(input[inBase + ic]) &+ q.inputOffset
                                    let w = Int32(filter[fBase + ic]) &+ q.filterOffset
                                    acc = acc &+ w &* x
                                }
                            }
                        }
                        if let bias { acc = acc &+ bias[oc] }
                        output[((b * g.outputHeight + oy) * g.outputWidth + ox) * g.outputDepth + oc] =
                            Element(truncatingIfNeeded: q.requantize(acc, channel: oc))
                    }
                }
            }
        }
    }
}
