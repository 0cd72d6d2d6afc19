/// A float ADD fused into the convolution that produces one of its operands: the layer's
/// clamped output plus `input` (a tensor of the output's pixels, `channels` floats each),
/// clamped to the ADD's activation range — the values the two nodes give one after the other,
/// without writing the convolution's output and reading it back. Only the generated tiles
/// apply it (`Conv2DOptimized.fusesResidual`).
///
/// With fewer `channels` than the output, `input` is the tensor a channel PAD would have
/// extended with +0.0 (BlazeFace's shortcuts): output channels from `channels` on add +0.0,
/// read from a zero row, as the ADD of the padded tensor would.
public struct FloatConvResidual {
    /// The ADD's other operand, `channels` floats per output pixel.
    public let input: UnsafePointer<Float>
    /// The operand's channels: the output's depth, or fewer (the rest add +0.0).
    public let channels: Int
    /// The ADD's activation range.
    public let min: Float, max: Float

    /// The zeros the padded channels read: a panel of the widest tile, floats.
    public static let zeroRowFloats = 32

    public init(input: UnsafePointer<Float>, channels: Int, min: Float, max: Float) {
        self.input = input; self.channels = channels; self.min = min; self.max = max
    }

    /// The operand's rows for the tile whose first pixel is `pixel`, at output channel `channel`
    /// (a panel's first): its first float and the floats from row to row; the zero row `zeros`
    /// repeated (stride 0) for channels past `channels`. Precondition: a panel starting below
    /// `channels` ends at or below it (`Conv2DOptimized.fusesResidual(_:channels:)`).
    @inline(__always)
    func rows(pixel: Int, channel: Int, zeros: UnsafePointer<Float>) -> (start: UnsafePointer<Float>, stride: Int) {
        channel < channels ? (input + pixel * channels + channel, channels) : (zeros, 0)
    }
}
