// RESIZE_BILINEAR (float32) and RESIZE_NEAREST_NEIGHBOR (any type) over a range of output
// rows, with the sampling tables computed once at prepare. Same arithmetic, in the same
// order, as the reference kernels, so results are bit-identical; rows split across threads.

/// Sampling tables for resizing one NHWC geometry.
public struct ResizeRowsPlan: Sendable {
    /// The geometry.
    public let parameters: ResizeParameters
    /// Per output column: element offsets (× depth) of the lower and upper input columns.
    let xLower: [Int], xUpper: [Int]
    /// Per output column: fractional distance from the lower column.
    let xFraction: [Float]
    /// Per output row: lower and upper input rows.
    let yLower: [Int], yUpper: [Int]
    /// Per output row: fractional distance from the lower row.
    let yFraction: [Float]

    /// Bilinear tables (the reference's float `ComputeInterpolationValues`).
    public init(bilinear p: ResizeParameters) {
        parameters = p
        let hs = BilinearSample.scale(input: p.inputHeight, output: p.outputHeight, alignCorners: p.alignCorners)
        let ws = BilinearSample.scale(input: p.inputWidth, output: p.outputWidth, alignCorners: p.alignCorners)
        let ys = (0..<p.outputHeight).map { BilinearSample($0, scale: hs, halfPixelCenters: p.halfPixelCenters, inputSize: p.inputHeight) }
        let xs = (0..<p.outputWidth).map { BilinearSample($0, scale: ws, halfPixelCenters: p.halfPixelCenters, inputSize: p.inputWidth) }
        yLower = ys.map(\.lower); yUpper = ys.map(\.upper); yFraction = ys.map { $0.position - Float($0.lower) }
        xLower = xs.map { $0.lower * p.depth }; xUpper = xs.map { $0.upper * p.depth }
        xFraction = xs.map { $0.position - Float($0.lower) }
    }

    /// Nearest-neighbour tables (the reference's `GetNearestNeighbor`).
    public init(nearest p: ResizeParameters) {
        parameters = p
        yLower = (0..<p.outputHeight).map {
            ResizeNearestNeighborReference.sourceIndex($0, inputSize: p.inputHeight, outputSize: p.outputHeight,
                                              alignCorners: p.alignCorners, halfPixelCenters: p.halfPixelCenters)
        }
        xLower = (0..<p.outputWidth).map {
            ResizeNearestNeighborReference.sourceIndex($0, inputSize: p.inputWidth, outputSize: p.outputWidth,
                                              alignCorners: p.alignCorners, halfPixelCenters: p.halfPixelCenters) * p.depth
        }
        yUpper = []; xUpper = []; yFraction = []; xFraction = []
    }

    /// Number of output rows (`batches × outputHeight`), the unit of work splitting.
    public var rowCount: Int { parameters.batches * parameters.outputHeight }
}

/// Row-range resize kernels.
public enum ResizeOptimized {
    /// Bilinear float32 for output rows `rows` (indices into `batches × outputHeight`).
    /// - Precondition: `rows` within `0..<plan.rowCount`; `input` and `output` hold the plan's
    ///   input and output elements. Checked under `LITEVISION_INTERNAL_CHECKS` as far as the
    ///   arguments show it.
    public static func bilinearFloat(_ plan: ResizeRowsPlan, rows: Range<Int>,
                                     input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        KernelPrecondition.check(rows.lowerBound >= 0 && rows.upperBound <= plan.rowCount,
                                 "RESIZE_BILINEAR rows \(rows) of \(plan.rowCount)")
        let p = plan.parameters
        let depth = p.depth, outWidth = p.outputWidth
        let rowStride = p.inputWidth * depth
        // Upscaling reads each input column for several output columns: each row's products
        // with its vertical weight (`p00 · wy0`, the reference's first multiply) are then made
        // once per input element, 2 per input element instead of 4 more per output element.
        let weighsRows = p.inputWidth < 2 * outWidth
        plan.xLower.withUnsafeBufferPointer { xl in
        plan.xUpper.withUnsafeBufferPointer { xu in
        plan.xFraction.withUnsafeBufferPointer { xf in
        withUnsafeTemporaryAllocation(of: Float.self, capacity: weighsRows ? 2 * rowStride : 0) { weighted in
            for row in rows {
                let b = row / p.outputHeight, y = row % p.outputHeight
                let dy = plan.yFraction[y], wy0 = 1 - dy
                let base = input + b * p.inputHeight * rowStride
                let r0 = base + plan.yLower[y] * rowStride, r1 = base + plan.yUpper[y] * rowStride
                let dst = output + row * outWidth * depth
                if weighsRows {
                    let top = weighted.baseAddress!, bottom = top + rowStride
                    for i in 0..<rowStride { top[i] = r0[i] * wy0 }
                    for i in 0..<rowStride { bottom[i] = r1[i] * dy }
                    interpolate(top: top, bottom: bottom, rowWeights: nil, xl: xl, xu: xu, xf: xf,
                                depth: depth, width: outWidth, output: dst)
                } else {
                    interpolate(top: r0, bottom: r1, rowWeights: (wy0, dy), xl: xl, xu: xu, xf: xf,
                                depth: depth, width: outWidth, output: dst)
                }
            }
        } } } }
    }

