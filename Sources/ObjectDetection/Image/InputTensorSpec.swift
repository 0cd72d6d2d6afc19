/// Element type of an image input tensor.
public enum InputElementType: Sendable, Hashable {
    /// 32-bit float, little-endian.
    case float32
    /// Unsigned 8-bit (asymmetric quantization or raw pixels).
    case uint8
    /// Signed 8-bit (asymmetric quantization).
    case int8

    /// Size of one element in bytes.
    public var byteCount: Int { self == .float32 ? 4 : 1 }
}

/// Channel layout a model expects.
public enum InputColorOrder: Sendable, Hashable {
    /// Three channels: red, green, blue.
    case rgb
    /// Three channels: blue, green, red.
    case bgr
    /// One channel: BT.601 luma, `(77·R + 150·G + 29·B + 128) >> 8`.
    case grayscale

    /// Number of channels in the tensor.
    public var channelCount: Int { self == .grayscale ? 1 : 3 }
}

/// Per-channel normalization `(pixel − mean) / std`, as in a model's `NormalizationOptions`
/// metadata. One value applies to every channel; otherwise one value per channel, in the
/// tensor's channel order.
public struct InputNormalization: Sendable, Hashable {
    /// Subtracted from the 0...255 pixel value.
    public var mean: [Float]
    /// Divides the centred value.
    public var std: [Float]

    /// Creates a normalization; values are validated by ``ImagePreprocessor``.
    public init(mean: [Float], std: [Float]) {
        self.mean = mean
        self.std = std
    }

    /// Pixels unchanged (0...255).
    public static let identity = InputNormalization(mean: [0], std: [1])
    /// Maps 0...255 to 0...1.
    public static let unitInterval = InputNormalization(mean: [0], std: [255])
    /// Maps 0...255 to −1...1 (`(p − 127.5) / 127.5`, MobileNet/EfficientNet style).
    public static let signedUnitInterval = InputNormalization(mean: [127.5], std: [127.5])
}

/// Asymmetric quantization of an input tensor: `real = scale × (q − zeroPoint)`.
public struct InputQuantization: Sendable, Hashable {
    /// Real value of one quantization step.
    public var scale: Float
    /// Quantized value representing real 0.
    public var zeroPoint: Int

    /// Creates quantization parameters.
    public init(scale: Float, zeroPoint: Int) {
        self.scale = scale
        self.zeroPoint = zeroPoint
    }
}

/// Everything preprocessing needs to know about an image input tensor (NHWC, batch 1):
/// size, channel order, element type, normalization and quantization.
///
/// Values written per element, from the resampled 8-bit pixel `p` of channel `c`:
/// - `.float32`: `(p − mean[c]) / std[c]`.
/// - `.uint8` / `.int8` with ``quantization``: `clamp(round(((p − mean[c]) / std[c]) / scale) + zeroPoint)`,
///   rounding half away from zero, clamped to the type's range.
/// - `.uint8` without quantization: `p` (the convention of most uint8 image models, which
///   take raw pixels). `.int8` without quantization: `p − 128`.
public struct InputTensorSpec: Sendable, Hashable {
    /// Tensor width (W of NHWC).
    public var width: Int
    /// Tensor height (H of NHWC).
    public var height: Int
    /// Channel order (C of NHWC is 1 or 3).
    public var colorOrder: InputColorOrder
    /// Element type.
    public var elementType: InputElementType
    /// Normalization applied before quantization (or as the float value).
    public var normalization: InputNormalization
    /// Quantization of integer inputs; nil means raw pixels (see the type's documentation).
    public var quantization: InputQuantization?

    /// Creates a spec.
    public init(width: Int, height: Int, colorOrder: InputColorOrder = .rgb, elementType: InputElementType,
                normalization: InputNormalization = .identity, quantization: InputQuantization? = nil) {
        self.width = width
        self.height = height
        self.colorOrder = colorOrder
        self.elementType = elementType
        self.normalization = normalization
        self.quantization = quantization
    }

    /// Channels per pixel.
    public var channels: Int { colorOrder.channelCount }

    /// Size of the tensor data in bytes.
    public var byteCount: Int { width * height * channels * elementType.byteCount }

    /// Throws when sizes, normalization or quantization are unusable.
    public func validate() throws {
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15, width * height <= 1 << 26 else {
            throw ImageError.invalidParameters("input size \(width)x\(height) out of range (at most 2^26 pixels)")
        }
        for (name, values) in [("mean", normalization.mean), ("std", normalization.std)] {
            guard values.count == 1 || values.count == channels else {
                throw ImageError.invalidParameters("\(name) has \(values.count) values for \(channels) channels")
            }
            guard values.allSatisfy({ $0.isFinite }) else {
                throw ImageError.invalidParameters("\(name) contains a non-finite value")
            }
        }
        guard normalization.std.allSatisfy({ $0 != 0 }) else {
            throw ImageError.invalidParameters("std contains zero")
        }
        if let quantization {
            guard elementType != .float32 else {
                throw ImageError.invalidParameters("float32 inputs take no quantization")
            }
            guard quantization.scale.isFinite, quantization.scale > 0 else {
                throw ImageError.invalidParameters("quantization scale \(quantization.scale) must be positive")
            }
            let range = elementType == .uint8 ? 0...255 : -128...127
            guard range.contains(quantization.zeroPoint) else {
                throw ImageError.invalidParameters("zero point \(quantization.zeroPoint) outside \(range)")
            }
        }
    }

    /// The value table: element for each (channel, 8-bit pixel), as described on the type.
    /// Quantized values are returned as their byte pattern; floats as `Float`.
    func lookupTables() -> (bytes: [UInt8], floats: [Float]) {
        let count = channels * 256
        var floats = [Float](repeating: 0, count: elementType == .float32 ? count : 0)
        var bytes = [UInt8](repeating: 0, count: elementType == .float32 ? 0 : count)
        for c in 0..<channels {
            let mean = normalization.mean.count == 1 ? normalization.mean[0] : normalization.mean[c]
            let std = normalization.std.count == 1 ? normalization.std[0] : normalization.std[c]
            for p in 0..<256 {
                let normalized = (Float(p) - mean) / std
                switch (elementType, quantization) {
                case (.float32, _):
                    floats[c * 256 + p] = normalized
                case let (.uint8, q?):
                    let value = Self.roundedSteps(normalized, scale: q.scale) + q.zeroPoint
                    bytes[c * 256 + p] = UInt8(min(255, max(0, value)))
                case let (.int8, q?):
                    let value = Self.roundedSteps(normalized, scale: q.scale) + q.zeroPoint
                    bytes[c * 256 + p] = UInt8(bitPattern: Int8(min(127, max(-128, value))))
                case (.uint8, nil):
                    bytes[c * 256 + p] = UInt8(p)
                case (.int8, nil):
                    bytes[c * 256 + p] = UInt8(bitPattern: Int8(p - 128))
                }
            }
        }
        return (bytes, floats)
    }

    /// `round(value / scale)` (half away from zero), saturated so the integer conversion cannot trap.
    static func roundedSteps(_ value: Float, scale: Float) -> Int {
        let steps = (value / scale).rounded()
        return Int(min(1_000_000, max(-1_000_000, steps)))
    }
}
