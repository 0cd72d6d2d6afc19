import TFLiteKernels
import TFLiteSchema

/// FULLY_CONNECTED: inputs (input, weights `[units, inputSize]`, bias?), `FullyConnectedOptions`
/// (fused activation, weights format DEFAULT only, keep_num_dims, asymmetric_quantize_inputs).
final class FullyConnectedOperator: OperatorKernel {
    private let op = "FULLY_CONNECTED"
    private var mode = ConvComputeMode.float
    private var geometry = FullyConnectedGeometry(batches: 0, inputSize: 0, outputSize: 0)
    private var floatRange: (min: Float, max: Float) = (0, 0)
    private var quantized: QuantizedConvolutionParameters?
    /// `quantized` laid out for the optimized kernels' vector requantization.
    private var requantizer: ConvRequantizer?
    private var hybrid: HybridConvolutionParameters?
    private var scratch = HybridScratch()
    /// Weights packed for the optimized kernels, used as a 1×1 convolution over `batches`
    /// pixels (nil: the reference kernel runs).
    private var packedFloat: AlignedArray<Float>?
    /// Integer weights and activation buffer of the quantized GEMM (uint8, int8, hybrid).
    private var packedInteger: QuantizedGEMMOperands?
    private var zeroRun: [Float] = []
    /// int16 activations with int8 weights (16x8): the reference kernel's parameters.
    private var int16x8: QuantizedConvolutionParameters?
    private var asConvolution: ConvolutionGeometry {
        ConvolutionGeometry(batches: geometry.batches, inputHeight: 1, inputWidth: 1, inputDepth: geometry.inputSize,
                            filterHeight: 1, filterWidth: 1, filterInputDepth: geometry.inputSize,
                            outputHeight: 1, outputWidth: 1, outputDepth: geometry.outputSize)
    }

    func prepare(_ node: NodeContext) throws {
        let input = try node.input(0), weights = try node.input(1)
        let bias = node.inputs.count > 2 ? node.inputs[2] : nil
        let output = try node.output(0)
        try ConvSupport.requireRank(weights, 2, "weights", op: op)
        guard !input.shape.isEmpty, input.shape.allSatisfy({ $0 >= 0 }) else {
            throw InterpreterError.invalidShape("\(op): input shape \(input.shape) is not usable")
        }
        let options = try node.options(FullyConnectedOptions.self)
        let activation = ConvFusedActivation(options.fusedActivationFunction)
        let format = options.weightsFormat
        guard format == .default else {
            throw InterpreterError.invalidModel("\(op): weights format \(format.rawValue) (shuffled) is not supported")
        }
        let keepNumDims = options.keepNumDims
        int16x8 = nil
        let asymmetric = options.asymmetricQuantizeInputs

        let (units, inputSize) = (weights.shape[0], weights.shape[1])
        let total = try ConvSupport.product(input.shape, op: op)
        guard inputSize > 0, total % inputSize == 0 else {
            throw InterpreterError.invalidShape("\(op): input \(input.shape) cannot be split into rows of \(inputSize)")
        }
        let batches = total / inputSize
        geometry = FullyConnectedGeometry(batches: batches, inputSize: inputSize, outputSize: units)
        var outShape = [batches, units]
        if keepNumDims {
            guard input.shape.last == inputSize else {
                throw InterpreterError.invalidShape("\(op): keep_num_dims needs the input's last dimension \(input.shape) to be \(inputSize)")
            }
            outShape = Array(input.shape.dropLast()) + [units]
        }

        switch (input.type, weights.type) {
        case (.float32, .float32):
            mode = .float
            try ConvSupport.checkBias(bias, count: units, type: .float32, op: op)
            floatRange = activation.floatRange
            output.type = .float32
        case (.float32, .int8):
            try ConvSupport.checkBias(bias, count: units, type: .float32, op: op)
            let scales = try ConvSupport.filterScales(weights, channels: units, op: op)
            mode = .hybrid(asymmetric: asymmetric)
            let range = activation.floatRange
            hybrid = HybridConvolutionParameters(filterScales: scales, activationMin: range.min, activationMax: range.max,
                                                 scalesMultipliedFirst: true)
            try scratch.resize(batches: batches, rowSize: inputSize, node: node)
            output.type = .float32
        case (.uint8, .uint8), (.int8, .int8):
            mode = input.type == .uint8 ? .uint8 : .int8
            quantized = try ConvSupport.quantizedParameters(input: input, filter: weights, output: output, bias: bias,
                                                            channels: units, activation: activation,
                                                            floatScaleProduct: (weights.quantization?.scales.count ?? 1) <= 1, op: op)
            requantizer = ConvRequantizer(quantized!)
        case (.int16, .int8):
            int16x8 = try Int16x8Convolution.parameters(input: input, filter: weights, output: output, bias: bias,
                                                        channels: units, activation: activation,
                                                        floatScaleProduct: (weights.quantization?.scales.count ?? 1) <= 1,
                                                        biasRequired: false, op: op)
            output.shape = outShape
            packedFloat = nil; packedInteger = nil
            return
        default:
            throw InterpreterError.invalidModel("\(op): unsupported input/weights types \(input.type)/\(weights.type)")
        }
        output.shape = outShape
        packedFloat = nil; packedInteger = nil
        if weights.isConstant, let raw = weights.data, batches > 0, units > 0 {
            // Packed weights and GEMM operand buffers are reserved in the node's budget before they are allocated.
            switch mode {
            case .float:
                try node.reserveScratch(ConvFilterPacking.packedFloatByteCount(outputDepth: units, depth: inputSize),
                                        "the packed weights")
                packedFloat = try AlignedArray(ConvFilterPacking.packFloat(raw.assumingMemoryBound(to: Float.self),
                                                                           outputDepth: units, depth: inputSize))
            case .uint8, .int8:
                let filterOffset = quantized!.filterOffset
                try node.reserveScratch(QuantizedGEMMOperands.byteCount(mode: mode, geometry: asConvolution, filterOffset: filterOffset),
                                        "the integer GEMM's packed weights and activation buffer")
                packedInteger = try QuantizedGEMMOperands(mode: mode, geometry: asConvolution, filter: raw,
                                                      filterOffset: filterOffset, inputOffset: quantized!.inputOffset)
            case .hybrid:
                try node.reserveScratch(QuantizedGEMMOperands.byteCount(mode: mode, geometry: asConvolution, filterOffset: 0),
                                        "the integer GEMM's packed weights and activation buffer")
                packedInteger = try QuantizedGEMMOperands(mode: mode, geometry: asConvolution, filter: raw, filterOffset: 0, inputOffset: 0)
            }
            zeroRun = Array(repeating: 0, count: inputSize)
        }
    }

