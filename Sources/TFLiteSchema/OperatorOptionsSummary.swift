import FlatBufferReader

/// Human-readable key options of an operator (strides, padding, activation, axis, ...), read
/// through the same typed options the interpreter uses (``Conv2DOptions``, ...) or, for
/// custom operators, ``TransposeConvBiasOptions`` and the scalars of a FlexBuffer options
/// map. For reports such as `tflite-dump`.
public enum OperatorOptionsSummary {
    /// `(name, value)` pairs for `op`, in display order; empty for operators without notable
    /// options; one `("options_error", message)` pair when the options do not decode.
    public static func options(of op: OperatorDescription, code: OperatorCode) -> [(String, String)] {
        if code.builtin == .custom {
            if code.customName == TransposeConvBiasOptions.operatorName {
                do {
                    let o = try TransposeConvBiasOptions(customOptions: op.customOptions)
                    return [("stride", "\(o.strideW)x\(o.strideH)"), ("padding", "\(o.padding)")]
                } catch {
                    return [("options_error", "\(error)")]
                }
            }
            return customOptions(op.customOptions)
        }
        guard op.builtinOptions != nil else { return [] }
        do { return try builtinOptions(of: op, code.builtin) } catch {
            return [("options_error", "\(error)")]
        }
    }

    private static func builtinOptions(of op: OperatorDescription, _ builtin: BuiltinOperator) throws -> [(String, String)] {
        func decode<Options: BuiltinOptionsDecodable>(_ type: Options.Type) throws -> Options {
            try op.options(type, operator: builtin.description)
        }
        switch builtin {
        case .conv2D:
            let o = try decode(Conv2DOptions.self)
            return [("stride", "\(o.strideW)x\(o.strideH)"), ("padding", "\(o.padding)"),
                    ("activation", "\(o.fusedActivationFunction)"),
                    ("dilation", "\(o.dilationWFactor)x\(o.dilationHFactor)")]
        case .depthwiseConv2D:
            let o = try decode(DepthwiseConv2DOptions.self)
            return [("stride", "\(o.strideW)x\(o.strideH)"), ("padding", "\(o.padding)"),
                    ("depth_multiplier", "\(o.depthMultiplier)"), ("activation", "\(o.fusedActivationFunction)"),
                    ("dilation", "\(o.dilationWFactor)x\(o.dilationHFactor)")]
        case .transposeConv:
            let o = try decode(TransposeConvOptions.self)
            return [("stride", "\(o.strideW)x\(o.strideH)"), ("padding", "\(o.padding)"),
                    ("activation", "\(o.fusedActivationFunction)")]
        case .averagePool2D, .maxPool2D, .l2Pool2D:
            let o = try decode(Pool2DOptions.self)
            return [("filter", "\(o.filterWidth)x\(o.filterHeight)"), ("stride", "\(o.strideW)x\(o.strideH)"),
                    ("padding", "\(o.padding)"), ("activation", "\(o.fusedActivationFunction)")]
        case .fullyConnected:
            let o = try decode(FullyConnectedOptions.self)
            return [("activation", "\(o.fusedActivationFunction)"), ("keep_num_dims", "\(o.keepNumDims)")]
        case .add: return [("activation", "\(try decode(AddOptions.self).fusedActivationFunction)")]
        case .sub: return [("activation", "\(try decode(SubOptions.self).fusedActivationFunction)")]
        case .mul: return [("activation", "\(try decode(MulOptions.self).fusedActivationFunction)")]
        case .div: return [("activation", "\(try decode(DivOptions.self).fusedActivationFunction)")]
        case .concatenation:
            let o = try decode(ConcatenationOptions.self)
            return [("axis", "\(o.axis)"), ("activation", "\(o.fusedActivationFunction)")]
        case .softmax:
            return [("beta", "\(try decode(SoftmaxOptions.self).beta)")]
        case .reshape:
            let shape = try decode(ReshapeOptions.self).newShape
            return shape.isEmpty ? [] : [("new_shape", "\(shape)")]
        case .resizeBilinear:
            let o = try decode(ResizeBilinearOptions.self)
            return [("align_corners", "\(o.alignCorners)"), ("half_pixel_centers", "\(o.halfPixelCenters)")]
        case .resizeNearestNeighbor:
            let o = try decode(ResizeNearestNeighborOptions.self)
            return [("align_corners", "\(o.alignCorners)"), ("half_pixel_centers", "\(o.halfPixelCenters)")]
        case .stridedSlice:
            let o = try decode(StridedSliceOptions.self)
            return [("begin_mask", "\(o.beginMask)"), ("end_mask", "\(o.endMask)"),
                    ("shrink_axis_mask", "\(o.shrinkAxisMask)")]
        case .mean, .sum, .reduceMax, .reduceMin, .reduceProd, .reduceAny:
            return [("keep_dims", "\(try decode(ReducerOptions.self).keepDims)")]
        case .squeeze:
            return [("squeeze_dims", "\(try decode(SqueezeOptions.self).squeezeDims)")]
        case .leakyRelu:
            return [("alpha", "\(try decode(LeakyReluOptions.self).alpha)")]
        case .gather:
            let o = try decode(GatherOptions.self)
            return [("axis", "\(o.axis)"), ("batch_dims", "\(o.batchDims)")]
        case .pack:
            let o = try decode(PackOptions.self)
            return [("count", "\(o.valuesCount)"), ("axis", "\(o.axis)")]
        case .unpack:
            let o = try decode(UnpackOptions.self)
            return [("count", "\(o.num)"), ("axis", "\(o.axis)")]
        case .split:
            return [("num_splits", "\(try decode(SplitOptions.self).numSplits)")]
        default:
            return []
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
