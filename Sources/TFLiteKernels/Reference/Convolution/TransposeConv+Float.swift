/// Reference (oracle) TRANSPOSE_CONV kernels: every input element scatters `input × filter`
/// into the output window it maps to. Filter layout `[outputDepth, fh, fw, inputDepth]`
/// (`filterInputDepth == inputDepth`); `padTop`/`padLeft` are the forward-convolution padding.
public enum TransposeConvReference {}

extension TransposeConvReference {
    /// Float TRANSPOSE_CONV (TFLite `reference_ops::TransposeConv`), with bias and clamp.
    public static func float(_ g: ConvolutionGeometry, activationMin: Float, activationMax: Float,
                             input: UnsafePointer<Float>, filter: UnsafePointer<Float>,
                             bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>) {
        output.update(repeating: 0, count: g.outputCount)
        scatter(g, input: input, filter: filter, output: output)
        let pixels = g.batches * g.outputHeight * g.outputWidth
        for p in 0..<pixels {
            for oc in 0..<g.outputDepth {
                let i = p * g.outputDepth + oc
                output[i] = min(max(output[i] + (bias?[oc] ?? 0), activationMin), activationMax)
            }
        }
    }

    /// Float transposed convolution as MediaPipe's `Convolution2DTransposeBias` computes it: each
    /// output starts at its channel's bias and every product is added to it (no clamp), so
    /// results differ from ``float(_:activationMin:activationMax:input:filter:bias:output:)``'s
    /// (bias added last) in the last bits.
    public static func floatOntoBias(_ g: ConvolutionGeometry, input: UnsafePointer<Float>, filter: UnsafePointer<Float>,
                                     bias: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        for p in 0..<(g.batches * g.outputHeight * g.outputWidth) {
            (output + p * g.outputDepth).update(from: bias, count: g.outputDepth)
        }
        scatter(g, input: input, filter: filter, output: output)
    }

    /// Adds every `input × filter` product to the output element it maps to, in the reference's order.
    private static func scatter(_ g: ConvolutionGeometry, input: UnsafePointer<Float>, filter: UnsafePointer<Float>,
                                output: UnsafeMutablePointer<Float>) {
        for b in 0..<g.batches {
            for iy in 0..<g.inputHeight {
                for ix in 0..<g.inputWidth {
                    for ic in 0..<g.inputDepth {
                        let outXOrigin = ix * g.strideWidth - g.padLeft
                        let outYOrigin = iy * g.strideHeight - g.padTop
                        let x = input[((b * g.inputHeight + iy) * g.inputWidth + ix) * g.inputDepth + ic]
                        for fy in 0..<g.filterHeight {
                            let oy = outYOrigin + fy
                            for fx in 0..<g.filterWidth {
                                let ox = outXOrigin + fx
                                if ox < 0 || ox >= g.outputWidth || oy < 0 || oy >= g.outputHeight { continue }
                                let outBase = ((b * g.outputHeight + oy) * g.outputWidth + ox) * g.outputDepth
                                for oc in 0..<g.outputDepth {
                                    let w = filter[((oc * g.filterHeight + fy) * g.filterWidth + fx) * g.filterInputDepth + ic]
                                    output[outBase + oc] += x * w
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
