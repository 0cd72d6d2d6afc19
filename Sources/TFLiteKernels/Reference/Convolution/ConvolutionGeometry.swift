/// How a windowed operator (convolution, pooling) pads its input, as in the TFLite schema.
public enum ConvolutionPadding: Sendable, Equatable {
    /// Output size `ceil(in / stride)`; the input is padded with zeros (or ignored) evenly,
    /// the extra element going to the bottom/right.
    case same
    /// Only windows that fit entirely inside the input: output size
    /// `(in - effectiveFilter + stride) / stride`.
    case valid
}

/// Output size and leading padding of one spatial dimension, computed exactly as TFLite's
/// `ComputeOutSize` / `ComputePaddingWithOffset` do.
public struct ConvolutionAxis: Sendable, Equatable {
    /// Output size along the axis (may be 0 or negative for impossible VALID windows).
    public var outputSize: Int
    /// Padding before the first input element (top or left).
    public var padBefore: Int

    /// The size and padding of a forward windowed operator.
    /// - Parameters:
    ///   - inputSize: input extent.
    ///   - filterSize: filter extent (before dilation).
    ///   - stride: step between windows (≥ 1).
    ///   - dilation: spacing between filter taps (≥ 1).
    ///   - padding: SAME or VALID.
    public init(inputSize: Int, filterSize: Int, stride: Int, dilation: Int, padding: ConvolutionPadding) {
        let effectiveFilter = (filterSize - 1) * dilation + 1
        let out: Int
        switch padding {
        case .same: out = (inputSize + stride - 1) / stride
        case .valid: out = (inputSize + stride - effectiveFilter) / stride
        }
        self.outputSize = out
        self.padBefore = ConvolutionAxis.padding(inputSize: inputSize, filterSize: filterSize, stride: stride,
                                                 dilation: dilation, outputSize: out)
    }

    /// The size and padding of a forward windowed operator over an input that is first extended
    /// by `extendBefore` elements before it and `extendAfter` after it (a PAD folded into the
    /// convolution that reads it): the windows of `padding` over that extended extent, their
    /// leading padding counted from the input's first element (`padding`'s own over the
    /// extended extent, plus `extendBefore`). Extensions are non-negative.
    public init(inputSize: Int, filterSize: Int, stride: Int, dilation: Int, padding: ConvolutionPadding,
                extendBefore: Int, extendAfter: Int) {
        self.init(inputSize: extendBefore + inputSize + extendAfter, filterSize: filterSize, stride: stride,
                  dilation: dilation, padding: padding)
        padBefore += extendBefore
    }

    /// TFLite's `ComputePadding`: the leading padding that makes `outputSize` windows cover the input.
    public static func padding(inputSize: Int, filterSize: Int, stride: Int, dilation: Int, outputSize: Int) -> Int {
        let effectiveFilter = (filterSize - 1) * dilation + 1
        let total = max(0, (outputSize - 1) * stride + effectiveFilter - inputSize)
        return total / 2
    }
}

/// The shapes and window parameters of a 2-D windowed operator over NHWC tensors
/// (CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV, pooling).
///
/// Filters are laid out `[outputDepth, filterHeight, filterWidth, filterInputDepth]` for
/// CONV_2D and TRANSPOSE_CONV, and `[1, filterHeight, filterWidth, outputDepth]` for
/// DEPTHWISE_CONV_2D.
public struct ConvolutionGeometry: Sendable, Equatable {
    /// Batch size N.
    public var batches: Int
    /// Input height.
    public var inputHeight: Int
    /// Input width.
    public var inputWidth: Int
    /// Input channels.
    public var inputDepth: Int
    /// Filter (window) height.
    public var filterHeight: Int
    /// Filter (window) width.
    public var filterWidth: Int
    /// Input channels one filter sees (CONV_2D groups: `inputDepth / filterInputDepth`).
    public var filterInputDepth: Int
    /// Output height.
    public var outputHeight: Int
    /// Output width.
    public var outputWidth: Int
    /// Output channels.
    public var outputDepth: Int
    /// Vertical stride.
    public var strideHeight: Int
    /// Horizontal stride.
    public var strideWidth: Int
    /// Vertical dilation.
    public var dilationHeight: Int
    /// Horizontal dilation.
    public var dilationWidth: Int
    /// Padding rows above the input.
    public var padTop: Int
    /// Padding columns left of the input.
    public var padLeft: Int

    /// Creates a geometry from its parts.
    public init(batches: Int, inputHeight: Int, inputWidth: Int, inputDepth: Int,
                filterHeight: Int, filterWidth: Int, filterInputDepth: Int,
                outputHeight: Int, outputWidth: Int, outputDepth: Int,
                strideHeight: Int = 1, strideWidth: Int = 1, dilationHeight: Int = 1, dilationWidth: Int = 1,
                padTop: Int = 0, padLeft: Int = 0) {
        self.batches = batches; self.inputHeight = inputHeight; self.inputWidth = inputWidth
        self.inputDepth = inputDepth; self.filterHeight = filterHeight; self.filterWidth = filterWidth
        self.filterInputDepth = filterInputDepth; self.outputHeight = outputHeight
        self.outputWidth = outputWidth; self.outputDepth = outputDepth; self.strideHeight = strideHeight
        self.strideWidth = strideWidth; self.dilationHeight = dilationHeight
        self.dilationWidth = dilationWidth; self.padTop = padTop; self.padLeft = padLeft
    }

