import TFLiteSchema

extension InputTensorSpec {
    /// The one input-preparation rule every model runner uses: derives the spec of an image
    /// input tensor from the model. Size and channels come from the NHWC shape (one channel is
    /// grayscale, three RGB), the element type from the tensor type, and the values from the
    /// model's metadata first, with documented fallbacks:
    ///
    /// | input | metadata `NormalizationOptions` | without |
    /// |---|---|---|
    /// | float32 | `(p − mean) / std` | `defaultFloatNormalization` (the detector family's or caller's default) |
    /// | uint8 | raw pixels `p` (ignored, as the TFLite Task Library does) | raw pixels `p` |
    /// | int8 | `(p − mean) / std`, quantized with the tensor's scale and zero point | `p` or `p / 255`, quantized (below) |
    ///
    /// uint8 inputs take raw pixels: their quantization was calibrated on the normalized
    /// training images, so it already encodes the normalization (EfficientNet-Lite0's scale
    /// 0.0126 / zero point 131 is ImageNet's mean and std). int8 exports do not follow one
    /// convention (YOLOv8n's int8 input has scale 0.0185 / zero point −14, a [−2.1, 2.6] range
    /// for [0, 1] images), so without metadata the value is guessed from the range the
    /// quantization can represent: when it reaches beyond 10 the model expects pixel values
    /// (`p`), else values in [0, 1] (`p / 255`); either is then quantized with the tensor's
    /// parameters. An int8 tensor without quantization parameters takes `p − 128`.
    ///
    /// - Throws: ``ImageError/invalidParameters(_:)`` for shapes other than `[1, H, W, 1|3]`,
    ///   element types other than float32, uint8 and int8, or unusable parameters.
    public init(tensor: TensorDescription, metadata: TensorMetadata? = nil,
                defaultFloatNormalization: InputNormalization = .signedUnitInterval) throws {
        let shape = tensor.shape
        guard shape.count == 4, shape[0] == 1, shape[1] > 0, shape[2] > 0, shape[3] == 1 || shape[3] == 3 else {
            throw ImageError.invalidParameters("input tensor '\(tensor.name)' has shape \(shape), expected [1, H, W, 1 or 3]")
        }
        let stated = metadata?.normalization.map { InputNormalization(mean: $0.mean, std: $0.std) }
        var normalization = InputNormalization.identity
        var quantization: InputQuantization?
        let elementType: InputElementType
        switch tensor.type {
        case .float32:
            elementType = .float32
            normalization = stated ?? defaultFloatNormalization
        case .uint8:
            elementType = .uint8
        case .int8:
            elementType = .int8
            if let q = tensor.quantization, let scale = q.scales.first, let zeroPoint = q.zeroPoints.first,
               (-128...127).contains(zeroPoint), scale.isFinite, scale > 0 {
                let representableMaximum = Float(127 - zeroPoint) * scale
                normalization = stated ?? (representableMaximum > 10 ? .identity : .unitInterval)
                quantization = InputQuantization(scale: scale, zeroPoint: Int(zeroPoint))
            }
        default:
            throw ImageError.invalidParameters("input tensor '\(tensor.name)' has type \(tensor.type), expected float32, uint8 or int8")
        }
        self.init(width: shape[2], height: shape[1], colorOrder: shape[3] == 1 ? .grayscale : .rgb,
                  elementType: elementType, normalization: normalization, quantization: quantization)
        try validate()
    }
}
