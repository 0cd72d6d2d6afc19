// DEPTH_TO_SPACE and SPACE_TO_DEPTH: NHWC block rearrangements, any element type.

/// Reference DEPTH_TO_SPACE kernel.
public enum DepthToSpaceReference {
    /// Moves depth blocks into `blockSize × blockSize` spatial blocks.
    /// Input `[batches, height, width, depth]`; output
    /// `[batches, height × blockSize, width × blockSize, depth / blockSize²]`.
    /// - Precondition: `blockSize ≥ 1`, `elementSize ≥ 1`, the sizes are not negative and
    ///   `inputDepth` is a multiple of `blockSize²`; `input` and `output` hold the shapes' elements
    ///   and do not overlap. Checked under
    ///   `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func run(batches: Int, inputHeight: Int, inputWidth: Int, inputDepth: Int, blockSize: Int,
                           elementSize: Int, input: UnsafeRawPointer, output: UnsafeMutableRawPointer) {
        KernelPrecondition.check(blockSize >= 1 && elementSize >= 1 && batches >= 0 && inputHeight >= 0 && inputWidth >= 0
                                 && inputDepth >= 0 && inputDepth % (blockSize * blockSize) == 0,
                                 "DepthToSpace: depth \(inputDepth), block \(blockSize), element size \(elementSize)")
        let outputDepth = inputDepth / (blockSize * blockSize)
        let chunk = outputDepth * elementSize
        let inputPixel = inputDepth * elementSize
        var dst = output
        for b in 0..<batches {
            for oh in 0..<(inputHeight * blockSize) {
                let ih = oh / blockSize
                for ow in 0..<(inputWidth * blockSize) {
                    let iw = ow / blockSize
                    let depthOffset = ((oh % blockSize) * blockSize + ow % blockSize) * chunk
                    let src = input + ((b * inputHeight + ih) * inputWidth + iw) * inputPixel + depthOffset
                    dst.copyMemory(from: src, byteCount: chunk)
                    dst += chunk
                }
            }
        }
    }
}

/// Reference SPACE_TO_DEPTH kernel.
public enum SpaceToDepthReference {
    /// Moves `blockSize × blockSize` spatial blocks into depth.
    /// Input `[batches, height, width, depth]`; output
    /// `[batches, height / blockSize, width / blockSize, depth × blockSize²]`.
    /// - Precondition: `blockSize ≥ 1`, `elementSize ≥ 1`, the sizes are not negative; `input`
    ///   and `output` hold the shapes' elements and do not overlap. Checked under
    ///   `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    public static func run(batches: Int, inputHeight: Int, inputWidth: Int, inputDepth: Int, blockSize: Int,
                           elementSize: Int, input: UnsafeRawPointer, output: UnsafeMutableRawPointer) {
        KernelPrecondition.check(blockSize >= 1 && elementSize >= 1 && batches >= 0 && inputHeight >= 0 && inputWidth >= 0
                                 && inputDepth >= 0,
                                 "SpaceToDepth: depth \(inputDepth), block \(blockSize), element size \(elementSize)")
        let outputHeight = inputHeight / blockSize, outputWidth = inputWidth / blockSize
        let outputDepth = inputDepth * blockSize * blockSize
        let chunk = inputDepth * elementSize
        var src = input
        for b in 0..<batches {
            for ih in 0..<(outputHeight * blockSize) {
                for iw in 0..<(outputWidth * blockSize) {
                    let od = ((ih % blockSize) * blockSize + iw % blockSize) * inputDepth
                    let o = ((b * outputHeight + ih / blockSize) * outputWidth + iw / blockSize) * outputDepth + od
                    (output + o * elementSize).copyMemory(from: src, byteCount: chunk)
                    src += chunk
                }
                src += (inputWidth - outputWidth * blockSize) * chunk
            }
            src += (inputHeight - outputHeight * blockSize) * inputWidth * chunk
        }
    }
}
