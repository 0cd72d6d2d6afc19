/// The float sums of one depthwise output row, compiled once per filter shape: each entry
/// point is a small non-generic function that inlines `DepthwiseInteriorKernel.rowSums` with
/// literal sizes (and no dilation), so the tap loops unroll and
/// neighbouring pixels share column addresses.
enum DepthwiseRowSums {
    /// Writes the sums of output row (`batch`, `oy`) into `sums` with the kernel specialised
    /// for the geometry's filter size and horizontal stride (see `DepthwiseRowOptions`).
    @inline(__always)
    static func compute(_ g: ConvolutionGeometry, input: UnsafePointer<Float>, filter: UnsafePointer<Float>,
                        batch: Int, oy: Int, into sums: UnsafeMutablePointer<Float>, options: DepthwiseRowOptions) {
        switch (g.filterHeight, g.filterWidth, g.strideWidth, g.dilationWidth) {
        case (3, 3, 1, 1): sums3x3Stride1(g, input: input, filter: filter, batch: batch, oy: oy, into: sums, options: options)
        case (3, 3, 2, 1): sums3x3Stride2(g, input: input, filter: filter, batch: batch, oy: oy, into: sums, options: options)
        case (5, 5, 1, 1): sums5x5Stride1(g, input: input, filter: filter, batch: batch, oy: oy, into: sums, options: options)
        case (5, 5, 2, 1): sums5x5Stride2(g, input: input, filter: filter, batch: batch, oy: oy, into: sums, options: options)
        case (3, 3, 1, _): sums3x3Stride1Dilated(g, input: input, filter: filter, batch: batch, oy: oy, into: sums, options: options)
        default: sumsAnyShape(g, input: input, filter: filter, batch: batch, oy: oy, into: sums, options: options)
        }
    }

    /// 3×3, stride 1, no dilation.
    @inline(never)
    static func sums3x3Stride1(_ g: ConvolutionGeometry, input: UnsafePointer<Float>, filter: UnsafePointer<Float>,
                     batch: Int, oy: Int, into sums: UnsafeMutablePointer<Float>, options: DepthwiseRowOptions) {
        DepthwiseInteriorKernel.rowSums(g, kh: 3, kw: 3, sx: 1, dx: 1, batch: batch, oy: oy,
                                        input: input, filter: filter, sums: sums, options: options)
    }

    /// 3×3, stride 2, no dilation.
    @inline(never)
    static func sums3x3Stride2(_ g: ConvolutionGeometry, input: UnsafePointer<Float>, filter: UnsafePointer<Float>,
                     batch: Int, oy: Int, into sums: UnsafeMutablePointer<Float>, options: DepthwiseRowOptions) {
        DepthwiseInteriorKernel.rowSums(g, kh: 3, kw: 3, sx: 2, dx: 1, batch: batch, oy: oy,
                                        input: input, filter: filter, sums: sums, options: options)
    }

    /// 5×5, stride 1, no dilation.
    @inline(never)
    static func sums5x5Stride1(_ g: ConvolutionGeometry, input: UnsafePointer<Float>, filter: UnsafePointer<Float>,
                     batch: Int, oy: Int, into sums: UnsafeMutablePointer<Float>, options: DepthwiseRowOptions) {
        DepthwiseInteriorKernel.rowSums(g, kh: 5, kw: 5, sx: 1, dx: 1, batch: batch, oy: oy,
                                        input: input, filter: filter, sums: sums, options: options)
    }

    /// 5×5, stride 2, no dilation.
    @inline(never)
    static func sums5x5Stride2(_ g: ConvolutionGeometry, input: UnsafePointer<Float>, filter: UnsafePointer<Float>,
                     batch: Int, oy: Int, into sums: UnsafeMutablePointer<Float>, options: DepthwiseRowOptions) {
        DepthwiseInteriorKernel.rowSums(g, kh: 5, kw: 5, sx: 2, dx: 1, batch: batch, oy: oy,
                                        input: input, filter: filter, sums: sums, options: options)
    }

    /// 3×3, stride 1, dilated (atrous convolution, as in DeepLab).
    @inline(never)
    static func sums3x3Stride1Dilated(_ g: ConvolutionGeometry, input: UnsafePointer<Float>, filter: UnsafePointer<Float>,
                                      batch: Int, oy: Int, into sums: UnsafeMutablePointer<Float>, options: DepthwiseRowOptions) {
        DepthwiseInteriorKernel.rowSums(g, kh: 3, kw: 3, sx: 1, dx: g.dilationWidth, batch: batch, oy: oy,
                                        input: input, filter: filter, sums: sums, options: options)
    }

    /// Any other filter size and stride (runtime loop bounds).
    @inline(never)
    static func sumsAnyShape(_ g: ConvolutionGeometry, input: UnsafePointer<Float>, filter: UnsafePointer<Float>,
                     batch: Int, oy: Int, into sums: UnsafeMutablePointer<Float>, options: DepthwiseRowOptions) {
        DepthwiseInteriorKernel.rowSums(g, kh: g.filterHeight, kw: g.filterWidth, sx: g.strideWidth, dx: g.dilationWidth, batch: batch, oy: oy,
                                        input: input, filter: filter, sums: sums, options: options)
    }
}

/// How `DepthwiseRowSums` computes a row.
struct DepthwiseRowOptions {
    /// The generated kernel may add each product with one rounding: where every partial sum is
    /// an exact integer (quantized layers) the sums are the same, and float layers may allow it
    /// (`DepthwiseConv2DOptimized.float`).
    var fusedMultiplyAdd: Bool
    /// Float rows finished in the generated tiles (`+ bias`, clamp) instead of by a second pass.
    /// Only where `finishesFloatRows(channels:)`.
    var finish: (bias: UnsafePointer<Float>?, min: Float, max: Float)? = nil
    /// 8-bit rows requantized in the generated tiles and stored as bytes at `output` (the row's
    /// first pixel) instead of as float sums. Only for rows whose every window has a tap inside
    /// the input, where `requantizingTiles` exist, with a bias and a requantizer the AVX-512 row end takes
    /// (`DepthwiseRequantizeEpilogue.generatedKernel512`).
    var requantize: (output: UnsafeMutablePointer<UInt8>, requantizer: ConvRequantizer, bias: UnsafePointer<Int32>)? = nil

    /// True when this process has the requantizing tiles (AVX-512: they take every channel,
    /// masking a last partial block).
    static var requantizingTiles: Bool {
        #if LITEVISION_AVX512
        false
        #else
        GeneratedKernels.current?.depthwiseRequantizingTiles16 != nil
        #endif
    }

    /// True when float rows of `channels` channels are finished in the generated tiles: with the
    /// AVX-512 tiles always, with the AVX ones when every channel runs in them (16-, 8- and
    /// 4-channel blocks: a multiple of 4), which saves the finishing pass (`DepthwiseFloatFinish16`).
    /// Measured on the Intel Xeon at LITEVISION_ISA=avx2, 1 thread: face_detection_full_range
    /// 4.41-4.47 -> 4.16-4.19 ms, deeplabv3 21.2-21.4 -> 20.8-21.0 ms.
    static func finishesFloatRows(channels: Int) -> Bool {
        #if LITEVISION_AVX512
        false
        #else
        guard let tiles = DepthwiseGeneratedRow.tiles(for: DepthwiseRowOptions(fusedMultiplyAdd: false, finish: (nil, 0, 0))) else {
            return false
        }
        return tiles.channelCount(channels) == channels
        #endif
    }
}
