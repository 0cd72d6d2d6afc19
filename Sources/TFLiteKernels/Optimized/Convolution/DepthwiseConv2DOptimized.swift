/// Optimized DEPTHWISE_CONV_2D for depth multiplier 1 (layers with a multiplier run here on an input
/// with each channel repeated, `DepthMultiplierExpansion`): NHWC keeps
/// channels contiguous, so output pixels are computed 16 channels at a time (`SIMD16`).
/// Each output row is computed as float sums (`DepthwiseRowSums`: border pixels with bounds
/// checks, interior pixels without, several pixels per weight load, 3×3 and 5×5 filters at
/// stride 1 and 2 compiled as unrolled loops), then finished by an epilogue in one pass
/// (float: bias and clamp in place; quantized: exact integer, bias, requantization). Work is
/// split by output rows (`batches · outputHeight` of them).
///
/// Quantized inputs arrive as exact floats `x + inputOffset` (`Conv2DOptimized.offsetInput`) and filters as
/// `w + filterOffset` (`ConvFilterPacking.packDepthwiseInteger`): their float sums over at most
/// `Conv2DOptimized.exactSteps` taps are the exact integers the reference accumulates.
public enum DepthwiseConv2DOptimized {
    /// True when these kernels apply (`depthMultiplier == 1`, and few enough taps for the
    /// quantized kernels' exact float partial sums).
    public static func supports(_ g: ConvolutionGeometry) -> Bool {
        g.inputDepth == g.outputDepth && g.filterHeight * g.filterWidth <= Conv2DOptimized.exactSteps
    }

    /// True when float layers should read their input in place rather than through input
    /// windows: the generated tiles run border pixels on clipped windows (and finish rows in
    /// registers with AVX-512), so copying rows into windows only adds work. Measured on an
    /// AVX-512 Xeon, 1 thread: face_detection_full_range 3.17 -> 2.89 ms, deeplabv3 11.3 ->
    /// 10.7-11.0 ms; with its AVX2 tiles (LITEVISION_ISA=avx2, with the 8- and 4-channel
    /// remainder tiles): face_detection_full_range 4.82-4.85 -> 4.59-4.64 ms, deeplabv3
    /// 22.7-23.0 -> 21.8-22.2 ms.
    public static var floatReadsInPlace: Bool {
        #if LITEVISION_AVX512
        false
        #else
        GeneratedKernels.current?.depthwiseTiles16 != nil
        #endif
    }

    /// Number of output rows (the unit to split across threads).
    public static func rowCount(_ g: ConvolutionGeometry) -> Int { g.batches * g.outputHeight }

    /// Float depthwise convolution of output rows `rows`. With `fusedMultiplyAdd`, the
    /// generated interior tiles add each product with one rounding (each step within an ulp of
    /// the separately rounded one); without it, results are the reference's bit for bit.
    public static func float(_ g: ConvolutionGeometry, activationMin: Float, activationMax: Float,
                             input: UnsafePointer<Float>, filter: UnsafePointer<Float>,
                             bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>, rows: Range<Int>,
                             fusedMultiplyAdd: Bool = false) {
        let epilogue = DepthwiseFloatEpilogue(bias: bias, activationMin: activationMin, activationMax: activationMax)
        run(g, input: input, filter: filter, epilogue: epilogue, output: output, rows: rows, fusedMultiplyAdd: fusedMultiplyAdd)
    }

    /// Quantized (uint8 / int8) depthwise convolution of output rows `rows`, bit-exact with
    /// the reference (see the type's notes for `offsetInput` and `packedFilter`).
    /// Each row's sums go through a row of `workspace` (`quantizedWorkspaceBytes(g)` bytes for
    /// this call alone, see ``KernelWorkspace``; nil: a temporary).
    static func quantized<Element: FixedWidthInteger>(
        _ g: ConvolutionGeometry, _ requantizer: ConvRequantizer, offsetInput: UnsafePointer<Float>,
        packedFilter: UnsafePointer<Float>, bias: UnsafePointer<Int32>?,
        output: UnsafeMutablePointer<Element>, rows: Range<Int>, workspace: KernelWorkspace? = nil
    ) {
        precondition(Element.bitWidth == 8, "8-bit outputs only")
        let epilogue = DepthwiseRequantizeEpilogue(requantizer: requantizer, bias: bias)
        let bytes = UnsafeMutableRawPointer(output).assumingMemoryBound(to: UInt8.self)
        run(g, input: offsetInput, filter: packedFilter, epilogue: epilogue, output: bytes, rows: rows, workspace: workspace)
    }

    /// Bytes of workspace an unwindowed `quantized` call on `g` takes: one output row of sums.
    /// (The float rows finish in place and take none.)
    static func quantizedWorkspaceBytes(_ g: ConvolutionGeometry) -> Int {
        KernelWorkspace.bytes(Float.self, count: g.outputWidth * g.outputDepth)
    }

    /// Computes each row's sums (into the output row itself when the epilogue finishes in
    /// place, else into a row of `workspace` or of a temporary without one) and finishes it:
    /// float rows in the generated tiles where this process has finishing tiles, else by the
    /// epilogue's pass.
    @inline(__always)
    static func run<E: DepthwiseEpilogue>(_ g: ConvolutionGeometry, input: UnsafePointer<Float>,
                                          filter: UnsafePointer<Float>, epilogue: E,
                                          output: UnsafeMutablePointer<E.Output>, rows: Range<Int>,
                                          fusedMultiplyAdd: Bool = false, workspace: KernelWorkspace? = nil) {
        let rowLength = g.outputWidth * g.outputDepth
        var options = DepthwiseRowOptions(fusedMultiplyAdd: E.sumsAreExactIntegers || fusedMultiplyAdd)
        if DepthwiseRowOptions.finishesFloatRows(channels: g.outputDepth) { options.finish = epilogue.tileFinish }
        let scratchFloats = E.finishesInPlace ? 0 : rowLength
        KernelWorkspace.using(workspace, orTemporary: KernelWorkspace.bytes(Float.self, count: scratchFloats)) { workspace in
            let scratch = workspace.take(Float.self, count: scratchFloats)
            for row in rows {
                let outRow = output + row * rowLength
                let sums = epilogue.sums(for: outRow, scratch: scratch)
                DepthwiseRowSums.compute(g, input: input, filter: filter, batch: row / g.outputHeight,
                                         oy: row % g.outputHeight, into: sums, options: options)
                if options.finish == nil { epilogue.finish(sums, pixels: g.outputWidth, channels: g.outputDepth, to: outRow) }
            }
        }
    }
}
