import TFLiteKernels

/// The int8 GEMM on byte quads (`Int8QuadPacking`, the build's native dot-product kernels):
/// symmetric int8 weights against the activations as unsigned bytes `x + 128` (or patches of
/// them), with the zero-point correction folded into the bias.
struct Int8QuadGEMM {
    let layer: ConvolutionGeometry
    let layout: GEMMLayout
    let requantizer: ConvRequantizer
    /// Packed weight bytes (int8 bit patterns).
    let weights: AlignedArray<UInt8>
    /// The per-channel constant of the zero points, added to the bias.
    let correction: [Int32]
    /// Activations; the trailing padding pixel holds the padding taps' value.
    let activations: InvokeBuffer<UInt8>
    /// Bias plus correction, refreshed per invoke (the bias need not be constant).
    let combinedBias: InvokeBuffer<Int32>

    func run(_ o: ConvolutionOperands, threads: ThreadPool) {
        let (g, gemm, q) = (layer, layout.geometry, requantizer)
        let (x, y) = (o.input(Int8.self), o.output(Int8.self))
        let inputOffset = q.parameters.inputOffset
        QuadBias.combine(o.bias(Int32.self), correction, into: combinedBias, channels: g.outputDepth)
        let rows = gemm.inputHeight * gemm.inputWidth
        let stride = Int8QuadPacking.quadDepth(gemm.inputDepth)
        let imageSize = g.inputHeight * g.inputWidth * g.inputDepth
        let patches = layout.patches
        let w = UnsafeRawPointer(weights.pointer).assumingMemoryBound(to: Int8.self)
        activations.withUnsafeMutableBufferPointer { bytes in
            let xp = bytes.baseAddress!
            for batch in 0..<g.batches {
                let image = xp + batch * rows * stride
                let source = x + batch * imageSize
                threads.parallelFor(rows, minChunk: WorkSplitPolicy.activationPackingMinChunk(depth: gemm.inputDepth)) { part in
                    if patches {
                        QuantizedConvPatches.gatherQuads(source, g, pixels: part, inputOffset: inputOffset, into: image)
                    } else {
                        Int8QuadPacking.convert(source + part.lowerBound * g.inputDepth, pixels: part.count,
                                                depth: g.inputDepth, into: image + part.lowerBound * stride)
                    }
                }
            }
            let xin = UnsafePointer(xp)
            combinedBias.withUnsafeMutableBufferPointer { bb in
                let bias = UnsafePointer(bb.baseAddress!)
                threads.parallelFor(QuantizedGEMM.tileCount(gemm), minChunk: WorkSplitPolicy.integerGEMMMinChunk(gemm)) { part in
                    QuantizedGEMM.int8Quads(gemm, q, input: xin, packedFilter: w, bias: bias, output: y, tiles: part)
                }
            }
        }
    }
}

/// The uint8 GEMM on byte quads: uint8 weights against the activations as signed bytes
/// `x − 128` (or patches of them), with per-pixel sums for the window-sum correction and the
/// zero-point constant folded into the bias.
struct UInt8QuadGEMM {
    let layer: ConvolutionGeometry
    let layout: GEMMLayout
    let requantizer: ConvRequantizer
    /// Packed uint8 weight bytes.
    let weights: AlignedArray<UInt8>
    /// The per-channel constant of the zero points, added to the bias.
    let correction: [Int32]
    /// The negated weight zero point.
    let filterOffset: Int32
    /// Activations; the trailing padding pixel holds the padding taps' value.
    let activations: InvokeBuffer<UInt8>
    /// Bias plus correction, refreshed per invoke.
    let combinedBias: InvokeBuffer<Int32>
    /// Per-pixel `Σ (x − 128)`, refreshed per invoke.
    let pixelSums: InvokeBuffer<Int32>

    func run(_ o: ConvolutionOperands, threads: ThreadPool) {
        let (g, gemm, q) = (layer, layout.geometry, requantizer)
        let (x, y) = (o.input(UInt8.self), o.output(UInt8.self))
        let inputOffset = q.parameters.inputOffset
        QuadBias.combine(o.bias(Int32.self), correction, into: combinedBias, channels: g.outputDepth)
        let rows = gemm.inputHeight * gemm.inputWidth
        let stride = Int8QuadPacking.quadDepth(gemm.inputDepth)
        let imageSize = g.inputHeight * g.inputWidth * g.inputDepth
        let patches = layout.patches
        let w = UnsafePointer(weights.pointer)
        let padding = Int32(g.inputDepth) &* (0 &- inputOffset &- 128)
        let filterOffset = filterOffset
        pixelSums.withUnsafeMutableBufferPointer { sumsBuffer in
            let sums = sumsBuffer.baseAddress!
            activations.withUnsafeMutableBufferPointer { bytes in
                let xp = bytes.baseAddress!
                for batch in 0..<g.batches {
                    let image = xp + batch * rows * stride
                    let source = x + batch * imageSize
                    let imageSums = sums + batch * rows
                    threads.parallelFor(rows, minChunk: WorkSplitPolicy.activationPackingMinChunk(depth: gemm.inputDepth)) { part in
                        if patches {
                            QuantizedConvPatches.gatherSignedQuads(source, g, pixels: part, inputOffset: inputOffset,
                                                                   into: image, sums: imageSums)
                        } else {
                            Int8QuadPacking.convert(source + part.lowerBound * g.inputDepth, pixels: part.count,
                                                    depth: g.inputDepth, into: image + part.lowerBound * stride,
                                                    sums: imageSums + part.lowerBound)
                        }
                    }
                }
                let xin = UnsafePointer(xp)
                let windowSums = QuantizedGEMMWindowSums(pixelSums: UnsafePointer(sums), padding: padding, scale: filterOffset)
                combinedBias.withUnsafeMutableBufferPointer { bb in
                    let bias = UnsafePointer(bb.baseAddress!)
                    threads.parallelFor(QuantizedGEMM.tileCount(gemm), minChunk: WorkSplitPolicy.integerGEMMMinChunk(gemm)) { part in
                        QuantizedGEMM.uint8Quads(gemm, q, input: xin, packedFilter: w, bias: bias, windowSums: windowSums,
                                                 output: y, tiles: part)
                    }
                }
            }
        }
    }
}

/// The quad GEMMs' bias operand.
enum QuadBias {
    /// Writes `bias + correction` (bias 0 where the layer has none) for `channels` channels.
    static func combine(_ bias: UnsafePointer<Int32>?, _ correction: [Int32], into buffer: InvokeBuffer<Int32>, channels: Int) {
        for c in 0..<channels { buffer.elements[c] = (bias?[c] ?? 0) &+ correction[c] }
    }
}
