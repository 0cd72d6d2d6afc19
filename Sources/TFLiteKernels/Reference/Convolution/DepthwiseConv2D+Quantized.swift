extension DepthwiseConv2DReference {
    /// Quantized DEPTHWISE_CONV_2D shared by the uint8 (per-tensor) and int8 (per-channel) entry points.
    static func quantized<Element: FixedWidthInteger, Weight: FixedWidthInteger>(
        _ g: ConvolutionGeometry, _ q: QuantizedConvolutionParameters,
        input: UnsafePointer<Element>, filter: UnsafePointer<Weight>,
        bias: UnsafePointer<Int32>?, output: UnsafeMutablePointer<Element>
    ) {
        let multiplier = g.depthMultiplier
        for b in 0..<g.batches {
            for oy in 0..<g.outputHeight {
                let inYOrigin = oy * g.strideHeight - g.padTop
                for ox in 0..<g.outputWidth {
                    let inXOrigin = ox * g.strideWidth - g.padLeft
                    for ic in 0..<g.inputDepth {
                        for m in 0..<multiplier {
                            let oc = ic * multiplier + m
                            var acc: Int32 = 0
                            for fy in 0..<g.filterHeight {
                                let iy = inYOrigin + g.dilationHeight * fy
                                if iy < 0 || iy >= g.inputHeight { continue }
                                for fx in 0..<g.filterWidth {
                                    let ix = inXOrigin + g.dilationWidth * fx
                                    if ix < 0 || ix >= g.inputWidth { continue }
                                    let x = Int32(input[((b * g.inputHeight + iy) * g.inputWidth + ix) * g.inputDepth + ic])
                                    let w = Int32(filter[(fy * g.filterWidth + fx) * g.outputDepth + oc])
                                    acc = acc &+ (w &+ q.filterOffset) &* (x &+ q.inputOffset)
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

    /// uint8 DEPTHWISE_CONV_2D, per-tensor asymmetric (TFLite `reference_ops::DepthwiseConv`).
    public static func uint8(_ g: ConvolutionGeometry, _ q: QuantizedConvolutionParameters,
                             input: UnsafePointer<UInt8>, filter: UnsafePointer<UInt8>,
                             bias: UnsafePointer<Int32>?, output: UnsafeMutablePointer<UInt8>) {
        quantized(g, q, input: input, filter: filter, bias: bias, output: output)
    }

    /// int8 DEPTHWISE_CONV_2D, per-channel weights (TFLite `reference_integer_ops::DepthwiseConvPerChannel`).
    public static func int8(_ g: ConvolutionGeometry, _ q: QuantizedConvolutionParameters,
                            input: UnsafePointer<Int8>, filter: UnsafePointer<Int8>,
                            bias: UnsafePointer<Int32>?, output: UnsafeMutablePointer<Int8>) {
        quantized(g, q, input: input, filter: filter, bias: bias, output: output)
    }
}
