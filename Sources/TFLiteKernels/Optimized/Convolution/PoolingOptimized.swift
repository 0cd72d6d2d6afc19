/// Optimized AVERAGE_POOL_2D / MAX_POOL_2D: NHWC keeps channels contiguous, so pixels are
/// reduced 16 channels at a time, with exactly the reference's arithmetic (integer sums with
/// rounding division, float sums in window order, or maxima). Work is split by output rows
/// (`batches · outputHeight`).
///
/// MAX_POOL_2D is separable (the maximum over a clipped rectangle is the maximum over its
/// rows of the maxima over its columns): each output row first reduces its window's input
/// rows into one row of column maxima, then slides the horizontal window over that row —
/// `filterHeight + filterWidth` vector maxima per output pixel instead of their product.
public enum PoolingOptimized {
    /// Number of output rows (the unit to split across threads).
    public static func rowCount(_ g: ConvolutionGeometry) -> Int { g.batches * g.outputHeight }

    /// Bytes of workspace a MAX_POOL_2D call on `g` over `T` elements takes: one row of column
    /// maxima (`inputWidth × inputDepth` elements). The AVERAGE_POOL_2D rows take none.
    public static func maxWorkspaceBytes<T>(_ g: ConvolutionGeometry, of type: T.Type) -> Int {
        KernelWorkspace.bytes(T.self, count: g.inputWidth * g.inputDepth)
    }

    /// Float MAX_POOL_2D rows. Each MAX_POOL_2D entry takes its row of column maxima from
    /// `workspace`, `maxWorkspaceBytes(g, of:)` bytes for this call alone (the calling thread's,
    /// see ``KernelWorkspace``), or from a temporary without one.
    public static func maxFloat(_ g: ConvolutionGeometry, activationMin: Float, activationMax: Float,
                                input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, rows: Range<Int>,
                                workspace: KernelWorkspace? = nil) {
        separableMax(g, lowest: -Float.greatestFiniteMagnitude, activationMin: activationMin, activationMax: activationMax,
                     input: input, output: output, rows: rows, workspace: workspace)
    }

    /// Float AVERAGE_POOL_2D rows.
    public static func averageFloat(_ g: ConvolutionGeometry, activationMin: Float, activationMax: Float,
                                    input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, rows: Range<Int>) {
        let lo = SIMD16<Float>(repeating: activationMin), hi = SIMD16<Float>(repeating: activationMax)
        let c = g.inputDepth
        let blocks = c / 16
        for row in rows {
            let b = row / g.outputHeight, oy = row % g.outputHeight
            for ox in 0..<g.outputWidth {
                let w = PoolingReference.window(g, oy, ox)
                let count = w.y.count * w.x.count
                let dst = output + ((b * g.outputHeight + oy) * g.outputWidth + ox) * c
                for blk in 0..<blocks {
                    var acc = SIMD16<Float>()
                    for fy in w.y {
                        let rowBase = input + ((b * g.inputHeight + w.inY + fy) * g.inputWidth + w.inX) * c + blk * 16
                        for fx in w.x {
                            acc += UnsafeRawPointer(rowBase + fx * c).loadUnaligned(as: SIMD16<Float>.self)
                        }
                    }
                    var m = count > 0 ? acc / SIMD16<Float>(repeating: Float(count)) : SIMD16<Float>()
                    m = m.replacing(with: lo, where: m .< lo)
                    m = m.replacing(with: hi, where: m .> hi)
                    UnsafeMutableRawPointer(dst + blk * 16).storeBytes(of: m, as: SIMD16<Float>.self)
                }
                for ch in (blocks * 16)..<c {
                    var acc: Float = 0
                    for fy in w.y {
                        for fx in w.x {
                            acc += input[((b * g.inputHeight + w.inY + fy) * g.inputWidth + w.inX + fx) * c + ch]
                        }
                    }
                    dst[ch] = count > 0 ? min(max(acc / Float(count), activationMin), activationMax) : 0
                }
            }
        }
    }

