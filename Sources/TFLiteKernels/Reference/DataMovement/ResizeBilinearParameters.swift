// Shared parameters and sampling-position arithmetic of RESIZE_BILINEAR.

/// RESIZE_BILINEAR on an NHWC tensor: geometry and sampling mode.
public struct ResizeParameters: Sendable, Equatable {
    /// Batch count.
    public var batches: Int
    /// Input height and width.
    public var inputHeight: Int, inputWidth: Int
    /// Output height and width.
    public var outputHeight: Int, outputWidth: Int
    /// Channels (innermost dimension).
    public var depth: Int
    /// Corner pixels of input and output are aligned.
    public var alignCorners: Bool
    /// Pixel centres are at +0.5.
    public var halfPixelCenters: Bool

    /// Creates the parameters.
    public init(batches: Int, inputHeight: Int, inputWidth: Int, outputHeight: Int, outputWidth: Int,
                depth: Int, alignCorners: Bool, halfPixelCenters: Bool) {
        self.batches = batches; self.inputHeight = inputHeight; self.inputWidth = inputWidth
        self.outputHeight = outputHeight; self.outputWidth = outputWidth; self.depth = depth
        self.alignCorners = alignCorners; self.halfPixelCenters = halfPixelCenters
    }

    /// Number of output elements.
    public var outputElementCount: Int { batches * outputHeight * outputWidth * depth }
    /// Number of input elements.
    public var inputElementCount: Int { batches * inputHeight * inputWidth * depth }
}

/// One output coordinate's source position for bilinear sampling in float.
struct BilinearSample {
    /// Scaled (fractional) input coordinate.
    var position: Float
    /// Lower and upper neighbouring input indices.
    var lower: Int, upper: Int

    /// The reference's float scale: `in/out`, or `(in−1)/(out−1)` with aligned corners.
    static func scale(input: Int, output: Int, alignCorners: Bool) -> Float {
        if alignCorners && output > 1 { return Float(input - 1) / Float(output - 1) }
        return Float(input) / Float(output)
    }

    /// The reference's `ComputeInterpolationValues` (float variant).
    init(_ value: Int, scale: Float, halfPixelCenters: Bool, inputSize: Int) {
        position = halfPixelCenters ? (Float(value) + 0.5) * scale - 0.5 : Float(value) * scale
        let floor = position.rounded(.down)
        lower = max(Int(SaturatingRound.truncatingToInt32(floor)), 0)
        upper = min(Int(SaturatingRound.truncatingToInt32(position.rounded(.up))), inputSize - 1)
    }
}

/// One output coordinate's source position for bilinear sampling in 10-bit fixed point.
struct BilinearFixedSample {
    /// Scaled input coordinate × 1024.
    var position: Int32
    /// Lower and upper neighbouring input indices.
    var lower: Int, upper: Int

    /// The reference's `scale_10`: the scale × 1024, rounded.
    static func scale(input: Int, output: Int, alignCorners: Bool) -> Int32 {
        if alignCorners && output > 1 {
            return Int32(truncatingIfNeeded: ((1 << 10) * (input - 1) + (output - 1) / 2) / (output - 1))
        }
        return Int32(truncatingIfNeeded: ((1 << 10) * input + output / 2) / output)
    }

    /// The reference's `ComputeInterpolationValues` (integer variant).
    init(_ value: Int, scale: Int32, halfPixelCenters: Bool, inputSize: Int) {
        let v = Int32(truncatingIfNeeded: value)
        position = halfPixelCenters ? v &* scale &+ scale / 2 &- (1 << 9) : v &* scale
        lower = max(Int(position / (1 << 10)), 0)
        upper = min(Int((position &+ (1 << 10) &- 1) / (1 << 10)), inputSize - 1)
    }
}
