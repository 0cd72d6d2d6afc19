import TFLiteKernels
import TFLiteSchema

/// `ActivationFunctionType` codes of the schema, as fused into convolution-family operators.
enum ConvFusedActivation: Int8 {
    case none = 0, relu = 1, reluN1To1 = 2, relu6 = 3, tanh = 4, signBit = 5

    /// The schema's activation (unknown codes were rejected when the options were decoded).
    init(_ activation: ActivationFunctionType) {
        switch activation {
        case .none: self = .none
        case .relu: self = .relu
        case .reluN1To1: self = .reluN1To1
        case .relu6: self = .relu6
        case .tanh: self = .tanh
        case .signBit: self = .signBit
        }
    }

    /// The float clamp TFLite's `CalculateActivationRange` gives. TANH and SIGN_BIT clamp
    /// nothing there (the reference kernels ignore them), and so do we.
    var floatRange: (min: Float, max: Float) {
        switch self {
        case .relu: return (0, .greatestFiniteMagnitude)
        case .relu6: return (0, 6)
        case .reluN1To1: return (-1, 1)
        case .none, .tanh, .signBit: return (-.greatestFiniteMagnitude, .greatestFiniteMagnitude)
        }
    }

    /// The quantized clamp (TFLite `CalculateActivationRangeQuantized`) for an output with
    /// `scale`/`zeroPoint` whose type spans `qmin...qmax`.
    func quantizedRange(scale: Float, zeroPoint: Int32, qmin: Int32, qmax: Int32) -> (min: Int32, max: Int32) {
        func quantize(_ f: Float) -> Int32 {
            let q = (f / scale).rounded(.toNearestOrAwayFromZero)
            guard q.isFinite, abs(q) < 1e9 else { return q < 0 ? Int32.min / 2 : Int32.max / 2 }
            return zeroPoint &+ Int32(q)
        }
        switch self {
        case .relu: return (max(qmin, quantize(0)), qmax)
        case .relu6: return (max(qmin, quantize(0)), min(qmax, quantize(6)))
        case .reluN1To1: return (max(qmin, quantize(-1)), min(qmax, quantize(1)))
        case .none, .tanh, .signBit: return (qmin, qmax)
        }
    }
}

/// The sliding-window options CONV_2D and DEPTHWISE_CONV_2D share, taken from their typed options.
struct ConvWindowOptions {
    var padding: Padding
    var strideW: Int32, strideH: Int32
    var dilationW: Int32, dilationH: Int32
    /// Explicit padding around the input before `padding` applies (a folded PAD's, ``PadFusion``), nil for none.
    var explicitPadding: SpatialPadding? = nil

    init(_ o: Conv2DOptions) {
        padding = o.padding; strideW = o.strideW; strideH = o.strideH
        dilationW = o.dilationWFactor; dilationH = o.dilationHFactor
    }

    init(_ o: DepthwiseConv2DOptions) {
        padding = o.padding; strideW = o.strideW; strideH = o.strideH
        dilationW = o.dilationWFactor; dilationH = o.dilationHFactor
    }
}

/// Helpers shared by the convolution-family operators (options, validation, quantization).
enum ConvSupport {
    /// The geometry of a strided, dilated window over NHWC `input` (CONV_2D, DEPTHWISE_CONV_2D):
    /// padding, strides and dilations from the operator's typed options (`window`); with the
    /// window's explicit padding (a folded PAD), the options' padding applies to the input as the
    /// PAD extends it, as it would to the PAD's output.
    /// Throws when the filter does not fit the input or the output size overflows.
    static func windowGeometry(input: RuntimeTensor, filterHeight fh: Int, filterWidth fw: Int, filterInputDepth: Int,
                               outputDepth cout: Int, window: ConvWindowOptions, op: String) throws -> ConvolutionGeometry {
        let padding = ConvSupport.padding(window.padding)
        let strideW = try positive(window.strideW, "stride_w", op: op)
        let strideH = try positive(window.strideH, "stride_h", op: op)
        let dilationW = try positive(window.dilationW, "dilation_w_factor", op: op)
        let dilationH = try positive(window.dilationH, "dilation_h_factor", op: op)
        let (n, h, w, cin) = (input.shape[0], input.shape[1], input.shape[2], input.shape[3])
        try checkWindowExtents(batches: n, height: h, width: w, channels: cin, filterHeight: fh, filterWidth: fw,
                               dilation: (dilationH, dilationW), stride: (strideH, strideW), op: op)
        let extra = window.explicitPadding
        let rows = ConvolutionAxis(inputSize: h, filterSize: fh, stride: strideH, dilation: dilationH, padding: padding,
                                   extendBefore: extra?.top ?? 0, extendAfter: extra?.bottom ?? 0)
        let cols = ConvolutionAxis(inputSize: w, filterSize: fw, stride: strideW, dilation: dilationW, padding: padding,
                                   extendBefore: extra?.left ?? 0, extendAfter: extra?.right ?? 0)
        guard rows.outputSize >= 0, cols.outputSize >= 0 else {
            throw InterpreterError.invalidShape("\(op): filter \(fh)x\(fw) does not fit input \(h)x\(w) with VALID padding")
        }
        _ = try product([n, rows.outputSize, cols.outputSize, cout], op: op)
        return ConvolutionGeometry(batches: n, inputHeight: h, inputWidth: w, inputDepth: cin,
                                   filterHeight: fh, filterWidth: fw, filterInputDepth: filterInputDepth,
                                   outputHeight: rows.outputSize, outputWidth: cols.outputSize, outputDepth: cout,
                                   strideHeight: strideH, strideWidth: strideW,
                                   dilationHeight: dilationH, dilationWidth: dilationW,
                                   padTop: rows.padBefore, padLeft: cols.padBefore)
    }

