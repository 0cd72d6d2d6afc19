import TFLiteKernels
import TFLiteSchema

/// A float fused activation's clamp, applied as `min(max(x, min), max)`.
typealias FloatClamp = (min: Float, max: Float)

/// What a convolution-family node (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED) computes in,
/// derived once at prepare from its tensor types and quantization: the setup the three
/// operators share, written once. Each case carries exactly what its kernels need.
enum ConvolutionArithmetic {
    /// float32 activations and weights, with the fused activation's clamp.
    case float(FloatClamp)
    /// uint8 activations and weights, per-tensor quantization.
    case uint8(QuantizedConvolutionParameters)
    /// int8 activations, int8 (per-channel) weights.
    case int8(QuantizedConvolutionParameters)
    /// float activations, int8 weights: the input is quantized per batch row at invoke into `scratch`.
    case hybrid(HybridConvolutionParameters, HybridInputScratch)
    /// int16 activations, int8 weights, int64 bias (16x8).
    case int16x8(QuantizedConvolutionParameters)

    /// Where the three operators' rules differ, as the reference runtime's kernels have them.
    struct Rules {
        /// Whether a hybrid layer quantizes its input rows asymmetrically (a zero point per row).
        var hybridAsymmetric: Bool
        /// ``HybridConvolutionParameters/scalesMultipliedFirst`` of a hybrid layer.
        var hybridScalesMultipliedFirst: Bool
        /// Whether uint8/int8 multipliers round the scale product to float first
        /// (see ``ConvSupport/quantizedParameters(input:filter:output:bias:channels:activation:floatScaleProduct:op:)``).
        var quantizedFloatScaleProduct: Bool
        /// The same for int16x8 layers.
        var int16x8FloatScaleProduct: Bool
        /// Whether an int16x8 layer must have a bias.
        var int16x8BiasRequired: Bool
        /// What the operator calls its second input in messages ("filter", "weights").
        var filterName: String
        /// The hybrid input's rows: `batches` rows of `rowSize` values.
        var hybridRows: (batches: Int, rowSize: Int)
    }

    /// Checks the types, bias and quantization of a node with `channels` output channels and
    /// derives its arithmetic; sets the output type of float and hybrid layers and allocates a
    /// hybrid layer's input scratch (reserved in `node`'s budget first).
    /// - Throws: ``InterpreterError`` for unsupported type pairs and malformed quantization.
    static func derive(input: RuntimeTensor, filter: RuntimeTensor, bias: RuntimeTensor?, output: RuntimeTensor,
                       channels: Int, activation: ConvFusedActivation, rules: Rules, node: NodeContext,
                       op: String) throws -> ConvolutionArithmetic {
        switch (input.type, filter.type) {
        case (.float32, .float32):
            try ConvSupport.checkBias(bias, count: channels, type: .float32, op: op)
            output.type = .float32
            return .float(activation.floatRange)
        case (.float32, .int8):
            try ConvSupport.checkBias(bias, count: channels, type: .float32, op: op)
            let scales = try ConvSupport.filterScales(filter, channels: channels, op: op)
            let range = activation.floatRange
            let parameters = HybridConvolutionParameters(filterScales: scales, activationMin: range.min,
                                                         activationMax: range.max,
                                                         scalesMultipliedFirst: rules.hybridScalesMultipliedFirst)
            let scratch = try HybridInputScratch(batches: rules.hybridRows.batches, rowSize: rules.hybridRows.rowSize,
                                                 asymmetric: rules.hybridAsymmetric, node: node)
            output.type = .float32
            return .hybrid(parameters, scratch)
        case (.uint8, .uint8), (.int8, .int8):
            let parameters = try ConvSupport.quantizedParameters(input: input, filter: filter, output: output, bias: bias,
                                                                 channels: channels, activation: activation,
                                                                 floatScaleProduct: rules.quantizedFloatScaleProduct, op: op)
            return input.type == .uint8 ? .uint8(parameters) : .int8(parameters)
        case (.int16, .int8):
            return .int16x8(try Int16x8Convolution.parameters(input: input, filter: filter, output: output, bias: bias,
                                                              channels: channels, activation: activation,
                                                              floatScaleProduct: rules.int16x8FloatScaleProduct,
                                                              biasRequired: rules.int16x8BiasRequired, op: op))
        default:
            throw InterpreterError.invalidModel("\(op): unsupported input/\(rules.filterName) types \(input.type)/\(filter.type)")
        }
    }

    /// The clamp of a float layer whose own clamp is `own` after it takes the clamp of the RELU
    /// that follows it (`FloatClampFusable`), or nil when the layer cannot take it. A layer
    /// without a fused activation clamps to TFLite's range for none, `±greatestFiniteMagnitude`
    /// (an infinite sum becomes the largest float), so the fused clamp is the intersection of
    /// both ranges: what the two clamps give one after the other (a RELU of an infinite sum
    /// gives the largest float, as unfused). Layers with an activation of their own, and ranges
    /// that do not meet, keep the RELU.
    static func fusedClamp(own: FloatClamp, with clamp: FloatClamp) -> FloatClamp? {
        let unbounded = ConvFusedActivation.none.floatRange
        guard own == unbounded || own == (-.infinity, .infinity) else { return nil }
        let lo = Swift.max(own.min, clamp.min), hi = Swift.min(own.max, clamp.max)
        guard lo <= hi else { return nil }
        return (lo, hi)
    }
}
