/// A float ADD fused into the convolution that produces one of its operands: the layer's
/// clamped output plus `input` (a tensor of the output's shape, read at the same offsets),
/// clamped to the ADD's activation range — the values the two nodes give one after the other,
/// without writing the convolution's output and reading it back. Only the generated tiles
/// apply it (`Conv2DOptimized.fusesResidual`).
public struct FloatConvResidual {
    /// The ADD's other operand, laid out as the output.
    public let input: UnsafePointer<Float>
    /// The ADD's activation range.
    public let min: Float, max: Float

    public init(input: UnsafePointer<Float>, min: Float, max: Float) {
        self.input = input; self.min = min; self.max = max
    }
}
