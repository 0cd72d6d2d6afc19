import TFLiteSchema

/// Affine quantization of a tensor: `real = scale * (quantized - zeroPoint)`.
/// Per-tensor models have one scale and zero point; per-channel weights have one per slice
/// along ``quantizedDimension`` (then ``scale`` and ``zeroPoint`` are the first channel's).
public struct QuantizationParameters: Equatable, Hashable, Sendable {
    /// The (first) scale.
    public let scale: Float
    /// The (first) zero point.
    public let zeroPoint: Int
    /// All scales: one, or one per channel.
    public let scales: [Float]
    /// All zero points, same count as ``scales``.
    public let zeroPoints: [Int]
    /// The axis that per-channel parameters run along.
    public let quantizedDimension: Int

    /// Per-tensor parameters.
    public init(scale: Float, zeroPoint: Int) {
        self.init(scales: [scale], zeroPoints: [zeroPoint], quantizedDimension: 0)
    }

    /// Per-tensor or per-channel parameters.
    public init(scales: [Float], zeroPoints: [Int], quantizedDimension: Int) {
        self.scales = scales; self.zeroPoints = zeroPoints; self.quantizedDimension = quantizedDimension
        scale = scales.first ?? 0
        zeroPoint = zeroPoints.first ?? 0
    }

    /// True when there is one scale per channel.
    public var isPerChannel: Bool { scales.count > 1 }

    /// The public view of schema quantization; nil when there are no scales.
    init?(_ quantization: Quantization?) {
        guard let q = quantization, !q.scales.isEmpty else { return nil }
        self.init(scales: q.scales, zeroPoints: q.zeroPoints.map { Int($0) },
                  quantizedDimension: q.quantizedDimension)
    }
}
