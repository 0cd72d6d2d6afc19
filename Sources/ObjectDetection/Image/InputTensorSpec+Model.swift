import TFLiteSchema

extension InputTensorSpec {
    /// Derives the spec of an image input tensor from the model: size and channels from the
    /// NHWC shape, element type from the tensor type, normalization from the tensor's metadata.
    ///
    /// Conventions (those of the TFLite Task Library and of the models in the reference corpus):
    /// - float32 inputs use the metadata's `NormalizationOptions`, or `defaultFloatNormalization`
    ///   when the model has none;
    /// - uint8 and int8 inputs take raw pixels (`p`, `p − 128`): their quantization parameters
    ///   already encode the normalization the model was trained with (e.g. EfficientNet-Lite0's
    ///   scale 0.0126 / zero point 131 is ImageNet mean/std). Set ``quantization`` (and
    ///   ``normalization``) afterwards to quantize normalized values instead.
    /// - One channel means grayscale; three channels RGB.
    ///
    /// - Throws: ``ImageError/invalidParameters(_:)`` for shapes other than `[1, H, W, 1|3]` or
    ///   element types other than float32, uint8 and int8.
    public init(tensor: TensorDescription, metadata: TensorMetadata? = nil,
                defaultFloatNormalization: InputNormalization = .signedUnitInterval) throws {
        let shape = tensor.shape
        guard shape.count == 4, shape[0] == 1, shape[1] > 0, shape[2] > 0, shape[3] == 1 || shape[3] == 3 else {
            throw ImageError.invalidParameters("input tensor '\(tensor.name)' has shape \(shape), expected [1, H, W, 1 or 3]")
        }
        let elementType: InputElementType
        switch tensor.type {
        case .float32: elementType = .float32
        case .uint8: elementType = .uint8
        case .int8: elementType = .int8
        default:
            throw ImageError.invalidParameters("input tensor '\(tensor.name)' has type \(tensor.type), expected float32, uint8 or int8")
        }
        var normalization = InputNormalization.identity
        if elementType == .float32 {
            if let fromMetadata = metadata?.normalization {
                normalization = InputNormalization(mean: fromMetadata.mean, std: fromMetadata.std)
            } else {
                normalization = defaultFloatNormalization
            }
        }
        self.init(width: shape[2], height: shape[1], colorOrder: shape[3] == 1 ? .grayscale : .rgb,
                  elementType: elementType, normalization: normalization, quantization: nil)
        try validate()
    }
}