    /// Most elements of an input including its padding (a padded copy of this many floats
    /// is at most 1 GiB): sizes beyond it come only from malformed shapes, such as a
    /// zero-element input with a 2^40-wide row.
    static let maximumPaddedInputElements = 1 << 28

    /// Checks, with overflow-checked arithmetic, that the input padded by one dilated filter
    /// and one stride on each spatial axis stays within ``maximumPaddedInputElements`` (so
    /// geometry products and padded copies cannot overflow or allocate terabytes), and that
    /// filter sizes are non-negative.
    static func checkWindowExtents(batches n: Int, height h: Int, width w: Int, channels c: Int,
                                   filterHeight fh: Int, filterWidth fw: Int,
                                   dilation: (height: Int, width: Int), stride: (height: Int, width: Int),
                                   op: String) throws {
        func extent(_ size: Int, _ filter: Int, _ dilation: Int, _ stride: Int) -> Int? {
            guard size >= 0, filter >= 0, size <= TensorLayout.maximumDimension, filter <= TensorLayout.maximumDimension
            else { return nil }
            return size + filter * dilation + stride   // ≤ 2^31 + 2^31·2^16 + 2^16: no overflow
        }
        guard let paddedH = extent(h, fh, dilation.height, stride.height),
              let paddedW = extent(w, fw, dilation.width, stride.width),
              let elements = TensorLayout.elementCount([n, paddedH, paddedW, c]),
              elements <= maximumPaddedInputElements else {
            throw InterpreterError.invalidShape(
                "\(op): input \(n)x\(h)x\(w)x\(c) with a \(fh)x\(fw) filter (dilation \(dilation.height)x\(dilation.width)) "
                + "needs more than \(maximumPaddedInputElements) padded input elements; the shapes are malformed")
        }
    }

    /// The kernels' padding for the schema's `Padding`.
    static func padding(_ padding: Padding) -> ConvolutionPadding {
        switch padding {
        case .same: return .same
        case .valid: return .valid
        }
    }

    /// Checks that a stride or dilation factor is usable.
    static func positive(_ value: Int32, _ what: String, op: String) throws -> Int {
        guard value >= 1, value <= 1 << 16 else {
            throw InterpreterError.invalidModel("\(op): \(what) must be ≥ 1, got \(value)")
        }
        return Int(value)
    }

    /// Checks a tensor's rank.
    static func requireRank(_ t: RuntimeTensor, _ rank: Int, _ what: String, op: String) throws {
        guard t.shape.count == rank else {
            throw InterpreterError.invalidShape("\(op): \(what) must have rank \(rank), got \(t.shape)")
        }
        guard t.shape.allSatisfy({ $0 >= 0 }) else {
            throw InterpreterError.invalidShape("\(op): \(what) has a negative dimension \(t.shape)")
        }
    }

    /// Checks a tensor's element type.
    static func requireType(_ t: RuntimeTensor, _ types: [TensorType], _ what: String, op: String) throws {
        guard types.contains(t.type) else {
            throw InterpreterError.invalidModel("\(op): \(what) has type \(t.type), expected \(types.map(\.description).joined(separator: " or "))")
        }
    }

    /// The tensor's data pointer, or an error when it has none.
    static func data(_ t: RuntimeTensor, op: String) throws -> UnsafeMutableRawPointer {
        guard let p = t.data else {
            throw InterpreterError.invocationFailed("\(op): tensor \(t.index) '\(t.name)' has no data")
        }
        return p
    }

    /// The value range of a quantized element type.
    static func quantizedBounds(_ type: TensorType) -> (Int32, Int32) {
        switch type {
        case .uint8: return (0, 255)
        case .int8: return (-128, 127)
        case .int16: return (-32768, 32767)
        default: return (Int32.min, Int32.max)
        }
    }

