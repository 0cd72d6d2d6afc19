extension TransposeConvReference {
    /// Quantized TRANSPOSE_CONV shared by the uint8 and int8 entry points: the scatter
    /// accumulates `(w + filterOffset)(x + inputOffset)` into `scratch` (one Int32 per output
    /// element), then bias, per-channel requantization and clamp.
    static func quantized<Element: FixedWidthInteger, Weight: FixedWidthInteger>(
        _ g: ConvolutionGeometry, _ q: QuantizedConvolutionParameters,
        input: UnsafePointer<Element>, filter: UnsafePointer<Weight>, bias: UnsafePointer<Int32>?,
        scratch: UnsafeMutablePointer<Int32>, output: UnsafeMutablePointer<Element>
    ) {
        scratch.update(repeating: 0, count: g.outputCount)
        for b in 0..<g.batches {
            for iy in 0..<g.inputHeight {
                for ix in 0..<g.inputWidth {
                    for ic in 0..<g.inputDepth {
                        let outXOrigin = ix * g.strideWidth - g.padLeft
                        let outYOrigin = iy * g.strideHeight - g.padTop
                        let x = Int32(input[((b * g.inputHeight + iy) * g.inputWidth + ix) * g.inputDepth + ic]) &+ q.inputOffset
                        for fy in 0..<g.filterHeight {
                            let oy = outYOrigin + fy
                            for fx in 0..<g.filterWidth {
                                let ox = outXOrigin + fx
                                if ox < 0 || ox >= g.outputWidth || oy < 0 || oy >= g.outputHeight { continue }
                                let outBase = ((b * g.outputHeight + oy) * g.outputWidth + ox) * g.outputDepth
                                for oc in 0..<g.outputDepth {
                                    let w = Int32(filter[((oc * g.filterHeight + fy) * g.filterWidth + fx) * g.filterInputDepth + ic]) &+ q.filterOffset
                                    scratch[outBase + oc] = scratch[outBase + oc] &+ x &* w
                                }
                            }
                        }
                    }
                }
            }
        }
        let pixels = g.batches * g.outputHeight * g.outputWidth
        for p in 0..<pixels {
            for oc in 0..<g.outputDepth {
                let i = p * g.outputDepth + oc
                var acc = scratch[i]
                if let bias { acc = acc &+ bias[oc] }
                output[i] = Element(truncatingIfNeeded: q.requantize(acc, channel: oc))
            }
        }
    }

    /// uint8 TRANSPOSE_CONV, per-tensor asymmetric.
    public static func uint8(_ g: ConvolutionGeometry, _ q: QuantizedConvolutionParameters,
                             input: UnsafePointer<UInt8>, filter: UnsafePointer<UInt8>, bias: UnsafePointer<Int32>?,
                             scratch: UnsafeMutablePointer<Int32>, output: UnsafeMutablePointer<UInt8>) {
        quantized(g, q, input: input, filter: filter, bias: bias, scratch: scratch, output: output)
    }

    /// int8 TRANSPOSE_CONV, per-channel weights.
    public static func int8(_ g: ConvolutionGeometry, _ q: QuantizedConvolutionParameters,
                            input: UnsafePointer<Int8>, filter: UnsafePointer<Int8>, bias: UnsafePointer<Int32>?,
                            scratch: UnsafeMutablePointer<Int32>, output: UnsafeMutablePointer<Int8>) {
        quantized(g, q, input: input, filter: filter, bias: bias, scratch: scratch, output: output)
    }
}
