/// Precomputed source byte offsets and weights along one axis for half-pixel-center bilinear
/// sampling.
struct ResamplingAxis {
    /// Byte offset of the lower source pixel per output index.
    var lower: [Int]
    /// Byte offset of the upper source pixel (the lower one again at the border).
    var upper: [Int]
    /// Weight of `upper`.
    var fraction: [Float]

    /// Maps `outputCount` samples onto `[start, start + length)` of an axis with `sourceCount`
    /// pixels; source pixel `i` is at byte offset `byteOrigin + i · byteStride`.
    init(start: Double, length: Double, outputCount: Int, sourceCount: Int, byteStride: Int, byteOrigin: Int) {
        self.init(start: start, length: length, outputCount: outputCount, sourceCount: sourceCount) {
            byteOrigin + $0 * byteStride
        }
    }

    /// Maps `outputCount` samples onto `[start, start + length)` of an axis with `sourceCount`
    /// pixels; source pixel `i` is at byte offset `byteOffset(i)`.
    init(start: Double, length: Double, outputCount: Int, sourceCount: Int, byteOffset: (Int) -> Int) {
        lower = [Int](repeating: 0, count: outputCount)
        upper = [Int](repeating: 0, count: outputCount)
        fraction = [Float](repeating: 0, count: outputCount)
        let step = length / Double(outputCount)
        let last = Double(sourceCount - 1)
        for i in 0..<outputCount {
            let position = min(last, max(0, start + (Double(i) + 0.5) * step - 0.5))
            let low = Int(position.rounded(.down))
            lower[i] = byteOffset(low)
            upper[i] = byteOffset(min(low + 1, sourceCount - 1))
            fraction[i] = Float(position - Double(low))
        }
    }
}

/// The bilinear inner loop.
enum BilinearSampler {
    /// Samples one output row (3 channels per pixel) from the source rows starting at byte
    /// offsets `top` and `bottom`.
    @inline(__always)
    static func sampleRow(src: UnsafeBufferPointer<UInt8>, top: Int, bottom: Int, fy: Float,
                          columns: ResamplingAxis, into row: UnsafeMutableBufferPointer<UInt8>, offset: Int) {
        columns.lower.withUnsafeBufferPointer { lower in
            columns.upper.withUnsafeBufferPointer { upper in
                columns.fraction.withUnsafeBufferPointer { fraction in
                    var o = offset
                    for i in 0..<lower.count {
                        let x0 = lower[i], x1 = upper[i]
                        let fx = fraction[i]
                        let a = SIMD4<Float>(Float(src[top + x0]), Float(src[top + x0 + 1]), Float(src[top + x0 + 2]), 0)
                        let b = SIMD4<Float>(Float(src[top + x1]), Float(src[top + x1 + 1]), Float(src[top + x1 + 2]), 0)
                        let c = SIMD4<Float>(Float(src[bottom + x0]), Float(src[bottom + x0 + 1]), Float(src[bottom + x0 + 2]), 0)
                        let d = SIMD4<Float>(Float(src[bottom + x1]), Float(src[bottom + x1 + 1]), Float(src[bottom + x1 + 2]), 0)
                        let upperRow = (b - a) * fx + a
                        let lowerRow = (d - c) * fx + c
                        let value = (lowerRow - upperRow) * fy + upperRow + 0.5
                        row[o] = UInt8(value[0])
                        row[o + 1] = UInt8(value[1])
                        row[o + 2] = UInt8(value[2])
                        o += 3
                    }
                }
            }
        }
    }
}
