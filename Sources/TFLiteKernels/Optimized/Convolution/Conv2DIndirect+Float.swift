/// Optimized float CONV_2D (and FULLY_CONNECTED as a 1×1 convolution): an indirect,
/// im2col-free GEMM. Tiles of 4 consecutive output pixels × 16 output channels keep their
/// accumulators in registers; for every filter tap each pixel reads its input run directly
/// (or a zero run where the tap falls into the padding). Weights come packed by
/// `ConvFilterPacking.packFloat`.
public enum Conv2DOptimized {
    /// Output pixels per register tile.
    public static let tileRows = 4

    /// Number of 4-pixel tiles covering the output (the unit to split across threads).
    public static func tileCount(_ g: ConvolutionGeometry) -> Int {
        (g.batches * g.outputHeight * g.outputWidth + tileRows - 1) / tileRows
    }

    /// Computes the output pixels of tiles `tiles` (see `tileCount`). `zeros` must hold at
    /// least `filterInputDepth` zeros. Grouped convolutions are not handled here (groups == 1).
    public static func float(_ g: ConvolutionGeometry, activationMin: Float, activationMax: Float,
                             input: UnsafePointer<Float>, packedFilter: UnsafePointer<Float>,
                             bias: UnsafePointer<Float>?, zeros: UnsafePointer<Float>,
                             output: UnsafeMutablePointer<Float>, tiles: Range<Int>) {
        let pixels = g.batches * g.outputHeight * g.outputWidth
        let cin = g.inputDepth
        let taps = g.filterHeight * g.filterWidth
        let depth = taps * cin
        let panels = ConvFilterPacking.panelCount(outputDepth: g.outputDepth)
        let lo = SIMD16<Float>(repeating: activationMin), hi = SIMD16<Float>(repeating: activationMax)
        // Origins of the tile's pixels.
        var inY = (0, 0, 0, 0), inX = (0, 0, 0, 0), base = (0, 0, 0, 0)
        for tile in tiles {
            let first = tile * tileRows
            let rows = min(tileRows, pixels - first)
            for r in 0..<tileRows {
                let p = first + min(r, rows - 1)
                let ox = p % g.outputWidth, rest = p / g.outputWidth
                let oy = rest % g.outputHeight, b = rest / g.outputHeight
                let y = oy * g.strideHeight - g.padTop, x = ox * g.strideWidth - g.padLeft
                let bb = b * g.inputHeight * g.inputWidth
                switch r {
                case 0: inY.0 = y; inX.0 = x; base.0 = bb
                case 1: inY.1 = y; inX.1 = x; base.1 = bb
                case 2: inY.2 = y; inX.2 = x; base.2 = bb
                default: inY.3 = y; inX.3 = x; base.3 = bb
                }
            }
            @inline(__always) func run(_ y: Int, _ x: Int, _ bb: Int, _ fy: Int, _ fx: Int) -> UnsafePointer<Float> {
                let iy = y + fy * g.dilationHeight, ix = x + fx * g.dilationWidth
                if iy < 0 || iy >= g.inputHeight || ix < 0 || ix >= g.inputWidth { return zeros }
                return input + (bb + iy * g.inputWidth + ix) * cin
            }
            for panel in 0..<panels {
                let n0 = panel * ConvFilterPacking.panelWidth
                var b0 = SIMD16<Float>()
                if let bias {
                    if n0 + 16 <= g.outputDepth {
                        b0 = UnsafeRawPointer(bias + n0).loadUnaligned(as: SIMD16<Float>.self)
                    } else {
                        for l in 0..<(g.outputDepth - n0) { b0[l] = bias[n0 + l] }
                    }
                }
                // Sum from zero and add the bias last, in the reference's order.
                var a0 = SIMD16<Float>(), a1 = a0, a2 = a0, a3 = a0
                var w = packedFilter + panel * depth * 16
                for fy in 0..<g.filterHeight {
                    for fx in 0..<g.filterWidth {
                        let p0 = run(inY.0, inX.0, base.0, fy, fx), p1 = run(inY.1, inX.1, base.1, fy, fx)
                        let p2 = run(inY.2, inX.2, base.2, fy, fx), p3 = run(inY.3, inX.3, base.3, fy, fx)
                        for ic in 0..<cin {
                            let wv = UnsafeRawPointer(w).loadUnaligned(as: SIMD16<Float>.self)
                            a0 = SIMD16(repeating: p0[ic]) * wv + a0
                            a1 = SIMD16(repeating: p1[ic]) * wv + a1
                            a2 = SIMD16(repeating: p2[ic]) * wv + a2
                            a3 = SIMD16(repeating: p3[ic]) * wv + a3
                            w += 16
                        }
                    }
                }
                let lanes = min(16, g.outputDepth - n0)
                for r in 0..<rows {
                    var v: SIMD16<Float>
                    switch r { case 0: v = a0; case 1: v = a1; case 2: v = a2; default: v = a3 }
                    v += b0
                    v = v.replacing(with: lo, where: v .< lo).replacing(with: hi, where: v .> hi)
                    let dst = output + (first + r) * g.outputDepth + n0
                    if lanes == 16 {
                        UnsafeMutableRawPointer(dst).storeBytes(of: v, as: SIMD16<Float>.self)
                    } else {
                        for l in 0..<lanes { dst[l] = v[l] }
                    }
                }
            }
        }
    }
}
