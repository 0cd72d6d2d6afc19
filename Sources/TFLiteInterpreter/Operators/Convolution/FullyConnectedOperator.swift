import TFLiteKernels
import TFLiteSchema

/// FULLY_CONNECTED: inputs (input, weights `[units, inputSize]`, bias?), `FullyConnectedOptions`
/// (fused activation, weights format DEFAULT only, keep_num_dims, asymmetric_quantize_inputs).
/// The optimized kernels run it as a 1×1 convolution over its `batches` rows.
final class FullyConnectedOperator: PlannedConvolutionOperator {
    let op = "FULLY_CONNECTED"
    var plan = ConvolutionPlan.unprepared

    func prepareLayer(_ node: NodeContext) throws {
        plan = .unprepared
        let layer = try ConvolutionLayer(node, op: op)
        let (input, weights) = (layer.input, layer.filter)
        try ConvSupport.requireRank(weights, 2, "weights", op: op)
        guard !input.shape.isEmpty, input.shape.allSatisfy({ $0 >= 0 }) else {
            throw InterpreterError.invalidShape("\(op): input shape \(input.shape) is not usable")
        }
        let options = try node.options(FullyConnectedOptions.self)
        let format = options.weightsFormat
        guard format == .default else {
            throw InterpreterError.invalidModel("\(op): weights format \(format.rawValue) (shuffled) is not supported")
        }
        let (units, inputSize) = (weights.shape[0], weights.shape[1])
        let total = try ConvSupport.product(input.shape, op: op)
        guard inputSize > 0, total % inputSize == 0 else {
            throw InterpreterError.invalidShape("\(op): input \(input.shape) cannot be split into rows of \(inputSize)")
        }
        let batches = total / inputSize
        let g = FullyConnectedGeometry(batches: batches, inputSize: inputSize, outputSize: units)
        var outputShape = [batches, units]
        if options.keepNumDims {
            guard input.shape.last == inputSize else {
                throw InterpreterError.invalidShape("\(op): keep_num_dims needs the input's last dimension \(input.shape) to be \(inputSize)")
            }
            outputShape = Array(input.shape.dropLast()) + [units]
        }
        // Per-tensor weights round the scale product to float first (`GetQuantizedConvolutionMultipler`).
        let perTensor = (weights.quantization?.scales.count ?? 1) <= 1
        let arithmetic = try layer.arithmetic(channels: units, activation: options.fusedActivationFunction, rules: .init(
            hybridAsymmetric: options.asymmetricQuantizeInputs, hybridScalesMultipliedFirst: true,
            quantizedFloatScaleProduct: perTensor, int16x8FloatScaleProduct: perTensor,
            int16x8BiasRequired: false, filterName: "weights", hybridRows: (batches, inputSize)), node: node)
        layer.output.shape = outputShape
        let asConvolution = ConvolutionGeometry(batches: batches, inputHeight: 1, inputWidth: 1, inputDepth: inputSize,
                                                filterHeight: 1, filterWidth: 1, filterInputDepth: inputSize,
                                                outputHeight: 1, outputWidth: 1, outputDepth: units)
        plan = try ConvolutionLayer.plan(outputCount: batches * units, arithmetic: arithmetic, kernels: .fullyConnected(g)) {
            try PackedGEMMPlan.make(arithmetic, geometry: asConvolution, filter: weights, node: node, what: "weights")
                .map { .packedGEMM($0) }
        }
    }
}

extension FullyConnectedOperator: FloatClampFusable, OutputByteMapFusable {
    var roles: KernelRoles { KernelRoles(floatClampFusable: self, outputByteMapFusable: self) }
}
