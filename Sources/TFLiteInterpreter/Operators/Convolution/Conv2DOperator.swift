import TFLiteKernels
import TFLiteSchema

/// How a convolution-family operator computes, decided at prepare from the tensor types.
enum ConvComputeMode: Equatable {
    /// float32 activations and weights.
    case float
    /// uint8 activations and weights, per-tensor quantization.
    case uint8
    /// int8 activations, int8 (per-channel) weights.
    case int8
    /// float activations, int8 weights; inputs quantized per batch on the fly.
    case hybrid(asymmetric: Bool)
}

/// CONV_2D: inputs (input NHWC, filter OHWI, bias?), `Conv2DOptions`.
final class Conv2DOperator: OperatorKernel {
    private let op = "CONV_2D"
    private var mode = ConvComputeMode.float
    private var geometry = ConvolutionGeometry(batches: 0, inputHeight: 0, inputWidth: 0, inputDepth: 0,
                                               filterHeight: 0, filterWidth: 0, filterInputDepth: 0,
                                               outputHeight: 0, outputWidth: 0, outputDepth: 0)
    private var floatRange: (min: Float, max: Float) = (0, 0)
    private var quantized: QuantizedConvolutionParameters?
    /// `quantized` laid out for the optimized kernels' vector requantization.
    private var requantizer: ConvRequantizer?
    private var hybrid: HybridConvolutionParameters?
    private var scratch = HybridScratch()
    /// Weights packed for the optimized kernels (nil: the reference kernel runs).
    private var packedFloat: AlignedArray<Float>?
    /// Integer weights and activation buffer of the quantized GEMM (uint8, int8, hybrid).
    private var packedInteger: QuantizedGEMMOperands?
    /// Zeros read by the float kernel's taps outside the input.
    private var zeroRun: [Float] = []
    /// int16 activations with int8 weights (16x8): the reference kernel's parameters.
    private var int16x8: QuantizedConvolutionParameters?

    func prepare(_ node: NodeContext) throws {
        let input = try node.input(0), filter = try node.input(1)
        let bias = node.inputs.count > 2 ? node.inputs[2] : nil
        let output = try node.output(0)
        try ConvSupport.requireRank(input, 4, "input", op: op)
        try ConvSupport.requireRank(filter, 4, "filter", op: op)

        let options = try node.options(Conv2DOptions.self)
        let activation = ConvFusedActivation(options.fusedActivationFunction)
        int16x8 = nil

        let (n, h, w, cin) = (input.shape[0], input.shape[1], input.shape[2], input.shape[3])
        let (cout, fh, fw, fcin) = (filter.shape[0], filter.shape[1], filter.shape[2], filter.shape[3])
        guard fcin > 0, cin % fcin == 0, cout > 0, cout % (cin / fcin) == 0 else {
            throw InterpreterError.invalidShape("\(op): input depth \(cin) does not match filter \(filter.shape)")
        }
        geometry = try ConvSupport.windowGeometry(input: input, filterHeight: fh, filterWidth: fw,
                                                  filterInputDepth: fcin, outputDepth: cout,
                                                  window: ConvWindowOptions(options), op: op)

        switch (input.type, filter.type) {
        case (.float32, .float32):
            mode = .float
            try ConvSupport.checkBias(bias, count: cout, type: .float32, op: op)
            floatRange = activation.floatRange
            output.type = .float32
        case (.float32, .int8):
            try ConvSupport.checkBias(bias, count: cout, type: .float32, op: op)
            let scales = try ConvSupport.filterScales(filter, channels: cout, op: op)
            let rawScales = filter.quantization?.scales ?? []
            let perChannel = rawScales.count > 1 && rawScales.contains { $0 != rawScales[0] }
            mode = .hybrid(asymmetric: perChannel)
            let range = activation.floatRange
            hybrid = HybridConvolutionParameters(filterScales: scales, activationMin: range.min, activationMax: range.max,
                                                 scalesMultipliedFirst: !perChannel)
            try scratch.resize(batches: n, rowSize: h * w * cin, node: node)
            output.type = .float32
        case (.uint8, .uint8), (.int8, .int8):
            mode = input.type == .uint8 ? .uint8 : .int8
            quantized = try ConvSupport.quantizedParameters(input: input, filter: filter, output: output, bias: bias,
                                                            channels: cout, activation: activation,
                                                            floatScaleProduct: input.type == .uint8, op: op)
            requantizer = ConvRequantizer(quantized!)
        case (.int16, .int8):
            int16x8 = try Int16x8Convolution.parameters(input: input, filter: filter, output: output, bias: bias,
                                                        channels: cout, activation: activation,
                                                        floatScaleProduct: false, biasRequired: true, op: op)
            output.shape = [n, geometry.outputHeight, geometry.outputWidth, cout]
            packedFloat = nil; packedInteger = nil
            return
        default:
            throw InterpreterError.invalidModel("\(op): unsupported input/filter types \(input.type)/\(filter.type)")
        }
        output.shape = [n, geometry.outputHeight, geometry.outputWidth, cout]
        try preparePacking(input: input, filter: filter, node: node)
    }

