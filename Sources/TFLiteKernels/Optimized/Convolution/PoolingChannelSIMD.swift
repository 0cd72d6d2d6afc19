/// Optimized AVERAGE_POOL_2D / MAX_POOL_2D: NHWC keeps channels contiguous, so each output
/// pixel is reduced 16 channels at a time over its clipped window, with exactly the
/// reference's arithmetic (integer sums with rounding division, or maxima). Work is split by
/// output rows (`batches · outputHeight`).
public enum PoolingOptimized {
    /// Number of output rows (the unit to split across threads).
    public static func rowCount(_ g: ConvolutionGeometry) -> Int { g.batches * g.outputHeight }

    /// Float MAX_POOL_2D rows.
    public static func maxFloat(_ g: ConvolutionGeometry, activationMin: Float, activationMax: Float,
                                input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, rows: Range<Int>) {
        let lo = SIMD16<Float>(repeating: activationMin), hi = SIMD16<Float>(repeating: activationMax)
        reduce(g, rows: rows, input: input, output: output, initial: SIMD16<Float>(repeating: -.greatestFiniteMagnitude),
               combine: { a, b in a.replacing(with: b, where: b .> a) },
               finish: { v, _ in
                   let c = v.replacing(with: lo, where: v .< lo)
                   return c.replacing(with: hi, where: c .> hi)
               },
               scalarInitial: -.greatestFiniteMagnitude, scalarCombine: { max($0, $1) },
               scalarFinish: { v, _ in min(max(v, activationMin), activationMax) })
    }

    /// Float AVERAGE_POOL_2D rows.
    public static func averageFloat(_ g: ConvolutionGeometry, activationMin: Float, activationMax: Float,
                                    input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, rows: Range<Int>) {
        let lo = SIMD16<Float>(repeating: activationMin), hi = SIMD16<Float>(repeating: activationMax)
        reduce(g, rows: rows, input: input, output: output, initial: SIMD16<Float>(),
               combine: { a, b in a + b },
               finish: { v, count in
                   let m = count > 0 ? v / SIMD16<Float>(repeating: Float(count)) : SIMD16<Float>()
                   let c = m.replacing(with: lo, where: m .< lo)
                   return c.replacing(with: hi, where: c .> hi)
               },
               scalarInitial: 0, scalarCombine: { $0 + $1 },
               scalarFinish: { v, count in count > 0 ? min(max(v / Float(count), activationMin), activationMax) : 0 })
    }

    /// Quantized MAX_POOL_2D rows (uint8 or int8).
    static func maxQuantized<Element: FixedWidthInteger & SIMDScalar>(
        _ g: ConvolutionGeometry, activationMin: Int32, activationMax: Int32,
        input: UnsafePointer<Element>, output: UnsafeMutablePointer<Element>, rows: Range<Int>
    ) {
        let lo = Element(truncatingIfNeeded: max(Int32(Element.min), activationMin))
        let hi = Element(truncatingIfNeeded: min(Int32(Element.max), activationMax))
        let vlo = SIMD16<Element>(repeating: lo), vhi = SIMD16<Element>(repeating: hi)
        reduce(g, rows: rows, input: input, output: output, initial: SIMD16<Element>(repeating: Element.min),
               combine: { a, b in a.replacing(with: b, where: b .> a) },
               finish: { v, _ in
                   let c = v.replacing(with: vlo, where: v .< vlo)
                   return c.replacing(with: vhi, where: c .> vhi)
               },
               scalarInitial: Element.min, scalarCombine: { max($0, $1) },
               scalarFinish: { v, _ in min(max(v, lo), hi) })
    }

