extension PoolingReference {
    /// Quantized AVERAGE_POOL_2D (uint8 and int8; input and output share scale and zero point):
    /// integer sum over the clipped window divided with rounding half away from zero, then clamp.
    public static func averageQuantized<Element: FixedWidthInteger>(
        _ g: ConvolutionGeometry, activationMin: Int32, activationMax: Int32,
        input: UnsafePointer<Element>, output: UnsafeMutablePointer<Element>
    ) {
        let depth = g.inputDepth
        for b in 0..<g.batches {
            for oy in 0..<g.outputHeight {
                for ox in 0..<g.outputWidth {
                    let w = window(g, oy, ox)
                    let count = Int32(w.y.count * w.x.count)
                    for c in 0..<depth {
                        var acc: Int32 = 0
                        for fy in w.y {
                            for fx in w.x {
                                acc &+= Int32(input[((b * g.inputHeight + w.inY + fy) * g.inputWidth + w.inX + fx) * depth + c])
                            }
                        }
                        if count > 0 {
                            acc = acc > 0 ? (acc + count / 2) / count : (acc - count / 2) / count
                        }
                        output[((b * g.outputHeight + oy) * g.outputWidth + ox) * depth + c] =
                            Element(truncatingIfNeeded: min(max(acc, activationMin), activationMax))
                    }
                }
            }
        }
    }

    /// Quantized MAX_POOL_2D (uint8 and int8): maximum over the clipped window, then clamp.
    public static func maxQuantized<Element: FixedWidthInteger>(
        _ g: ConvolutionGeometry, activationMin: Int32, activationMax: Int32,
        input: UnsafePointer<Element>, output: UnsafeMutablePointer<Element>
    ) {
        let depth = g.inputDepth
        for b in 0..<g.batches {
            for oy in 0..<g.outputHeight {
                for ox in 0..<g.outputWidth {
                    let w = window(g, oy, ox)
                    for c in 0..<depth {
                        var best = Int32(Element.min)
                        for fy in w.y {
                            for fx in w.x {
                                best = max(best, Int32(input[((b * g.inputHeight + w.inY + fy) * g.inputWidth + w.inX + fx) * depth + c]))
                            }
                        }
                        output[((b * g.outputHeight + oy) * g.outputWidth + ox) * depth + c] =
                            Element(truncatingIfNeeded: min(max(best, activationMin), activationMax))
                    }
                }
            }
        }
    }
}
