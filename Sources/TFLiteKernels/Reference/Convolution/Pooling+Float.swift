/// Reference (oracle) AVERAGE_POOL_2D and MAX_POOL_2D kernels over NHWC tensors
/// (`inputDepth == outputDepth`). Windows are clipped to the input: padding never counts.
public enum PoolingReference {}

extension PoolingReference {
    /// The clipped window `[yStart, yEnd) × [xStart, xEnd)` of filter taps for output (oy, ox).
    @inline(__always)
    static func window(_ g: ConvolutionGeometry, _ oy: Int, _ ox: Int) -> (inY: Int, inX: Int, y: Range<Int>, x: Range<Int>) {
        let inY = oy * g.strideHeight - g.padTop
        let inX = ox * g.strideWidth - g.padLeft
        let yStart = max(0, -inY), yEnd = min(g.filterHeight, g.inputHeight - inY)
        let xStart = max(0, -inX), xEnd = min(g.filterWidth, g.inputWidth - inX)
        return (inY, inX, yStart..<max(yStart, yEnd), xStart..<max(xStart, xEnd))
    }

    /// Float AVERAGE_POOL_2D: mean over the clipped window, then clamp.
    public static func averageFloat(_ g: ConvolutionGeometry, activationMin: Float, activationMax: Float,
                                    input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let depth = g.inputDepth
        for b in 0..<g.batches {
            for oy in 0..<g.outputHeight {
                for ox in 0..<g.outputWidth {
                    let w = window(g, oy, ox)
                    let count = Float(w.y.count * w.x.count)
                    for c in 0..<depth {
                        var total: Float = 0
                        for fy in w.y {
                            for fx in w.x {
                                total += input[((b * g.inputHeight + w.inY + fy) * g.inputWidth + w.inX + fx) * depth + c]
                            }
                        }
                        let average = count > 0 ? total / count : 0
                        output[((b * g.outputHeight + oy) * g.outputWidth + ox) * depth + c] =
                            min(max(average, activationMin), activationMax)
                    }
                }
            }
        }
    }

    /// Float MAX_POOL_2D: maximum over the clipped window, then clamp.
    public static func maxFloat(_ g: ConvolutionGeometry, activationMin: Float, activationMax: Float,
                                input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let depth = g.inputDepth
        for b in 0..<g.batches {
            for oy in 0..<g.outputHeight {
                for ox in 0..<g.outputWidth {
                    let w = window(g, oy, ox)
                    for c in 0..<depth {
                        var best = -Float.greatestFiniteMagnitude
                        for fy in w.y {
                            for fx in w.x {
                                best = max(best, input[((b * g.inputHeight + w.inY + fy) * g.inputWidth + w.inX + fx) * depth + c])
                            }
                        }
                        output[((b * g.outputHeight + oy) * g.outputWidth + ox) * depth + c] =
                            min(max(best, activationMin), activationMax)
                    }
                }
            }
        }
    }
}