    /// Quantized AVERAGE_POOL_2D rows (uint8 or int8): Int32 sums, division rounding half
    /// away from zero, clamp — as the reference.
    static func averageQuantized<Element: FixedWidthInteger & SIMDScalar>(
        _ g: ConvolutionGeometry, activationMin: Int32, activationMax: Int32,
        input: UnsafePointer<Element>, output: UnsafeMutablePointer<Element>, rows: Range<Int>
    ) {
        let c = g.inputDepth
        for row in rows {
            let b = row / g.outputHeight, oy = row % g.outputHeight
            for ox in 0..<g.outputWidth {
                let w = PoolingReference.window(g, oy, ox)
                let count = Int32(w.y.count * w.x.count)
                let dst = output + ((b * g.outputHeight + oy) * g.outputWidth + ox) * c
                var ch = 0
                while ch < c {
                    let lanes = min(16, c - ch)
                    var acc = SIMD16<Int32>()
                    for fy in w.y {
                        let rowBase = input + ((b * g.inputHeight + w.inY + fy) * g.inputWidth + w.inX) * c + ch
                        for fx in w.x {
                            let p = rowBase + fx * c
                            if lanes == 16 {
                                acc &+= SIMD16<Int32>(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: SIMD16<Element>.self))
                            } else {
                                for l in 0..<lanes { acc[l] &+= Int32(p[l]) }
                            }
                        }
                    }
                    for l in 0..<lanes {
                        var a = acc[l]
                        if count > 0 { a = a > 0 ? (a + count / 2) / count : (a - count / 2) / count }
                        dst[ch + l] = Element(truncatingIfNeeded: min(max(a, activationMin), activationMax))
                    }
                    ch += 16
                }
            }
        }
    }

    /// uint8 MAX_POOL_2D rows.
    public static func maxUInt8(_ g: ConvolutionGeometry, activationMin: Int32, activationMax: Int32,
                                input: UnsafePointer<UInt8>, output: UnsafeMutablePointer<UInt8>, rows: Range<Int>) {
        maxQuantized(g, activationMin: activationMin, activationMax: activationMax, input: input, output: output, rows: rows)
    }
    /// int8 MAX_POOL_2D rows.
    public static func maxInt8(_ g: ConvolutionGeometry, activationMin: Int32, activationMax: Int32,
                               input: UnsafePointer<Int8>, output: UnsafeMutablePointer<Int8>, rows: Range<Int>) {
        maxQuantized(g, activationMin: activationMin, activationMax: activationMax, input: input, output: output, rows: rows)
    }
    /// uint8 AVERAGE_POOL_2D rows.
    public static func averageUInt8(_ g: ConvolutionGeometry, activationMin: Int32, activationMax: Int32,
                                    input: UnsafePointer<UInt8>, output: UnsafeMutablePointer<UInt8>, rows: Range<Int>) {
        averageQuantized(g, activationMin: activationMin, activationMax: activationMax, input: input, output: output, rows: rows)
    }
    /// int8 AVERAGE_POOL_2D rows.
    public static func averageInt8(_ g: ConvolutionGeometry, activationMin: Int32, activationMax: Int32,
                                   input: UnsafePointer<Int8>, output: UnsafeMutablePointer<Int8>, rows: Range<Int>) {
        averageQuantized(g, activationMin: activationMin, activationMax: activationMax, input: input, output: output, rows: rows)
    }

    /// The shared window walk: 16-channel vector blocks, then the remaining channels scalar.
    @inline(__always)
    static func reduce<T: SIMDScalar>(
        _ g: ConvolutionGeometry, rows: Range<Int>, input: UnsafePointer<T>, output: UnsafeMutablePointer<T>,
        initial: SIMD16<T>, combine: (SIMD16<T>, SIMD16<T>) -> SIMD16<T>, finish: (SIMD16<T>, Int) -> SIMD16<T>,
        scalarInitial: T, scalarCombine: (T, T) -> T, scalarFinish: (T, Int) -> T
    ) {
        let c = g.inputDepth
        let blocks = c / 16
        for row in rows {
            let b = row / g.outputHeight, oy = row % g.outputHeight
            for ox in 0..<g.outputWidth {
                let w = PoolingReference.window(g, oy, ox)
                let count = w.y.count * w.x.count
                let dst = output + ((b * g.outputHeight + oy) * g.outputWidth + ox) * c
                for blk in 0..<blocks {
                    var acc = initial
                    for fy in w.y {
                        let rowBase = input + ((b * g.inputHeight + w.inY + fy) * g.inputWidth + w.inX) * c + blk * 16
                        for fx in w.x {
                            acc = combine(acc, UnsafeRawPointer(rowBase + fx * c).loadUnaligned(as: SIMD16<T>.self))
                        }
                    }
                    UnsafeMutableRawPointer(dst + blk * 16).storeBytes(of: finish(acc, count), as: SIMD16<T>.self)
                }
                for ch in (blocks * 16)..<c {
                    var acc = scalarInitial
                    for fy in w.y {
                        for fx in w.x {
                            acc = scalarCombine(acc, input[((b * g.inputHeight + w.inY + fy) * g.inputWidth + w.inX + fx) * c + ch])
                        }
                    }
                    dst[ch] = scalarFinish(acc, count)
                }
            }
        }
    }
}
