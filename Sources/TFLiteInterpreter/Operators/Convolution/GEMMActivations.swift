import TFLiteKernels

/// Where a packed GEMM reads its input: the layer's pixels, or (layers with few input channels)
/// gathered patch rows (`QuantizedConvPatches`), with the geometry the GEMM then runs on.
struct GEMMLayout {
    /// Whether the GEMM reads gathered patch rows instead of the input pixels.
    let patches: Bool
    /// The geometry the GEMM runs on: the layer's, or its patch form.
    let geometry: ConvolutionGeometry

    /// The layout the integer GEMM uses for layer `g`.
    init(_ g: ConvolutionGeometry) {
        patches = QuantizedConvPatches.prefersPatches(g)
        geometry = patches ? QuantizedConvPatches.patchGeometry(g) : g
    }

    /// What the weight packings read of the geometry, for the packed-weight cache's keys:
    /// output depth × taps × input depth of the GEMM.
    var packedShape: String {
        "\(geometry.outputDepth)x\(geometry.filterHeight * geometry.filterWidth)x\(geometry.inputDepth)"
    }

    /// Pixels of the GEMM's input (all batches, patch rows in patch form).
    var pixels: Int { geometry.batches * geometry.inputHeight * geometry.inputWidth }

    /// Elements of an activation buffer of this layout whose pixels hold `stride` values, the
    /// trailing padding pixel included (`Int16PairPacking.activationCount`,
    /// `Int8QuadPacking.activationCount`), saturating at `Int.max` for untrusted shapes (a patch
    /// buffer is output pixels × taps × input depth), which scratch requests then reject.
    func activationCount(stride: Int) -> Int { SharedMemoryBudget.bytes(pixels &+ 1, stride) }

    /// Zeroes the trailing padding pixel of the int16-pair activation buffer at `base`
    /// (`Int16PairPacking.activationCount(pixels:depth:)` elements), which padding taps read. The
    /// buffer is arena scratch that other nodes overwrite between invokes: every invoke calls this.
    func zeroPairedPaddingPixel(_ base: UnsafeMutablePointer<Int16>) {
        let stride = Int16PairPacking.pairedDepth(geometry.inputDepth)
        (base + pixels * stride).update(repeating: 0, count: stride)
    }
}
