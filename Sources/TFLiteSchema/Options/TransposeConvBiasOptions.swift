/// The options of MediaPipe's custom operator `Convolution2DTransposeBias`: a raw
/// `TfLiteTransposeConvParams` struct in the operator's `custom_options` — three
/// little-endian int32s: padding (1 = SAME, 2 = VALID; TfLitePadding, not the schema's
/// `Padding`), stride_w, stride_h.
public struct TransposeConvBiasOptions: Sendable, Equatable {
    /// The custom operator's name.
    public static let operatorName = "Convolution2DTransposeBias"
    /// The padding.
    public var padding: Padding
    /// Horizontal stride (not range-checked here).
    public var strideW: Int32
    /// Vertical stride (not range-checked here).
    public var strideH: Int32

    /// Creates the options.
    public init(padding: Padding, strideW: Int32, strideH: Int32) {
        self.padding = padding; self.strideW = strideW; self.strideH = strideH
    }

    /// Decodes the first 12 bytes of `custom_options`.
    /// - Throws: ``TFLiteSchemaError/invalidCustomOptions(operator:reason:)`` when fewer than
    ///   12 bytes are given; ``TFLiteSchemaError/unknownEnumValue(operator:field:enumeration:value:)``
    ///   for a padding other than 1 or 2.
    public init(customOptions bytes: [UInt8]) throws {
        let op = Self.operatorName
        func field(_ index: Int) throws -> Int32 {
            let start = index * 4
            guard bytes.count >= start + 4 else {
                throw TFLiteSchemaError.invalidCustomOptions(operator: op, reason: "too short (\(bytes.count) bytes)")
            }
            return Int32(bitPattern: UInt32(bytes[start]) | UInt32(bytes[start + 1]) << 8
                         | UInt32(bytes[start + 2]) << 16 | UInt32(bytes[start + 3]) << 24)
        }
        let code = try field(0)
        switch code {
        case 1: padding = .same
        case 2: padding = .valid
        default:
            throw TFLiteSchemaError.unknownEnumValue(operator: op, field: "padding", enumeration: "TfLitePadding",
                                                     value: Int(code))
        }
        strideW = try field(1)
        strideH = try field(2)
    }
}
