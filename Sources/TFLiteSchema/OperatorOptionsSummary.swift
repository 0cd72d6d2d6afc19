import FlatBufferReader

/// Human-readable key options of an operator (strides, padding, activation, axis, ...), read
/// from its builtin options table (field ids from `schema.fbs`) or, for custom operators,
/// the scalars of its FlexBuffer options map. For reports such as `tflite-dump`.
public enum OperatorOptionsSummary {
    /// `(name, value)` pairs for `op`, in display order; empty for operators without notable options.
    public static func options(of op: OperatorDescription, code: OperatorCode) -> [(String, String)] {
        if code.builtin == .custom { return customOptions(op.customOptions) }
        guard let table = op.builtinOptions else { return [] }
        switch code.builtin {
        case .conv2D:
            return [("stride", stride(table, 1, 2)), ("padding", padding(table.int8(0))),
                    ("activation", activation(table.int8(3))),
                    ("dilation", "\(table.int32(4, default: 1))x\(table.int32(5, default: 1))")]
        case .depthwiseConv2D:
            return [("stride", stride(table, 1, 2)), ("padding", padding(table.int8(0))),
                    ("depth_multiplier", "\(table.int32(3))"), ("activation", activation(table.int8(4))),
                    ("dilation", "\(table.int32(5, default: 1))x\(table.int32(6, default: 1))")]
        case .transposeConv:
            return [("stride", stride(table, 1, 2)), ("padding", padding(table.int8(0))),
                    ("activation", activation(table.int8(3)))]
        case .averagePool2D, .maxPool2D, .l2Pool2D:
            return [("filter", "\(table.int32(3))x\(table.int32(4))"), ("stride", stride(table, 1, 2)),
                    ("padding", padding(table.int8(0))), ("activation", activation(table.int8(5)))]
        case .fullyConnected:
            return [("activation", activation(table.int8(0))), ("keep_num_dims", "\(table.bool(2))")]
        case .add, .sub, .mul, .div:
            return [("activation", activation(table.int8(0)))]
        case .concatenation:
            return [("axis", "\(table.int32(0))"), ("activation", activation(table.int8(1)))]
        case .softmax:
            return [("beta", "\(table.float(0))")]
        case .reshape:
            let shape = table.int32Array(0)
            return shape.isEmpty ? [] : [("new_shape", "\(shape)")]
        case .resizeBilinear:
            return [("align_corners", "\(table.bool(2))"), ("half_pixel_centers", "\(table.bool(3))")]
        case .resizeNearestNeighbor:
            return [("align_corners", "\(table.bool(0))"), ("half_pixel_centers", "\(table.bool(1))")]
        case .stridedSlice:
            return [("begin_mask", "\(table.int32(0))"), ("end_mask", "\(table.int32(1))"),
                    ("shrink_axis_mask", "\(table.int32(4))")]
        case .mean, .sum, .reduceMax, .reduceMin, .reduceProd, .reduceAny:
            return [("keep_dims", "\(table.bool(0))")]
        case .squeeze:
            return [("squeeze_dims", "\(table.int32Array(0))")]
        case .leakyRelu:
            return [("alpha", "\(table.float(0))")]
        case .gather:
            return [("axis", "\(table.int32(0))"), ("batch_dims", "\(table.int32(1))")]
        case .pack, .unpack:
            return [("count", "\(table.int32(0))"), ("axis", "\(table.int32(1))")]
        case .split:
            return [("num_splits", "\(table.int32(0))")]
        default:
            return []
        }
    }

    private static func stride(_ table: OptionsTable, _ w: Int, _ h: Int) -> String {
        "\(table.int32(w))x\(table.int32(h))"
    }

    /// Name of a `Padding` code: SAME = 0, VALID = 1.
    public static func padding(_ code: Int8) -> String {
        switch code { case 0: return "SAME"; case 1: return "VALID"; default: return "padding(\(code))" }
    }

    /// Name of an `ActivationFunctionType` code.
    public static func activation(_ code: Int8) -> String {
        switch code {
        case 0: return "NONE"; case 1: return "RELU"; case 2: return "RELU_N1_TO_1"; case 3: return "RELU6"
        case 4: return "TANH"; case 5: return "SIGN_BIT"
        default: return "activation(\(code))"
        }
    }

    /// Scalars of a FlexBuffer options map (vectors and nested maps are summarized).
    private static func customOptions(_ bytes: [UInt8]) -> [(String, String)] {
        guard !bytes.isEmpty else { return [] }
        guard let map = try? FlexBufferMap(bytes: bytes) else { return [("custom_options", "\(bytes.count) bytes")] }
        return map.keys.map { key in
            guard let value = map[key] else { return (key, "?") }
            switch value.type {
            case .bool: return (key, "\(value.bool ?? false)")
            case .int, .uint, .indirectInt, .indirectUInt: return (key, value.int.map { "\($0)" } ?? "?")
            case .float, .indirectFloat: return (key, value.double.map { "\(Float($0))" } ?? "?")
            case .string, .key: return (key, value.string ?? "?")
            default:
                if let vector = value.vector { return (key, "[\(vector.count) values]") }
                return (key, "\(value.type)")
            }
        }
    }
}
