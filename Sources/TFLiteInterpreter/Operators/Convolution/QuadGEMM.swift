import TFLiteKernels

/// What the quad GEMMs share: the layer, its GEMM layout, the packed weights with their
/// zero-point correction, and the buffers each invoke refills.
struct QuadOperands {
    let layer: ConvolutionGeometry
    let layout: GEMMLayout
    /// Packed weight bytes and the per-channel constant of the zero points (shared by the model's interpreters).
    let weights: QuadWeights
    /// Activations (arena scratch); the trailing padding pixel holds `paddingByte`, refilled per invoke.
    let activations: ScratchArray<UInt8>
    /// The byte padding taps read (`Int8QuadPacking.paddingByte` / `unsignedWeightPaddingByte`).
    let paddingByte: UInt8
    /// Bias plus correction (arena scratch), refreshed per invoke (the bias need not be constant).
    let combinedBias: ScratchArray<Int32>
    /// The kernel's per-thread workspace (`QuantizedGEMM.workspaceBytes`).
    let workspace: ThreadWorkspaceSlot

    /// Refreshes the combined bias from `bias` and the activation buffer's padding pixel, then
    /// fills every batch's rows of the activation buffer with `convert(batch, pixels, rows)` and
    /// runs `tiles` on the filled buffer and the combined bias, split across the pool
    /// (``GEMMLayout/convertAndRun(threads:convert:gemm:)``). Everything the tiles read is
    /// written here: the buffers are arena scratch that other nodes overwrite.
    func run(bias: UnsafePointer<Int32>?, threads: ThreadPool,
             convert: (_ batch: Int, _ pixels: Range<Int>, _ rows: UnsafeMutablePointer<UInt8>) -> Void,
             tiles: (_ input: UnsafePointer<UInt8>, _ bias: UnsafePointer<Int32>, _ tiles: Range<Int>,
                     _ workspace: KernelWorkspace) -> Void) {
        let correction = weights.correction
        let combined = combinedBias.pointer
        for c in 0..<layer.outputDepth { combined[c] = (bias?[c] ?? 0) &+ correction[c] }
        let g = layout.geometry
        let rows = g.inputHeight * g.inputWidth
        let stride = Int8QuadPacking.quadDepth(g.inputDepth)
        activations.withUnsafeMutableBufferPointer { bytes in
            let xp = bytes.baseAddress!
            Int8QuadPacking.fillPaddingPixel(xp, pixels: layout.pixels, depth: g.inputDepth, value: paddingByte)
            layout.convertAndRun(threads: threads, workspace: workspace) { batch, part in
                convert(batch, part, xp + batch * rows * stride)
            } gemm: { part, workspace in
                tiles(UnsafePointer(xp), UnsafePointer(combined), part, workspace)
            }
        }
    }
}

/// The int8 GEMM on byte quads (`Int8QuadPacking`, the build's native dot-product kernels):
/// symmetric int8 weights against the activations as unsigned bytes `x + 128` (or patches of
/// them), with the zero-point correction folded into the bias.
struct Int8QuadGEMM {
    let operands: QuadOperands
    let requantizer: ConvRequantizer
    /// A byte table applied to each chunk's output (``OutputByteMapFusion``); nil without one.
    var outputMap: OutputByteMap? = nil

    func run(_ o: ConvolutionOperands, threads: ThreadPool) {
        let (g, gemm, q) = (operands.layer, operands.layout.geometry, requantizer)
        let (x, y) = (o.input(Int8.self), o.output(Int8.self))
        let inputOffset = q.parameters.inputOffset
        let stride = Int8QuadPacking.quadDepth(gemm.inputDepth)
        let imageSize = g.inputHeight * g.inputWidth * g.inputDepth
        let patches = operands.layout.patches
        let w = UnsafeRawPointer(operands.weights.weights.pointer).assumingMemoryBound(to: Int8.self)
        let outputMap = outputMap
        operands.run(bias: o.bias(Int32.self), threads: threads) { batch, part, image in
            let source = x + batch * imageSize
            if patches {
                QuantizedConvPatches.gatherQuads(source, g, pixels: part, inputOffset: inputOffset, into: image)
            } else {
                Int8QuadPacking.convert(source + part.lowerBound * g.inputDepth, pixels: part.count,
                                        depth: g.inputDepth, into: image + part.lowerBound * stride)
            }
        } tiles: { xin, bias, part, workspace in
            QuantizedGEMM.int8Quads(gemm, q, input: xin, packedFilter: w, bias: bias, output: y, tiles: part,
                                    workspace: workspace)
            outputMap?.apply(tiles: part, of: gemm, to: y)
        }
    }
}

