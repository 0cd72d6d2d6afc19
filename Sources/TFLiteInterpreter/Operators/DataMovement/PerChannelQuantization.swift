import TFLiteSchema

/// Per-channel quantization laid over a tensor's shape (QUANTIZE's output, DEQUANTIZE's
/// input): the elements before the channel axis, the channels, the elements after it, and one
/// scale and zero point per channel.
struct PerChannelQuantization {
    /// Elements before the channel axis (product of the leading dimensions).
    let outer: Int
    /// Channels along the axis (one scale and zero point each).
    let channels: Int
    /// Elements after the channel axis (product of the trailing dimensions).
    let inner: Int
    let scales: [Float]
    /// The zero points, truncated to Int32.
    let zeroPoints: [Int32]

    /// The layout of `q` over `shape`, or an invalid-model error naming `op` when the
    /// quantized dimension is not an axis of `shape` with one entry per scale.
    init(_ shape: [Int], _ q: Quantization, _ op: String) throws {
        let axis = q.quantizedDimension
        guard axis >= 0, axis < shape.count, shape[axis] == q.scales.count else {
            throw InterpreterError.invalidModel("\(op): per-channel parameters do not match dimension \(axis)")
        }
        outer = shape[..<axis].reduce(1, *)
        channels = q.scales.count
        inner = shape[(axis + 1)...].reduce(1, *)
        scales = q.scales
        zeroPoints = q.zeroPoints.map { Int32(truncatingIfNeeded: $0) }
    }
}