    func invoke(_ node: NodeContext) throws {
        let input = try node.input(0), weights = try node.input(1)
        let bias = node.inputs.count > 2 ? node.inputs[2] : nil
        let output = try node.output(0)
        let g = geometry
        guard g.batches > 0, g.outputSize > 0 else { return }
        let x = try ConvSupport.data(input, op: op), w = try ConvSupport.data(weights, op: op)
        let y = try ConvSupport.data(output, op: op)
        if let p = int16x8 {
            FullyConnectedReference.int16x8(g, p, input: x.assumingMemoryBound(to: Int16.self),
                                            weights: w.assumingMemoryBound(to: Int8.self),
                                            bias: try Int16x8Convolution.bias(bias, op: op),
                                            output: y.assumingMemoryBound(to: Int16.self))
            return
        }
        let b = try bias.map { try ConvSupport.data($0, op: op) }
        if packedFloat != nil || packedInteger != nil {
            invokeOptimized(node, x, b, y)
            return
        }
        switch mode {
        case .float:
            FullyConnectedReference.float(g, activationMin: floatRange.min, activationMax: floatRange.max,
                                          input: x.assumingMemoryBound(to: Float.self),
                                          weights: w.assumingMemoryBound(to: Float.self),
                                          bias: b.map { UnsafePointer($0.assumingMemoryBound(to: Float.self)) },
                                          output: y.assumingMemoryBound(to: Float.self))
        case .uint8:
            FullyConnectedReference.uint8(g, quantized!, input: x.assumingMemoryBound(to: UInt8.self),
                                          weights: w.assumingMemoryBound(to: UInt8.self),
                                          bias: b.map { UnsafePointer($0.assumingMemoryBound(to: Int32.self)) },
                                          output: y.assumingMemoryBound(to: UInt8.self))
        case .int8:
            FullyConnectedReference.int8(g, quantized!, input: x.assumingMemoryBound(to: Int8.self),
                                         weights: w.assumingMemoryBound(to: Int8.self),
                                         bias: b.map { UnsafePointer($0.assumingMemoryBound(to: Int32.self)) },
                                         output: y.assumingMemoryBound(to: Int8.self))
        case .hybrid(let asymmetric):
            let p = hybrid!
            scratch.quantize(x.assumingMemoryBound(to: Float.self), batches: g.batches, rowSize: g.inputSize,
                             asymmetric: asymmetric) { q, scales, offsets in
                FullyConnectedReference.hybrid(g, p, quantizedInput: q, inputScales: scales, inputOffsets: offsets,
                                               weights: w.assumingMemoryBound(to: Int8.self),
                                               bias: b.map { UnsafePointer($0.assumingMemoryBound(to: Float.self)) },
                                               output: y.assumingMemoryBound(to: Float.self))
            }
        }
    }

    /// Runs the packed-weight kernels as a 1×1 convolution over the batch rows.
    private func invokeOptimized(_ node: NodeContext, _ x: UnsafeMutableRawPointer, _ b: UnsafeMutableRawPointer?,
                                 _ y: UnsafeMutableRawPointer) {
        PackedConvolution.invoke(asConvolution, mode: mode, floatRange: floatRange, requantizer: requantizer, hybrid: hybrid,
                                 scratch: &scratch, packedFloat: packedFloat, integer: packedInteger,
                                 zeroRun: zeroRun, threads: node.threads, fusesMultiplyAdd: node.fusesMultiplyAdd,
                                 input: x, bias: b, output: y)
    }
}

extension FullyConnectedOperator: FloatClampFusable {
    /// Takes a following RELU's clamp into the epilogue (see `ConvSupport.fuseFloatClamp`).
    func fuseFloatClamp(min: Float, max: Float) -> Bool {
        ConvSupport.fuseFloatClamp(mode: mode, range: &floatRange, min: min, max: max)
    }
}