    /// Packs constant weights for the optimized kernels (ungrouped convolutions only).
    /// The packed weights and GEMM operand buffers are reserved in `node`'s budget before they are allocated.
    private func preparePacking(input: RuntimeTensor, filter: RuntimeTensor, node: NodeContext) throws {
        packedFloat = nil; packedInteger = nil
        let g = geometry
        guard filter.isConstant, let raw = filter.data, g.groups == 1, g.outputCount > 0, g.inputDepth > 0 else { return }
        let depth = g.filterHeight * g.filterWidth * g.filterInputDepth
        switch mode {
        case .float:
            try node.reserveScratch(ConvFilterPacking.packedFloatByteCount(outputDepth: g.outputDepth, depth: depth),
                                    "the packed filter")
            packedFloat = try AlignedArray(ConvFilterPacking.packFloat(raw.assumingMemoryBound(to: Float.self),
                                                                       outputDepth: g.outputDepth, depth: depth))
        case .uint8, .int8:
            let (filterOffset, inputOffset) = (quantized!.filterOffset, quantized!.inputOffset)
            try node.reserveScratch(QuantizedGEMMOperands.byteCount(mode: mode, geometry: g, filterOffset: filterOffset),
                                    "the integer GEMM's packed filter and activation buffer")
            packedInteger = try QuantizedGEMMOperands(mode: mode, geometry: g, filter: raw, filterOffset: filterOffset,
                                                  inputOffset: inputOffset)
        case .hybrid:
            try node.reserveScratch(QuantizedGEMMOperands.byteCount(mode: mode, geometry: g, filterOffset: 0),
                                    "the integer GEMM's packed filter and activation buffer")
            packedInteger = try QuantizedGEMMOperands(mode: mode, geometry: g, filter: raw, filterOffset: 0, inputOffset: 0)
        }
        zeroRun = Array(repeating: 0, count: g.inputDepth)
    }

    func invoke(_ node: NodeContext) throws {
        let input = try node.input(0), filter = try node.input(1)
        let bias = node.inputs.count > 2 ? node.inputs[2] : nil
        let output = try node.output(0)
        let g = geometry
        guard g.outputCount > 0 else { return }
        let x = try ConvSupport.data(input, op: op), f = try ConvSupport.data(filter, op: op)
        let y = try ConvSupport.data(output, op: op)
        if let p = int16x8 {
            Conv2DReference.int16x8(g, p, input: x.assumingMemoryBound(to: Int16.self), filter: f.assumingMemoryBound(to: Int8.self),
                                    bias: try Int16x8Convolution.bias(bias, op: op), output: y.assumingMemoryBound(to: Int16.self))
            return
        }
        let b = try bias.map { try ConvSupport.data($0, op: op) }
        if packedFloat != nil || packedInteger != nil {
            invokeOptimized(node, x, b, y)
            return
        }
        switch mode {
        case .float:
            Conv2DReference.float(g, activationMin: floatRange.min, activationMax: floatRange.max,
                                  input: x.assumingMemoryBound(to: Float.self), filter: f.assumingMemoryBound(to: Float.self),
                                  bias: b.map { UnsafePointer($0.assumingMemoryBound(to: Float.self)) },
                                  output: y.assumingMemoryBound(to: Float.self))
        case .uint8:
            Conv2DReference.uint8(g, quantized!, input: x.assumingMemoryBound(to: UInt8.self),
                                  filter: f.assumingMemoryBound(to: UInt8.self),
                                  bias: b.map { UnsafePointer($0.assumingMemoryBound(to: Int32.self)) },
                                  output: y.assumingMemoryBound(to: UInt8.self))
        case .int8:
            Conv2DReference.int8(g, quantized!, input: x.assumingMemoryBound(to: Int8.self),
                                 filter: f.assumingMemoryBound(to: Int8.self),
                                 bias: b.map { UnsafePointer($0.assumingMemoryBound(to: Int32.self)) },
                                 output: y.assumingMemoryBound(to: Int8.self))
        case .hybrid(let asymmetric):
            let p = hybrid!
            let rowSize = g.inputHeight * g.inputWidth * g.inputDepth
            scratch.quantize(x.assumingMemoryBound(to: Float.self), batches: g.batches, rowSize: rowSize,
                             asymmetric: asymmetric) { q, scales, offsets in
                Conv2DReference.hybrid(g, p, quantizedInput: q, inputScales: scales, inputOffsets: offsets,
                                       filter: f.assumingMemoryBound(to: Int8.self),
                                       bias: b.map { UnsafePointer($0.assumingMemoryBound(to: Float.self)) },
                                       output: y.assumingMemoryBound(to: Float.self))
            }
        }
    }

    /// Runs the packed-weight kernels, split over pixel tiles across the thread pool.
    private func invokeOptimized(_ node: NodeContext, _ x: UnsafeMutableRawPointer, _ b: UnsafeMutableRawPointer?,
                                 _ y: UnsafeMutableRawPointer) {
        PackedConvolution.invoke(geometry, mode: mode, floatRange: floatRange, requantizer: requantizer, hybrid: hybrid,
                                 scratch: &scratch, packedFloat: packedFloat, integer: packedInteger,
                                 zeroRun: zeroRun, threads: node.threads, fusesMultiplyAdd: node.fusesMultiplyAdd,
                                 input: x, bias: b, output: y)
    }
}

extension Conv2DOperator: FloatClampFusable {
    /// Takes a following RELU's clamp into the epilogue (see `ConvSupport.fuseFloatClamp`).
    func fuseFloatClamp(min: Float, max: Float) -> Bool {
        ConvSupport.fuseFloatClamp(mode: mode, range: &floatRange, min: min, max: max)
    }
}
