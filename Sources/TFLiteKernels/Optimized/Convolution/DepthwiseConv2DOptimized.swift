/// Optimized DEPTHWISE_CONV_2D for depth multiplier 1 (every real mobile network): NHWC keeps
/// channels contiguous, so output pixels are computed 16 channels at a time (`SIMD16`).
/// Each output row splits into border pixels (some taps in the padding, skipped exactly as the
/// reference does: `DepthwiseBorderKernel`) and interior pixels (`DepthwiseInteriorKernel`:
/// no bounds checks, several pixels per step sharing each weight load, with 3×3 and 5×5
/// filters at stride 1 and 2 compiled as specialised, fully unrolled loops). Work is split by
/// output rows (`batches · outputHeight` of them).
///
/// Quantized inputs arrive as exact floats `x + inputOffset` (`offsetInput`) and filters as
/// `w + filterOffset` (`ConvFilterPacking.packDepthwiseInteger`): their float sums over at most
/// `Conv2DOptimized.exactSteps` taps are the exact integers the reference accumulates.
public enum DepthwiseConv2DOptimized {
    /// True when these kernels apply (`depthMultiplier == 1`, and few enough taps for the
    /// quantized kernels' exact float partial sums).
    public static func supports(_ g: ConvolutionGeometry) -> Bool {
        g.inputDepth == g.outputDepth && g.filterHeight * g.filterWidth <= Conv2DOptimized.exactSteps
    }

    /// Number of output rows (the unit to split across threads).
    public static func rowCount(_ g: ConvolutionGeometry) -> Int { g.batches * g.outputHeight }

    /// Float depthwise convolution of output rows `rows`.
    public static func float(_ g: ConvolutionGeometry, activationMin: Float, activationMax: Float,
                             input: UnsafePointer<Float>, filter: UnsafePointer<Float>,
                             bias: UnsafePointer<Float>?, output: UnsafeMutablePointer<Float>, rows: Range<Int>) {
        let epilogue = DepthwiseFloatEpilogue(bias: bias, activationMin: activationMin, activationMax: activationMax)
        run(g, input: input, filter: filter, epilogue: epilogue, output: output, rows: rows)
    }

    /// Quantized (uint8 / int8) depthwise convolution of output rows `rows`, bit-exact with
    /// the reference (see the type's notes for `offsetInput` and `packedFilter`).
    static func quantized<Element: FixedWidthInteger>(
        _ g: ConvolutionGeometry, _ requantizer: ConvRequantizer, offsetInput: UnsafePointer<Float>,
        packedFilter: UnsafePointer<Float>, bias: UnsafePointer<Int32>?,
        output: UnsafeMutablePointer<Element>, rows: Range<Int>
    ) {
        let epilogue = DepthwiseRequantizeEpilogue<Element>(requantizer: requantizer, bias: bias)
        run(g, input: offsetInput, filter: packedFilter, epilogue: epilogue, output: output, rows: rows)
    }

    /// uint8 depthwise rows (see `quantized`).
    public static func uint8(_ g: ConvolutionGeometry, _ q: ConvRequantizer, offsetInput: UnsafePointer<Float>,
                             packedFilter: UnsafePointer<Float>, bias: UnsafePointer<Int32>?,
                             output: UnsafeMutablePointer<UInt8>, rows: Range<Int>) {
        quantized(g, q, offsetInput: offsetInput, packedFilter: packedFilter, bias: bias, output: output, rows: rows)
    }

    /// int8 depthwise rows (see `quantized`).
    public static func int8(_ g: ConvolutionGeometry, _ q: ConvRequantizer, offsetInput: UnsafePointer<Float>,
                            packedFilter: UnsafePointer<Float>, bias: UnsafePointer<Int32>?,
                            output: UnsafeMutablePointer<Int8>, rows: Range<Int>) {
        quantized(g, q, offsetInput: offsetInput, packedFilter: packedFilter, bias: bias, output: output, rows: rows)
    }

    /// Converts uint8 inputs to the exact floats `x + offset` the quantized kernels read.
    public static func offsetInput(_ x: UnsafePointer<UInt8>, count: Int, offset: Int32,
                                   into out: UnsafeMutablePointer<Float>) {
        let f = Float(offset)
        var i = 0
        while i + 16 <= count {
            let v = UnsafeRawPointer(x + i).loadUnaligned(as: SIMD16<UInt8>.self)
            let w = SIMD16<Float>(SIMD16<Int32>(truncatingIfNeeded: v)) + SIMD16<Float>(repeating: f)
            UnsafeMutableRawPointer(out + i).storeBytes(of: w, as: SIMD16<Float>.self)
            i += 16
        }
        while i < count { out[i] = Float(x[i]) + f; i += 1 }
    }

    /// Converts int8 inputs to the exact floats `x + offset` the quantized kernels read.
    public static func offsetInput(_ x: UnsafePointer<Int8>, count: Int, offset: Int32,
                                   into out: UnsafeMutablePointer<Float>) {
        let f = Float(offset)
        var i = 0
        while i + 16 <= count {
            let v = UnsafeRawPointer(x + i).loadUnaligned(as: SIMD16<Int8>.self)
            let w = SIMD16<Float>(SIMD16<Int32>(truncatingIfNeeded: v)) + SIMD16<Float>(repeating: f)
            UnsafeMutableRawPointer(out + i).storeBytes(of: w, as: SIMD16<Float>.self)
            i += 16
        }
        while i < count { out[i] = Float(x[i]) + f; i += 1 }
    }

    /// Dispatches rows to the interior kernel specialised for the filter size and stride.
    @inline(__always)
    static func run<E: DepthwiseEpilogue>(_ g: ConvolutionGeometry, input: UnsafePointer<Float>,
                                          filter: UnsafePointer<Float>, epilogue: E,
                                          output: UnsafeMutablePointer<E.Output>, rows: Range<Int>) {
        switch (g.filterHeight, g.filterWidth, g.strideWidth) {
        case (3, 3, 1):
            DepthwiseInteriorKernel.rows(g, kh: 3, kw: 3, sx: 1, input: input, filter: filter, epilogue: epilogue, output: output, rows: rows)
        case (3, 3, 2):
            DepthwiseInteriorKernel.rows(g, kh: 3, kw: 3, sx: 2, input: input, filter: filter, epilogue: epilogue, output: output, rows: rows)
        case (5, 5, 1):
            DepthwiseInteriorKernel.rows(g, kh: 5, kw: 5, sx: 1, input: input, filter: filter, epilogue: epilogue, output: output, rows: rows)
        case (5, 5, 2):
            DepthwiseInteriorKernel.rows(g, kh: 5, kw: 5, sx: 2, input: input, filter: filter, epilogue: epilogue, output: output, rows: rows)
        default:
            DepthwiseInteriorKernel.rows(g, kh: g.filterHeight, kw: g.filterWidth, sx: g.strideWidth,
                                         input: input, filter: filter, epilogue: epilogue, output: output, rows: rows)
        }
    }
}
