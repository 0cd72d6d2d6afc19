// RESIZE_NEAREST_NEIGHBOR: picks one input pixel per output pixel, any element type.

/// Reference RESIZE_NEAREST_NEIGHBOR kernel.
public enum ResizeNearestNeighborReference {
    /// The reference's `GetNearestNeighbor`: the input index sampled for output index `value`.
    public static func sourceIndex(_ value: Int, inputSize: Int, outputSize: Int,
                                   alignCorners: Bool, halfPixelCenters: Bool) -> Int {
        let scale = (alignCorners && outputSize > 1)
            ? Float(inputSize - 1) / Float(outputSize - 1)
            : Float(inputSize) / Float(outputSize)
        let offset: Float = halfPixelCenters ? 0.5 : 0
        let scaled = (Float(value) + offset) * scale
        var index = Int(alignCorners ? SaturatingRound.toInt32(scaled)
                                     : SaturatingRound.truncatingToInt32(scaled.rounded(.down)))
        index = min(index, inputSize - 1)
        if halfPixelCenters { index = max(0, index) }
        return index
    }

    /// Resizes an NHWC tensor of `elementSize`-byte elements.
    public static func run(_ p: ResizeParameters, elementSize: Int,
                           input: UnsafeRawPointer, output: UnsafeMutableRawPointer) {
        let rows = (0..<p.outputHeight).map {
            sourceIndex($0, inputSize: p.inputHeight, outputSize: p.outputHeight,
                        alignCorners: p.alignCorners, halfPixelCenters: p.halfPixelCenters)
        }
        let columns = (0..<p.outputWidth).map {
            sourceIndex($0, inputSize: p.inputWidth, outputSize: p.outputWidth,
                        alignCorners: p.alignCorners, halfPixelCenters: p.halfPixelCenters)
        }
        let pixelBytes = p.depth * elementSize
        let rowBytes = p.inputWidth * pixelBytes
        var dst = output
        for b in 0..<p.batches {
            let batch = input + b * p.inputHeight * rowBytes
            for y in 0..<p.outputHeight {
                let row = batch + rows[y] * rowBytes
                for x in 0..<p.outputWidth {
                    dst.copyMemory(from: row + columns[x] * pixelBytes, byteCount: pixelBytes)
                    dst += pixelBytes
                }
            }
        }
    }
}