    /// One output row from input rows `top` and `bottom`: the reference's
    /// `p00·wy0·wx0 + p10·dy·wx0 + p01·wy0·dx + p11·dy·dx`, in its order, 16 and 4 channels at
    /// a time, then single ones (every lane keeps the order, so results stay bit-identical).
    /// With `rowWeights` nil the rows already hold `p · wy0` and `p · dy`.
    @inline(__always)
    private static func interpolate(top r0: UnsafePointer<Float>, bottom r1: UnsafePointer<Float>,
                                    rowWeights: (wy0: Float, dy: Float)?, xl: UnsafeBufferPointer<Int>,
                                    xu: UnsafeBufferPointer<Int>, xf: UnsafeBufferPointer<Float>, depth: Int, width: Int,
                                    output: UnsafeMutablePointer<Float>) {
        var dst = output
        for x in 0..<width {
            let dx = xf[x], wx0 = 1 - dx
            let p00 = r0 + xl[x], p10 = r1 + xl[x], p01 = r0 + xu[x], p11 = r1 + xu[x]
            var c = 0
            if let (wy0, dy) = rowWeights {
                if depth >= 16 {
                    let vwy0 = SIMD16<Float>(repeating: wy0), vdy = SIMD16<Float>(repeating: dy)
                    let vwx0 = SIMD16<Float>(repeating: wx0), vdx = SIMD16<Float>(repeating: dx)
                    while c + 16 <= depth {
                        let a = load16(p00 + c) * vwy0 * vwx0
                        let bb = load16(p10 + c) * vdy * vwx0
                        let cc = load16(p01 + c) * vwy0 * vdx
                        let d = load16(p11 + c) * vdy * vdx
                        UnsafeMutableRawPointer(dst + c).storeBytes(of: a + bb + cc + d, as: SIMD16<Float>.self)
                        c += 16
                    }
                }
                if c + 4 <= depth {
                    let vwy0 = SIMD4<Float>(repeating: wy0), vdy = SIMD4<Float>(repeating: dy)
                    let vwx0 = SIMD4<Float>(repeating: wx0), vdx = SIMD4<Float>(repeating: dx)
                    while c + 4 <= depth {
                        let a = load4(p00 + c) * vwy0 * vwx0
                        let bb = load4(p10 + c) * vdy * vwx0
                        let cc = load4(p01 + c) * vwy0 * vdx
                        let d = load4(p11 + c) * vdy * vdx
                        UnsafeMutableRawPointer(dst + c).storeBytes(of: a + bb + cc + d, as: SIMD4<Float>.self)
                        c += 4
                    }
                }
                while c < depth {
                    dst[c] = p00[c] * wy0 * wx0 + p10[c] * dy * wx0 + p01[c] * wy0 * dx + p11[c] * dy * dx
                    c += 1
                }
            } else {
                if depth >= 16 {
                    let vwx0 = SIMD16<Float>(repeating: wx0), vdx = SIMD16<Float>(repeating: dx)
                    while c + 16 <= depth {
                        let sum = load16(p00 + c) * vwx0 + load16(p10 + c) * vwx0 + load16(p01 + c) * vdx
                        UnsafeMutableRawPointer(dst + c).storeBytes(of: sum + load16(p11 + c) * vdx, as: SIMD16<Float>.self)
                        c += 16
                    }
                }
                if c + 4 <= depth {
                    let vwx0 = SIMD4<Float>(repeating: wx0), vdx = SIMD4<Float>(repeating: dx)
                    while c + 4 <= depth {
                        let sum = load4(p00 + c) * vwx0 + load4(p10 + c) * vwx0 + load4(p01 + c) * vdx
                        UnsafeMutableRawPointer(dst + c).storeBytes(of: sum + load4(p11 + c) * vdx, as: SIMD4<Float>.self)
                        c += 4
                    }
                }
                while c < depth {
                    dst[c] = p00[c] * wx0 + p10[c] * wx0 + p01[c] * dx + p11[c] * dx
                    c += 1
                }
            }
            dst += depth
        }
    }

    @inline(__always)
    static func load16(_ p: UnsafePointer<Float>) -> SIMD16<Float> { UnsafeRawPointer(p).loadUnaligned(as: SIMD16<Float>.self) }
    @inline(__always)
    static func load4(_ p: UnsafePointer<Float>) -> SIMD4<Float> { UnsafeRawPointer(p).loadUnaligned(as: SIMD4<Float>.self) }

    /// Nearest neighbour for output rows `rows`, elements of `elementSize` bytes.
    /// - Precondition: `rows` within `0..<plan.rowCount`, `elementSize ≥ 1`; `input` and `output`
    ///   hold the plan's input and output elements. Checked under `LITEVISION_INTERNAL_CHECKS` as
    ///   far as the arguments show it.
    public static func nearest(_ plan: ResizeRowsPlan, rows: Range<Int>, elementSize: Int,
                               input: UnsafeRawPointer, output: UnsafeMutableRawPointer) {
        KernelPrecondition.check(rows.lowerBound >= 0 && rows.upperBound <= plan.rowCount && elementSize >= 1,
                                 "RESIZE_NEAREST_NEIGHBOR rows \(rows) of \(plan.rowCount), element size \(elementSize)")
        let p = plan.parameters
        let pixelBytes = p.depth * elementSize
        let rowBytes = p.inputWidth * pixelBytes
        plan.xLower.withUnsafeBufferPointer { xl in
            for row in rows {
                let b = row / p.outputHeight, y = row % p.outputHeight
                let src = input + (b * p.inputHeight + plan.yLower[y]) * rowBytes
                var dst = output + row * p.outputWidth * pixelBytes
                for x in 0..<p.outputWidth {
                    dst.copyMemory(from: src + xl[x] * elementSize, byteCount: pixelBytes)
                    dst += pixelBytes
                }
            }
        }
    }
}
