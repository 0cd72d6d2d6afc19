import TFLiteKernels
import TFLiteSchema

/// Prepare-time checks and parameters of the int16x8 convolution family (CONV_2D,
/// DEPTHWISE_CONV_2D, FULLY_CONNECTED with int16 activations and int8 weights), as the
/// reference runtime's `Prepare` requires them: input and output zero points 0, weight zero
/// points 0, an int64 bias of one value per output channel (required by CONV_2D and
/// DEPTHWISE_CONV_2D), int16 output. An int32 bias is refused: the reference accepts it for
/// CONV_2D but its results with one are not those of an int32 accumulation (they look like the
/// bias bytes read as int64), so there is nothing sound to match.
enum Int16x8Convolution {
    /// The per-channel parameters: multipliers `inputScale × weightScale_c / outputScale` (in
    /// double precision, or the scale product in single precision when `floatScaleProduct`, as
    /// per-tensor FULLY_CONNECTED does), the fused activation's int16 range.
    static func parameters(input: RuntimeTensor, filter: RuntimeTensor, output: RuntimeTensor, bias: RuntimeTensor?,
                           channels: Int, activation: ConvFusedActivation, floatScaleProduct: Bool,
                           biasRequired: Bool, op: String) throws -> QuantizedConvolutionParameters {
        guard output.type == .int16 else {
            throw InterpreterError.invalidModel("\(op): int16 input needs an int16 output, got \(output.type)")
        }
        let (inScale, inZero) = try ConvSupport.perTensor(input, "input", op: op)
        let (outScale, outZero) = try ConvSupport.perTensor(output, "output", op: op)
        guard inZero == 0, outZero == 0 else {
            throw InterpreterError.unsupportedOperator(
                name: "\(op) on int16 tensors with zero points \(inZero) (input) and \(outZero) (output); 16x8 needs 0")
        }
        guard (filter.quantization?.zeroPoints ?? []).allSatisfy({ $0 == 0 }) else {
            throw InterpreterError.unsupportedOperator(name: "\(op) with int16 input and int8 weights whose zero point is not 0")
        }
        if let bias {
            guard bias.type == .int64 else {
                throw InterpreterError.unsupportedOperator(name: "\(op) on int16 tensors with a \(bias.type) bias (int64 only)")
            }
            try ConvSupport.checkBias(bias, count: channels, type: .int64, op: op)
        } else if biasRequired {
            throw InterpreterError.invalidModel("\(op): int16x8 needs a bias (the reference rejects it without one)")
        }
        let scales = try ConvSupport.filterScales(filter, channels: channels, op: op)
        let multipliers = try scales.map {
            try QuantizedMultiplier(checking: floatScaleProduct ? Double(inScale * $0) / Double(outScale)
                                                                : Double(inScale) * Double($0) / Double(outScale),
                                    "\(op) output multiplier (input scale × weight scale / output scale)")
        }
        let (qmin, qmax) = ConvSupport.quantizedBounds(.int16)
        let range = activation.quantizedRange(scale: outScale, zeroPoint: 0, qmin: qmin, qmax: qmax)
        return QuantizedConvolutionParameters(inputOffset: 0, filterOffset: 0, outputOffset: 0,
                                              outputMultipliers: multipliers,
                                              activationMin: range.min, activationMax: range.max)
    }

    /// The int64 bias operand of the kernels, nil without a bias.
    static func bias(_ bias: RuntimeTensor?, op: String) throws -> UnsafePointer<Int64>? {
        try bias.map { try $0.view(as: Int64.self, op).base }
    }
}
