import TFLiteSchema

extension OperatorRegistry {
    /// The DataMovement family's builtin operators.
    static let dataMovementFamily: [BuiltinOperator: OperatorFactory] = [
        .concatenation: { ConcatenationOperator() },
        .reshape: { ReshapeOperator() },
        .squeeze: { SqueezeOperator() },
        .expandDims: { ExpandDimsOperator() },
        .transpose: { TransposeOperator() },
        .pad: { PadOperator(isV2: false) },
        .padv2: { PadOperator(isV2: true) },
        .slice: { SliceOperator() },
        .stridedSlice: { StridedSliceOperator() },
        .resizeBilinear: { ResizeOperator(.bilinear) },
        .resizeNearestNeighbor: { ResizeOperator(.nearestNeighbor) },
        .depthToSpace: { DepthToSpaceOperator(toSpace: true) },
        .spaceToDepth: { DepthToSpaceOperator(toSpace: false) },
        .quantize: { QuantizeOperator() },
        .dequantize: { DequantizeOperator() },
        .densify: { DensifyOperator() },
    ]
}
