// RESIZE_BILINEAR for int8 and int16: the reference's 10-bit fixed-point interpolation.

extension ResizeBilinearReference {
    /// Int8 NHWC resize (reference integer variant, round half away from zero).
    public static func runInt8(_ p: ResizeParameters, input: UnsafePointer<Int8>, output: UnsafeMutablePointer<Int8>) {
        runInteger(p, input: input, output: output)
    }

    /// Int16 NHWC resize (reference integer variant).
    public static func runInt16(_ p: ResizeParameters, input: UnsafePointer<Int16>, output: UnsafeMutablePointer<Int16>) {
        runInteger(p, input: input, output: output)
    }

    @inline(__always)
    static func runInteger<T: FixedWidthInteger & SignedInteger>(_ p: ResizeParameters, input: UnsafePointer<T>,
                                                                 output: UnsafeMutablePointer<T>) {
        let heightScale = BilinearFixedSample.scale(input: p.inputHeight, output: p.outputHeight, alignCorners: p.alignCorners)
        let widthScale = BilinearFixedSample.scale(input: p.inputWidth, output: p.outputWidth, alignCorners: p.alignCorners)
        let depth = p.depth
        let rowStride = p.inputWidth * depth
        let one: Int64 = 1 << 10
        var dst = output
        for b in 0..<p.batches {
            let batchBase = b * p.inputHeight * rowStride
            for y in 0..<p.outputHeight {
                let sy = BilinearFixedSample(y, scale: heightScale, halfPixelCenters: p.halfPixelCenters, inputSize: p.inputHeight)
                let fy = Int64(sy.position) - one * Int64(sy.lower)
                let row0 = batchBase + sy.lower * rowStride, row1 = batchBase + sy.upper * rowStride
                for x in 0..<p.outputWidth {
                    let sx = BilinearFixedSample(x, scale: widthScale, halfPixelCenters: p.halfPixelCenters, inputSize: p.inputWidth)
                    let fx = Int64(sx.position) - one * Int64(sx.lower)
                    let p00 = input + row0 + sx.lower * depth, p10 = input + row1 + sx.lower * depth
                    let p01 = input + row0 + sx.upper * depth, p11 = input + row1 + sx.upper * depth
                    for c in 0..<depth {
                        let sum = Int64(p00[c]) * (one - fy) * (one - fx)
                            + Int64(p10[c]) * fy * (one - fx)
                            + Int64(p01[c]) * (one - fy) * fx
                            + Int64(p11[c]) * fy * fx
                        let round: Int64 = sum > 0 ? (1 << 19) : -(1 << 19)
                        dst[c] = T(truncatingIfNeeded: (sum + round) / (1 << 20))
                    }
                    dst += depth
                }
            }
        }
    }
}