    /// The per-tensor quantization of `t` (scale > 0), or an error.
    static func perTensor(_ t: RuntimeTensor, _ what: String, op: String) throws -> (scale: Float, zeroPoint: Int32) {
        guard let q = t.quantization, let scale = q.scales.first, let zp = q.zeroPoints.first,
              scale > 0, scale.isFinite else {
            throw InterpreterError.invalidModel("\(op): \(what) needs quantization parameters with a positive scale")
        }
        guard zp >= Int64(Int32.min), zp <= Int64(Int32.max) else {
            throw InterpreterError.invalidModel("\(op): \(what) zero point \(zp) out of range")
        }
        return (scale, Int32(zp))
    }

    /// Weight scales expanded to one per output channel (`channels`), validating the count.
    static func filterScales(_ filter: RuntimeTensor, channels: Int, op: String) throws -> [Float] {
        guard let q = filter.quantization, !q.scales.isEmpty else {
            throw InterpreterError.invalidModel("\(op): quantized weights need scales")
        }
        guard q.scales.allSatisfy({ $0 > 0 && $0.isFinite }) else {
            throw InterpreterError.invalidModel("\(op): weight scales must be positive")
        }
        if q.scales.count == 1 { return Array(repeating: q.scales[0], count: channels) }
        guard q.scales.count == channels else {
            throw InterpreterError.invalidModel("\(op): \(q.scales.count) weight scales for \(channels) output channels")
        }
        return q.scales
    }

    /// Requantization parameters for a uint8/int8 convolution-family operator, computed as
    /// the reference does. Per-channel (`PopulateConvolutionQuantizationParams`):
    /// `M_c = Double(inputScale) · Double(filterScale_c) / Double(outputScale)`. Per-tensor
    /// (`GetQuantizedConvolutionMultipler`, used for uint8 convolutions and per-tensor
    /// FULLY_CONNECTED): the scale product is rounded to float first,
    /// `M = Double(inputScale · filterScale) / Double(outputScale)` — which changes the last
    /// bits of the multiplier and so, now and then, an output by one. uint8 uses the first
    /// filter scale for every channel.
    static func quantizedParameters(input: RuntimeTensor, filter: RuntimeTensor, output: RuntimeTensor,
                                    bias: RuntimeTensor?, channels: Int, activation: ConvFusedActivation,
                                    floatScaleProduct: Bool, op: String) throws -> QuantizedConvolutionParameters {
        guard output.type == input.type else {
            throw InterpreterError.invalidModel("\(op): output type \(output.type) differs from input type \(input.type)")
        }
        try checkBias(bias, count: channels, type: .int32, op: op)
        let (inScale, inZero) = try perTensor(input, "input", op: op)
        let (outScale, outZero) = try perTensor(output, "output", op: op)
        var scales = try filterScales(filter, channels: channels, op: op)
        if input.type == .uint8 { scales = Array(repeating: scales[0], count: channels) }
        let filterZero = Int32(truncatingIfNeeded: filter.quantization?.zeroPoints.first ?? 0)
        if let bias {
            guard bias.type == .int32 else {
                throw InterpreterError.invalidModel("\(op): quantized bias must be int32, got \(bias.type)")
            }
        }
        let multipliers = try scales.map {
            try QuantizedMultiplier(checking: floatScaleProduct ? Double(inScale * $0) / Double(outScale)
                                                                : Double(inScale) * Double($0) / Double(outScale),
                                    "output multiplier (input scale × weight scale / output scale)")
        }
        let (qmin, qmax) = quantizedBounds(output.type)
        let range = activation.quantizedRange(scale: outScale, zeroPoint: outZero, qmin: qmin, qmax: qmax)
        return QuantizedConvolutionParameters(inputOffset: -inZero, filterOffset: -filterZero, outputOffset: outZero,
                                              outputMultipliers: multipliers,
                                              activationMin: range.min, activationMax: range.max)
    }

    /// Checks an optional bias: `count` elements of `type`.
    static func checkBias(_ bias: RuntimeTensor?, count: Int, type: TensorType, op: String) throws {
        guard let bias else { return }
        guard bias.type == type else {
            throw InterpreterError.invalidModel("\(op): bias has type \(bias.type), expected \(type)")
        }
        guard bias.elementCount == count else {
            throw InterpreterError.invalidShape("\(op): bias has \(bias.elementCount) elements, expected \(count)")
        }
    }

    /// Overflow-checked product of dimensions.
    static func product(_ dims: [Int], op: String) throws -> Int {
        var n = 1
        for d in dims {
            let (r, o) = n.multipliedReportingOverflow(by: d)
            guard !o, d >= 0 else { throw InterpreterError.invalidShape("\(op): shape \(dims) overflows") }
            n = r
        }
        return n
    }
}