/// The uint8 GEMM on byte quads: uint8 weights against the activations as signed bytes
/// `x − 128` (or patches of them), with per-pixel sums for the window-sum correction and the
/// zero-point constant folded into the bias.
struct UInt8QuadGEMM {
    let operands: QuadOperands
    let requantizer: ConvRequantizer
    /// The negated weight zero point.
    let filterOffset: Int32
    /// Per-pixel `Σ (x − 128)` (arena scratch), refreshed per invoke.
    let pixelSums: ScratchArray<Int32>
    /// A byte table applied to each chunk's output (``OutputByteMapFusion``); nil without one.
    var outputMap: OutputByteMap? = nil

    func run(_ o: ConvolutionOperands, threads: ThreadPool) {
        let (g, gemm, q) = (operands.layer, operands.layout.geometry, requantizer)
        let (x, y) = (o.input(UInt8.self), o.output(UInt8.self))
        let inputOffset = q.parameters.inputOffset
        let rows = gemm.inputHeight * gemm.inputWidth
        let stride = Int8QuadPacking.quadDepth(gemm.inputDepth)
        let imageSize = g.inputHeight * g.inputWidth * g.inputDepth
        let patches = operands.layout.patches
        let w = UnsafePointer(operands.weights.weights.pointer)
        let padding = Int32(g.inputDepth) &* (0 &- inputOffset &- 128)
        let (filterOffset, outputMap) = (filterOffset, outputMap)
        pixelSums.withUnsafeMutableBufferPointer { sumsBuffer in
            let sums = sumsBuffer.baseAddress!
            operands.run(bias: o.bias(Int32.self), threads: threads) { batch, part, image in
                let source = x + batch * imageSize
                let imageSums = sums + batch * rows
                if patches {
                    QuantizedConvPatches.gatherSignedQuads(source, g, pixels: part, inputOffset: inputOffset,
                                                           into: image, sums: imageSums)
                } else {
                    Int8QuadPacking.convert(source + part.lowerBound * g.inputDepth, pixels: part.count,
                                            depth: g.inputDepth, into: image + part.lowerBound * stride,
                                            sums: imageSums + part.lowerBound)
                }
            } tiles: { xin, bias, part, workspace in
                let windowSums = QuantizedGEMMWindowSums(pixelSums: UnsafePointer(sums), padding: padding, scale: filterOffset)
                QuantizedGEMM.uint8Quads(gemm, q, input: xin, packedFilter: w, bias: bias, windowSums: windowSums,
                                         output: y, tiles: part, workspace: workspace)
                outputMap?.apply(tiles: part, of: gemm, to: y)
            }
        }
    }
}

/// The hybrid GEMM on byte quads, for layers whose input is quantized symmetrically (zero point
/// 0) where the build's native kernels take quads (VNNI): the rows quantized per batch
/// (`scratch`) as unsigned bytes `x + 128` against the int8 weights, the correction `−128 · Σ w`
/// in the Int32 bias, then the float epilogue. The int16-pair form (`HybridPairGEMM`) took twice
/// the multiply-adds' instructions.
struct HybridQuadGEMM {
    let operands: QuadOperands
    let parameters: HybridConvolutionParameters
    let scratch: HybridInputScratch

    func run(_ o: ConvolutionOperands, threads: ThreadPool) {
        let (g, gemm, p) = (operands.layer, operands.layout.geometry, parameters)
        let (b, y) = (o.bias(Float.self), o.output(Float.self))
        let imageSize = g.inputHeight * g.inputWidth * g.inputDepth
        let stride = Int8QuadPacking.quadDepth(gemm.inputDepth)
        let patches = operands.layout.patches
        let w = UnsafeRawPointer(operands.weights.weights.pointer).assumingMemoryBound(to: Int8.self)
        scratch.quantize(o.input(Float.self), threads: threads) { quantized, scales, _ in
            operands.run(bias: nil, threads: threads) { batch, part, image in
                let source = quantized + batch * imageSize
                if patches {
                    QuantizedConvPatches.gatherQuads(source, g, pixels: part, inputOffset: 0, into: image)
                } else {
                    Int8QuadPacking.convert(source + part.lowerBound * g.inputDepth, pixels: part.count,
                                            depth: g.inputDepth, into: image + part.lowerBound * stride)
                }
            } tiles: { xin, correction, part, workspace in
                QuantizedGEMM.hybridQuads(gemm, p, input: xin, inputScales: scales, packedFilter: w, correction: correction,
                                          bias: b, output: y, tiles: part, workspace: workspace)
            }
        }
    }
}
