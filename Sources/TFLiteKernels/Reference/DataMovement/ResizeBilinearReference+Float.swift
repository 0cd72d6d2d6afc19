// RESIZE_BILINEAR for float32, and for uint8 computed in float as the reference's generic
// template does (the result rounded half away from zero).

/// Reference RESIZE_BILINEAR kernels.
public enum ResizeBilinearReference {
    /// Float32 NHWC resize.
    public static func runFloat(_ p: ResizeParameters, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        run(p, input: input, output: output, load: { $0 }, store: { $0 })
    }

    /// UInt8 NHWC resize, interpolated in float and rounded (reference template for uint8).
    public static func runUInt8(_ p: ResizeParameters, input: UnsafePointer<UInt8>, output: UnsafeMutablePointer<UInt8>) {
        run(p, input: input, output: output, load: { Float($0) }, store: {
            UInt8(truncatingIfNeeded: SaturatingRound.clamp(SaturatingRound.toInt32($0), 0, 255))
        })
    }

    @inline(__always)
    static func run<T>(_ p: ResizeParameters, input: UnsafePointer<T>, output: UnsafeMutablePointer<T>,
                       load: (T) -> Float, store: (Float) -> T) {
        let heightScale = BilinearSample.scale(input: p.inputHeight, output: p.outputHeight, alignCorners: p.alignCorners)
        let widthScale = BilinearSample.scale(input: p.inputWidth, output: p.outputWidth, alignCorners: p.alignCorners)
        let depth = p.depth
        let rowStride = p.inputWidth * depth
        var dst = output
        for b in 0..<p.batches {
            let batchBase = b * p.inputHeight * rowStride
            for y in 0..<p.outputHeight {
                let sy = BilinearSample(y, scale: heightScale, halfPixelCenters: p.halfPixelCenters, inputSize: p.inputHeight)
                let dy = sy.position - Float(sy.lower)
                let row0 = batchBase + sy.lower * rowStride, row1 = batchBase + sy.upper * rowStride
                for x in 0..<p.outputWidth {
                    let sx = BilinearSample(x, scale: widthScale, halfPixelCenters: p.halfPixelCenters, inputSize: p.inputWidth)
                    let dx = sx.position - Float(sx.lower)
                    let p00 = input + row0 + sx.lower * depth, p10 = input + row1 + sx.lower * depth
                    let p01 = input + row0 + sx.upper * depth, p11 = input + row1 + sx.upper * depth
                    for c in 0..<depth {
                        // Same operation order as the reference, so float results match bit for bit.
                        let a = load(p00[c]) * (1 - dy) * (1 - dx)
                        let bb = load(p10[c]) * dy * (1 - dx)
                        let cc = load(p01[c]) * (1 - dy) * dx
                        let d = load(p11[c]) * dy * dx
                        dst[c] = store(a + bb + cc + d)
                    }
                    dst += depth
                }
            }
        }
    }
}
