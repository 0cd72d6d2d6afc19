// RESIZE_BILINEAR (float32) and RESIZE_NEAREST_NEIGHBOR (any type) over a range of output
// rows, with the sampling tables computed once at prepare. Same arithmetic, in the same
// order, as the reference kernels, so results are bit-identical; rows split across threads.
// On AVX2 and AVX-512 CPUs the rows of a bilinear upscale run in `ResizeBilinearRowAVX`.

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
    ///   arguments show it. The weighted rows of an upscale come from `workspace`,
    ///   `bilinearFloatWorkspaceBytes(plan)` bytes for this call alone (the calling thread's, see
    ///   ``KernelWorkspace``), or from a temporary without one.
    public static func bilinearFloat(_ plan: ResizeRowsPlan, rows: Range<Int>,
                                     input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
                                     workspace: KernelWorkspace? = nil) {
        KernelPrecondition.check(rows.lowerBound >= 0 && rows.upperBound <= plan.rowCount,
                                 "RESIZE_BILINEAR rows \(rows) of \(plan.rowCount)")
        let p = plan.parameters
        let depth = p.depth, outWidth = p.outputWidth
        let rowStride = p.inputWidth * depth
        // Upscaling reads each input column for several output columns: each row's products
        // with its vertical weight (`p00 · wy0`, the reference's first multiply) are then made
        // once per input element, 2 per input element instead of 4 more per output element.
        let weighsEachRow = Self.weighsRows(p)
        // Weighed rows are interpolated by the generated row where there is one (AVX2 and up;
        // its ymm form needs a whole step of 8 channels).
        let generatedRow = weighsEachRow
            ? GeneratedKernels.current?.resizeBilinearRow.flatMap { $0.lanes == 16 || depth >= $0.lanes ? $0 : nil } : nil
        plan.xLower.withUnsafeBufferPointer { xl in
        plan.xUpper.withUnsafeBufferPointer { xu in
        plan.xFraction.withUnsafeBufferPointer { xf in
        KernelWorkspace.using(workspace, orTemporary: bilinearFloatWorkspaceBytes(plan)) { workspace in
            let weighted = weighsEachRow ? workspace.take(Float.self, count: 2 * rowStride) : nil
            for row in rows {
                let b = row / p.outputHeight, y = row % p.outputHeight
                let dy = plan.yFraction[y], wy0 = 1 - dy
                let base = input + b * p.inputHeight * rowStride
                let r0 = base + plan.yLower[y] * rowStride, r1 = base + plan.yUpper[y] * rowStride
                let dst = output + row * outWidth * depth
                if weighsEachRow {
                    let top = weighted!, bottom = top + rowStride
                    for i in 0..<rowStride { top[i] = r0[i] * wy0 }
                    for i in 0..<rowStride { bottom[i] = r1[i] * dy }
                    if let generatedRow, outWidth > 0, depth > 0 {
                        interpolateGenerated(generatedRow, top: top, bottom: bottom, xLower: xl.baseAddress!,
                                             xUpper: xu.baseAddress!, xFraction: xf.baseAddress!, depth: depth,
                                             width: outWidth, output: dst)
                    } else {
                        interpolate(top: top, bottom: bottom, rowWeights: nil, xl: xl, xu: xu, xf: xf,
                                    depth: depth, width: outWidth, output: dst)
                    }
                } else {
                    interpolate(top: r0, bottom: r1, rowWeights: (wy0, dy), xl: xl, xu: xu, xf: xf,
                                depth: depth, width: outWidth, output: dst)
                }
            }
        } } } }
    }

    /// One output row from the weighed rows `top` and `bottom` (`interpolate` without row
    /// weights) through `row`, `ResizeBilinearRowAVX` with steps of `row.lanes` channels.
    /// - Precondition: `width ≥ 1`, `depth ≥ 1` (at least `row.lanes` for 8 lanes); the column
    ///   tables hold `width` entries whose runs of `depth` lie inside `top` and `bottom`; `output`
    ///   holds `width · depth` floats. Checked under `LITEVISION_INTERNAL_CHECKS` as far as the
    ///   arguments show it (`GeneratedResizeRowArguments.violation(lanes:)`).
    @inline(never)
    static func interpolateGenerated(_ row: (function: ResizeBilinearRowAVX.Function, lanes: Int),
                                     top: UnsafePointer<Float>, bottom: UnsafePointer<Float>, xLower: UnsafePointer<Int>,
                                     xUpper: UnsafePointer<Int>, xFraction: UnsafePointer<Float>, depth: Int, width: Int,
                                     output: UnsafeMutablePointer<Float>) {
        var arguments = GeneratedResizeRowArguments(
            top: UnsafeRawPointer(top), bottom: UnsafeRawPointer(bottom), xLower: UnsafeRawPointer(xLower),
            xUpper: UnsafeRawPointer(xUpper), xFraction: UnsafeRawPointer(xFraction), width: width,
            fullBlocks: depth / row.lanes, output: UnsafeMutableRawPointer(output), pixelBytes: 4 * depth,
            tailMask: (UInt32(1) << UInt32(depth % row.lanes)) - 1)
        KernelPrecondition.holds(arguments.violation(lanes: row.lanes))
        withUnsafePointer(to: &arguments) { row.function(UnsafeRawPointer($0)) }
    }

    /// Whether `bilinearFloat` weighs each input row once before interpolating (an upscale:
    /// fewer than two input columns per output column).
    static func weighsRows(_ p: ResizeParameters) -> Bool { p.inputWidth < 2 * p.outputWidth }

    /// Bytes of workspace a `bilinearFloat` call on `plan` takes: two weighted input rows where
    /// it `weighsRows`, else none.
    public static func bilinearFloatWorkspaceBytes(_ plan: ResizeRowsPlan) -> Int {
        let p = plan.parameters
        return weighsRows(p) ? KernelWorkspace.bytes(Float.self, count: 2 * p.inputWidth * p.depth) : 0
    }

    /// One output row from input rows `top` and `bottom`: the reference's
    /// `p00·wy0·wx0 + p10·dy·wx0 + p01·wy0·dx + p11·dy·dx`, in its order, 16 and 4 channels at
    /// a time, then single ones (every lane keeps the order, so results stay bit-identical).
    /// With `rowWeights` nil the rows already hold `p · wy0` and `p · dy`.
    @inline(__always)
    static func interpolate(top r0: UnsafePointer<Float>, bottom r1: UnsafePointer<Float>,
                                    rowWeights: (wy0: Float, dy: Float)?, xl: UnsafeBufferPointer<Int>,
                                    xu: UnsafeBufferPointer<Int>, xf: UnsafeBufferPointer<Float>, depth: Int, width: Int,
                                    output: UnsafeMutablePointer<Float>) {
        var dst = output
        for x in 0..<width {
            let dx = xf[x], wx0 = 1 - dx
            let corners = Corners(p00: r0 + xl[x], p10: r1 + xl[x], p01: r0 + xu[x], p11: r1 + xu[x])
            var c = 0
            if let (wy0, dy) = rowWeights {
                if depth >= 16 { corners.blend(SIMD16<Float>.self, from: &c, depth: depth, wy0: wy0, dy: dy, wx0: wx0, dx: dx, into: dst) }
                corners.blend(SIMD4<Float>.self, from: &c, depth: depth, wy0: wy0, dy: dy, wx0: wx0, dx: dx, into: dst)
                let (p00, p10, p01, p11) = (corners.p00, corners.p10, corners.p01, corners.p11)
                while c < depth {
                    dst[c] = p00[c] * wy0 * wx0 + p10[c] * dy * wx0 + p01[c] * wy0 * dx + p11[c] * dy * dx
                    c += 1
                }
            } else {
                if depth >= 16 { corners.blendWeighted(SIMD16<Float>.self, from: &c, depth: depth, wx0: wx0, dx: dx, into: dst) }
                corners.blendWeighted(SIMD4<Float>.self, from: &c, depth: depth, wx0: wx0, dx: dx, into: dst)
                let (p00, p10, p01, p11) = (corners.p00, corners.p10, corners.p01, corners.p11)
                while c < depth {
                    dst[c] = p00[c] * wx0 + p10[c] * wx0 + p01[c] * dx + p11[c] * dx
                    c += 1
                }
            }
            dst += depth
        }
    }

    /// The four input pixels one output pixel interpolates: lower / upper row (`0` / `1`) by
    /// lower / upper column (`0` / `1`).
    private struct Corners {
        let p00: UnsafePointer<Float>, p10: UnsafePointer<Float>, p01: UnsafePointer<Float>, p11: UnsafePointer<Float>

        /// Channels `c ..< c + k · V.scalarCount` while they fit in `depth`, `c` advanced past them:
        /// `p00·wy0·wx0 + p10·dy·wx0 + p01·wy0·dx + p11·dy·dx` per lane, the reference's order.
        @inline(__always)
        func blend<V: SIMD>(_: V.Type, from c: inout Int, depth: Int, wy0: Float, dy: Float, wx0: Float, dx: Float,
                            into dst: UnsafeMutablePointer<Float>) where V.Scalar == Float {
            let vwy0 = V(repeating: wy0), vdy = V(repeating: dy), vwx0 = V(repeating: wx0), vdx = V(repeating: dx)
            while c + V.scalarCount <= depth {
                let a = load(V.self, p00 + c) * vwy0 * vwx0
                let b = load(V.self, p10 + c) * vdy * vwx0
                let d = load(V.self, p01 + c) * vwy0 * vdx
                let e = load(V.self, p11 + c) * vdy * vdx
                UnsafeMutableRawPointer(dst + c).storeBytes(of: a + b + d + e, as: V.self)
                c += V.scalarCount
            }
        }

        /// As `blend` on rows that already hold `p · wy0` (row 0) and `p · dy` (row 1):
        /// `p00·wx0 + p10·wx0 + p01·dx + p11·dx` per lane.
        @inline(__always)
        func blendWeighted<V: SIMD>(_: V.Type, from c: inout Int, depth: Int, wx0: Float, dx: Float,
                                    into dst: UnsafeMutablePointer<Float>) where V.Scalar == Float {
            let vwx0 = V(repeating: wx0), vdx = V(repeating: dx)
            while c + V.scalarCount <= depth {
                let sum = load(V.self, p00 + c) * vwx0 + load(V.self, p10 + c) * vwx0 + load(V.self, p01 + c) * vdx
                UnsafeMutableRawPointer(dst + c).storeBytes(of: sum + load(V.self, p11 + c) * vdx, as: V.self)
                c += V.scalarCount
            }
        }

        @inline(__always)
        private func load<V: SIMD>(_: V.Type, _ p: UnsafePointer<Float>) -> V where V.Scalar == Float {
            UnsafeRawPointer(p).loadUnaligned(as: V.self)
        }
    }

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
