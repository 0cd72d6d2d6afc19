import TFLiteSchema

extension OperatorRegistry {
    /// The Convolution family's builtin operators.
    static let convolutionFamily: [BuiltinOperator: OperatorFactory] = [
        .conv2D: { Conv2DOperator() },
        .depthwiseConv2D: { DepthwiseConv2DOperator() },
        .fullyConnected: { FullyConnectedOperator() },
        .transposeConv: { TransposeConvOperator() },
        .averagePool2D: { Pool2DOperator(kind: .average) },
        .maxPool2D: { Pool2DOperator(kind: .max) },
    ]
}

extension OperatorRegistry {
    /// Custom convolution operators (`Convolution2DTransposeBias`).
    static let convolutionCustomFamily: [String: OperatorFactory] = [
        "Convolution2DTransposeBias": { TransposeConvBiasOperator() },
    ]
}