    /// uint8 MAX_POOL_2D rows.
    public static func maxUInt8(_ g: ConvolutionGeometry, activationMin: Int32, activationMax: Int32,
                                input: UnsafePointer<UInt8>, output: UnsafeMutablePointer<UInt8>, rows: Range<Int>,
                                workspace: KernelWorkspace? = nil) {
        let lo = UInt8(clamping: activationMin), hi = UInt8(clamping: activationMax)
        separableMax(g, lowest: UInt8.min, activationMin: lo, activationMax: hi, input: input, output: output, rows: rows,
                     workspace: workspace)
    }

    /// int8 MAX_POOL_2D rows.
    public static func maxInt8(_ g: ConvolutionGeometry, activationMin: Int32, activationMax: Int32,
                               input: UnsafePointer<Int8>, output: UnsafeMutablePointer<Int8>, rows: Range<Int>,
                               workspace: KernelWorkspace? = nil) {
        let lo = Int8(clamping: activationMin), hi = Int8(clamping: activationMax)
        separableMax(g, lowest: Int8.min, activationMin: lo, activationMax: hi, input: input, output: output, rows: rows,
                     workspace: workspace)
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

    /// Separable maximum over each output row's clipped window, then the activation clamp
    /// (`activationMin ≤ activationMax` within the element type). An empty window yields the
    /// clamped `lowest`, as the reference.
    @inline(__always)
    static func separableMax<T: PoolingLane>(
        _ g: ConvolutionGeometry, lowest: T, activationMin: T, activationMax: T,
        input: UnsafePointer<T>, output: UnsafeMutablePointer<T>, rows: Range<Int>, workspace: KernelWorkspace?
    ) {
        let c = g.inputDepth, width = g.inputWidth
        guard c > 0, width > 0, !rows.isEmpty else { return }
        let blocks = c / 16
        let vLowest = SIMD16<T>(repeating: lowest)
        let vlo = SIMD16<T>(repeating: activationMin), vhi = SIMD16<T>(repeating: activationMax)
        KernelWorkspace.using(workspace, orTemporary: maxWorkspaceBytes(g, of: T.self)) { workspace in
            let columnMax = workspace.take(T.self, count: width * c)
            for row in rows {
                let b = row / g.outputHeight, oy = row % g.outputHeight
                let inY = oy * g.strideHeight - g.padTop
                let yStart = max(0, -inY), yEnd = max(yStart, min(g.filterHeight, g.inputHeight - inY))
                // Vertical pass: the maximum of the window's input rows, per input pixel.
                if yStart == yEnd {
                    columnMax.initialize(repeating: lowest, count: width * c)
                } else {
                    let first = input + (b * g.inputHeight + inY + yStart) * width * c
                    columnMax.initialize(from: first, count: width * c)
                    for fy in (yStart + 1)..<yEnd {
                        let src = input + (b * g.inputHeight + inY + fy) * width * c
                        var i = 0
                        while i + 16 <= width * c {
                            let m = T.laneMax(UnsafeRawPointer(columnMax + i).loadUnaligned(as: SIMD16<T>.self),
                                              UnsafeRawPointer(src + i).loadUnaligned(as: SIMD16<T>.self))
                            UnsafeMutableRawPointer(columnMax + i).storeBytes(of: m, as: SIMD16<T>.self)
                            i += 16
                        }
                        while i < width * c { columnMax[i] = T.scalarMax(columnMax[i], src[i]); i += 1 }
                    }
                }
                // Horizontal pass: slide the clipped column window over the row of maxima.
                for ox in 0..<g.outputWidth {
                    let inX = ox * g.strideWidth - g.padLeft
                    let xStart = max(0, -inX), xEnd = max(xStart, min(g.filterWidth, width - inX))
                    let dst = output + ((b * g.outputHeight + oy) * g.outputWidth + ox) * c
                    for blk in 0..<blocks {
                        var acc = vLowest
                        for fx in xStart..<xEnd {
                            acc = T.laneMax(acc, UnsafeRawPointer(columnMax + (inX + fx) * c + blk * 16)
                                .loadUnaligned(as: SIMD16<T>.self))
                        }
                        acc = T.laneMin(T.laneMax(acc, vlo), vhi)
                        UnsafeMutableRawPointer(dst + blk * 16).storeBytes(of: acc, as: SIMD16<T>.self)
                    }
                    // Narrow layers (8 channels of a small classifier) and 8-channel remainders.
                    var ch = blocks * 16
                    if ch + 8 <= c {
                        var acc = SIMD8<T>(repeating: lowest)
                        for fx in xStart..<xEnd {
                            acc = T.laneMax(acc, UnsafeRawPointer(columnMax + (inX + fx) * c + ch).loadUnaligned(as: SIMD8<T>.self))
                        }
                        acc = T.laneMin(T.laneMax(acc, SIMD8(repeating: activationMin)), SIMD8(repeating: activationMax))
                        UnsafeMutableRawPointer(dst + ch).storeBytes(of: acc, as: SIMD8<T>.self)
                        ch += 8
                    }
                    for ch in ch..<c {
                        var acc = lowest
                        for fx in xStart..<xEnd { acc = T.scalarMax(acc, columnMax[(inX + fx) * c + ch]) }
                        dst[ch] = T.scalarMin(T.scalarMax(acc, activationMin), activationMax)
                    }
                }
            }
        }
    }

    /// Quantized AVERAGE_POOL_2D rows (uint8 or int8): Int32 sums, division rounding half
    /// away from zero, clamp — as the reference.
    @inline(__always)
    static func averageQuantized<Element: PoolingLane & QuantizedByteLane>(
        _ g: ConvolutionGeometry, activationMin: Int32, activationMax: Int32,
        input: UnsafePointer<Element>, output: UnsafeMutablePointer<Element>, rows: Range<Int>
    ) {
        let c = g.inputDepth
        let blocks = c / 16
        for row in rows {
            let b = row / g.outputHeight, oy = row % g.outputHeight
            for ox in 0..<g.outputWidth {
                let w = PoolingReference.window(g, oy, ox)
                let count = Int32(w.y.count * w.x.count)
                let dst = output + ((b * g.outputHeight + oy) * g.outputWidth + ox) * c
                for blk in 0..<blocks {
                    var acc = SIMD16<Int32>()
                    for fy in w.y {
                        let rowBase = input + ((b * g.inputHeight + w.inY + fy) * g.inputWidth + w.inX) * c + blk * 16
                        for fx in w.x { acc &+= Element.widened(rowBase + fx * c) }
                    }
                    for l in 0..<16 {
                        dst[blk * 16 + l] = Element(truncatingIfNeeded: roundedClamped(acc[l], count, activationMin, activationMax))
                    }
                }
                for ch in (blocks * 16)..<c {
                    var acc: Int32 = 0
                    for fy in w.y {
                        for fx in w.x {
                            acc &+= Int32(input[((b * g.inputHeight + w.inY + fy) * g.inputWidth + w.inX + fx) * c + ch])
                        }
                    }
                    dst[ch] = Element(truncatingIfNeeded: roundedClamped(acc, count, activationMin, activationMax))
                }
            }
        }
    }

    /// `sum / count` rounded half away from zero (the sum itself when `count` is 0), clamped.
    @inline(__always)
    static func roundedClamped(_ sum: Int32, _ count: Int32, _ lo: Int32, _ hi: Int32) -> Int32 {
        var a = sum
        if count > 0 { a = a > 0 ? (a + count / 2) / count : (a - count / 2) / count }
        return min(max(a, lo), hi)
    }
}

/// Element types of the optimized pooling kernels. The vector operations are written once
/// per concrete type, where the compare-and-select lowers to single vector instructions
/// (the generic `SIMD` versions, picked when written in generic code, go lane by lane).
/// Every maximum and minimum keeps its first operand on ties (`std::max`, `std::min`; Swift's
/// `max` keeps the second), in vector lanes and single lanes alike, so all channels of a layer
/// break ties alike. Which zero a float window of `-0.0` and `0.0` yields is not pinned: the
/// separable maximum meets the zeros column by column, the reference row by row, and the
/// reference runtime's own kernels disagree on it (its optimized MAX_POOL_2D with a RELU gives
/// `0.0` where its reference kernel keeps `-0.0`).
protocol PoolingLane: SIMDScalar, Comparable, Hashable, Codable {
    /// Lane-wise maximum.
    static func laneMax(_ a: SIMD16<Self>, _ b: SIMD16<Self>) -> SIMD16<Self>
    /// Lane-wise minimum.
    static func laneMin(_ a: SIMD16<Self>, _ b: SIMD16<Self>) -> SIMD16<Self>
    /// Lane-wise maximum of 8 lanes.
    static func laneMax(_ a: SIMD8<Self>, _ b: SIMD8<Self>) -> SIMD8<Self>
    /// Lane-wise minimum of 8 lanes.
    static func laneMin(_ a: SIMD8<Self>, _ b: SIMD8<Self>) -> SIMD8<Self>
}

extension PoolingLane {
    /// `b` where `a < b`, else `a` (`std::max`).
    @inline(__always)
    static func scalarMax(_ a: Self, _ b: Self) -> Self { a < b ? b : a }
    /// `b` where `b < a`, else `a` (`std::min`).
    @inline(__always)
    static func scalarMin(_ a: Self, _ b: Self) -> Self { b < a ? b : a }
}

extension Int8: PoolingLane {
    @inline(__always)
    static func laneMax(_ a: SIMD16<Int8>, _ b: SIMD16<Int8>) -> SIMD16<Int8> { a.replacing(with: b, where: a .< b) }
    @inline(__always)
    static func laneMin(_ a: SIMD16<Int8>, _ b: SIMD16<Int8>) -> SIMD16<Int8> { a.replacing(with: b, where: b .< a) }
    @inline(__always)
    static func laneMax(_ a: SIMD8<Int8>, _ b: SIMD8<Int8>) -> SIMD8<Int8> { a.replacing(with: b, where: a .< b) }
    @inline(__always)
    static func laneMin(_ a: SIMD8<Int8>, _ b: SIMD8<Int8>) -> SIMD8<Int8> { a.replacing(with: b, where: b .< a) }
}

extension UInt8: PoolingLane {
    @inline(__always)
    static func laneMax(_ a: SIMD16<UInt8>, _ b: SIMD16<UInt8>) -> SIMD16<UInt8> { a.replacing(with: b, where: a .< b) }
    @inline(__always)
    static func laneMin(_ a: SIMD16<UInt8>, _ b: SIMD16<UInt8>) -> SIMD16<UInt8> { a.replacing(with: b, where: b .< a) }
    @inline(__always)
    static func laneMax(_ a: SIMD8<UInt8>, _ b: SIMD8<UInt8>) -> SIMD8<UInt8> { a.replacing(with: b, where: a .< b) }
    @inline(__always)
    static func laneMin(_ a: SIMD8<UInt8>, _ b: SIMD8<UInt8>) -> SIMD8<UInt8> { a.replacing(with: b, where: b .< a) }
}

extension Float: PoolingLane {
    @inline(__always)
    static func laneMax(_ a: SIMD16<Float>, _ b: SIMD16<Float>) -> SIMD16<Float> { a.replacing(with: b, where: a .< b) }
    @inline(__always)
    static func laneMin(_ a: SIMD16<Float>, _ b: SIMD16<Float>) -> SIMD16<Float> { a.replacing(with: b, where: b .< a) }
    @inline(__always)
    static func laneMax(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { a.replacing(with: b, where: a .< b) }
    @inline(__always)
    static func laneMin(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { a.replacing(with: b, where: b .< a) }
}
