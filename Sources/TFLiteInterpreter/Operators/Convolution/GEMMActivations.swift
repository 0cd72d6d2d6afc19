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
}

/// A buffer a plan refills on every invoke (GEMM activations in an operand layout, the bias
/// plus its zero-point correction, pixel sums): allocated at prepare, written only by the
/// invoke of the node that owns it. A class, so a plan value can hold it and invoke can write it.
final class InvokeBuffer<Element> {
    /// The elements.
    var elements: [Element]

    /// A buffer of `elements`.
    init(_ elements: [Element]) { self.elements = elements }

    /// Calls `body` with the elements, writable.
    func withUnsafeMutableBufferPointer<R>(_ body: (inout UnsafeMutableBufferPointer<Element>) -> R) -> R {
        elements.withUnsafeMutableBufferPointer(body)
    }
}
