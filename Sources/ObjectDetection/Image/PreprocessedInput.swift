/// The tensor bytes produced by preprocessing and the transform that maps results back.
public struct PreprocessedInput: Sendable {
    /// NHWC tensor data (batch 1) in the spec's element type; floats little-endian.
    public var data: [UInt8]
    /// Maps input-tensor coordinates to upright image coordinates.
    public var transform: InputTransform
}