    /// Number of input elements.
    public var inputCount: Int { batches * inputHeight * inputWidth * inputDepth }
    /// Number of output elements.
    public var outputCount: Int { batches * outputHeight * outputWidth * outputDepth }
    /// Filter elements of a CONV_2D / TRANSPOSE_CONV filter.
    public var filterCount: Int { outputDepth * filterHeight * filterWidth * filterInputDepth }
    /// Channel groups of a grouped CONV_2D (1 for an ordinary convolution).
    public var groups: Int { filterInputDepth > 0 ? inputDepth / filterInputDepth : 0 }
    /// Output channels per input channel of a DEPTHWISE_CONV_2D.
    public var depthMultiplier: Int { inputDepth > 0 ? outputDepth / inputDepth : 0 }
}

/// The shapes of a FULLY_CONNECTED operator: `output[b, o] = Σ_i input[b, i] · weights[o, i] + bias[o]`.
public struct FullyConnectedGeometry: Sendable, Equatable {
    /// Rows of the flattened input.
    public var batches: Int
    /// Length of one input row (the weights' second dimension).
    public var inputSize: Int
    /// Output units (the weights' first dimension).
    public var outputSize: Int
    /// Creates a geometry.
    public init(batches: Int, inputSize: Int, outputSize: Int) {
        self.batches = batches; self.inputSize = inputSize; self.outputSize = outputSize
    }
}

/// Requantization parameters of a quantized convolution-family kernel (TFLite's `ConvParams`):
/// `out = clamp(outputOffset + M_c(Σ (w + filterOffset)(x + inputOffset) + bias_c))`.
public struct QuantizedConvolutionParameters: Sendable, Equatable {
    /// Negated input zero point.
    public var inputOffset: Int32
    /// Negated filter zero point (0 for symmetric int8 weights).
    public var filterOffset: Int32
    /// Output zero point.
    public var outputOffset: Int32
    /// One multiplier per output channel (a per-tensor multiplier is repeated).
    public var outputMultipliers: [QuantizedMultiplier]
    /// Lower clamp in the quantized domain (fused activation included).
    public var activationMin: Int32
    /// Upper clamp in the quantized domain.
    public var activationMax: Int32

    /// Creates parameters.
    public init(inputOffset: Int32, filterOffset: Int32, outputOffset: Int32,
                outputMultipliers: [QuantizedMultiplier], activationMin: Int32, activationMax: Int32) {
        self.inputOffset = inputOffset; self.filterOffset = filterOffset; self.outputOffset = outputOffset
        self.outputMultipliers = outputMultipliers
        self.activationMin = activationMin; self.activationMax = activationMax
    }

    /// Requantizes one accumulator (bias already added) for output channel `channel`.
    @inline(__always)
    public func requantize(_ accumulator: Int32, channel: Int) -> Int32 {
        let m = outputMultipliers[channel]
        var acc = multiplyByQuantizedMultiplier(accumulator, m.multiplier, m.shift)
        acc = acc &+ outputOffset
        return min(max(acc, activationMin), activationMax)
    }
}

/// Scales of a hybrid (dynamic-range) kernel: float activations quantized on the fly to int8
/// per batch, int8 weights with one scale per output channel.
/// `out = clamp(Σ w·(xq − inputOffset_b) · filterScale_c · inputScale_b + bias_c)`.
public struct HybridConvolutionParameters: Sendable, Equatable {
    /// Weight scale per output channel (a per-tensor scale is repeated).
    public var filterScales: [Float]
    /// Lower clamp (fused activation).
    public var activationMin: Float
    /// Upper clamp.
    public var activationMax: Float
    /// Float rounding order of the rescale, as the reference path it mirrors:
    /// `acc · (inputScale · filterScale)` when true (per-tensor CONV_2D `HybridConv`,
    /// FULLY_CONNECTED), `(acc · filterScale) · inputScale` when false (`HybridConvPerChannel`).
    public var scalesMultipliedFirst: Bool
    /// Creates parameters.
    public init(filterScales: [Float], activationMin: Float, activationMax: Float, scalesMultipliedFirst: Bool = false) {
        self.filterScales = filterScales; self.activationMin = activationMin; self.activationMax = activationMax
        self.scalesMultipliedFirst = scalesMultipliedFirst
    }

    /// `acc` rescaled to float in the reference's rounding order.
    @inline(__always)
    public func rescale(_ acc: Int32, channel: Int, inputScale: Float) -> Float {
        scalesMultipliedFirst ? Float(acc) * (inputScale * filterScales[channel])
                              : Float(acc) * filterScales[channel] * inputScale
    }
}
