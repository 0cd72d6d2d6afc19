import TFLiteKernels
import TFLiteSchema

/// DEPTHWISE_CONV_2D: inputs (input NHWC, filter `[1, fh, fw, cin·multiplier]`, bias?),
/// `DepthwiseConv2DOptions`. The depth multiplier is taken from the shapes (the option is redundant).
final class DepthwiseConv2DOperator: OperatorKernel {
    private let op = "DEPTHWISE_CONV_2D"
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
    /// `w + filterOffset` (exact in Float) for the optimized quantized kernel (nil: reference).
    private var packedInteger: [Float]?
    /// The geometry over `paddedInput` (quantized layers with the optimized kernel; nil otherwise).
    private var paddedGeometry: ConvolutionGeometry?
    /// The quantized input with its zero padding, as exact floats `x + inputOffset`, filled per
    /// invoke, so the optimized quantized kernel sees interior pixels only.
    private var paddedInput: [Float] = []
    /// int16 activations with int8 weights (16x8): the reference kernel's parameters.
    private var int16x8: QuantizedConvolutionParameters?

    func prepare(_ node: NodeContext) throws {
        let input = try node.input(0), filter = try node.input(1)
        let bias = node.inputs.count > 2 ? node.inputs[2] : nil
        let output = try node.output(0)
        try ConvSupport.requireRank(input, 4, "input", op: op)
        try ConvSupport.requireRank(filter, 4, "filter", op: op)

        let activation = try ConvFusedActivation(code: node.options?.int8(4) ?? 0, op: op)
        int16x8 = nil

        let (n, h, w, cin) = (input.shape[0], input.shape[1], input.shape[2], input.shape[3])
        let (fh, fw, cout) = (filter.shape[1], filter.shape[2], filter.shape[3])
        guard filter.shape[0] == 1, cin > 0, cout % cin == 0, cout > 0 else {
            throw InterpreterError.invalidShape("\(op): filter \(filter.shape) does not fit input depth \(cin)")
        }
        geometry = try ConvSupport.windowGeometry(input: input, filterHeight: fh, filterWidth: fw,
                                                  filterInputDepth: 1, outputDepth: cout,
                                                  options: node.options, dilationFields: (5, 6), op: op)

        switch (input.type, filter.type) {
        case (.float32, .float32):
            mode = .float
            try ConvSupport.checkBias(bias, count: cout, type: .float32, op: op)
            floatRange = activation.floatRange
            output.type = .float32
        case (.float32, .int8):
            try ConvSupport.checkBias(bias, count: cout, type: .float32, op: op)
            let scales = try ConvSupport.filterScales(filter, channels: cout, op: op)
            mode = .hybrid(asymmetric: true)
            let range = activation.floatRange
            hybrid = HybridConvolutionParameters(filterScales: scales, activationMin: range.min, activationMax: range.max,
                                                 scalesMultipliedFirst: true)
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
            packedInteger = nil
            paddedGeometry = nil
            return
        default:
            throw InterpreterError.invalidModel("\(op): unsupported input/filter types \(input.type)/\(filter.type)")
        }
        output.shape = [n, geometry.outputHeight, geometry.outputWidth, cout]
        packedInteger = nil
        paddedGeometry = nil
        if (mode == .uint8 || mode == .int8), DepthwiseConv2DOptimized.supports(geometry),
           filter.isConstant, let raw = filter.data {
            let offset = quantized!.filterOffset
            try node.reserveScratch(SharedMemoryBudget.bytes(filter.elementCount, MemoryLayout<Float>.size), "the packed filter")
            packedInteger = mode == .uint8
                ? ConvFilterPacking.packDepthwiseInteger(raw.assumingMemoryBound(to: UInt8.self), offset: offset, count: filter.elementCount)
                : ConvFilterPacking.packDepthwiseInteger(raw.assumingMemoryBound(to: Int8.self), offset: offset, count: filter.elementCount)
            paddedGeometry = DepthwiseConv2DOptimized.paddedGeometry(geometry)
        }
        let paddedCount = paddedGeometry?.inputCount ?? 0
        try node.reserveScratch(SharedMemoryBudget.bytes(paddedCount, MemoryLayout<Float>.size),
                                "the padded input (\(paddedGeometry.map { "\($0.inputHeight)x\($0.inputWidth)x\($0.inputDepth)" } ?? "none"))")
        if paddedInput.count != paddedCount { paddedInput = Array(repeating: 0, count: paddedCount) }
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
            DepthwiseConv2DReference.int16x8(g, p, input: x.assumingMemoryBound(to: Int16.self),
                                             filter: f.assumingMemoryBound(to: Int8.self),
                                             bias: try Int16x8Convolution.bias(bias, op: op),
                                             output: y.assumingMemoryBound(to: Int16.self))
            return
        }
        let b = try bias.map { try ConvSupport.data($0, op: op) }
        if DepthwiseConv2DOptimized.supports(g), mode == .float || packedInteger != nil {
            invokeOptimized(node, x, f, b, y)
            return
        }
        switch mode {
        case .float:
            DepthwiseConv2DReference.float(g, activationMin: floatRange.min, activationMax: floatRange.max,
                                           input: x.assumingMemoryBound(to: Float.self),
                                           filter: f.assumingMemoryBound(to: Float.self),
                                           bias: b.map { UnsafePointer($0.assumingMemoryBound(to: Float.self)) },
                                           output: y.assumingMemoryBound(to: Float.self))
        case .uint8:
            DepthwiseConv2DReference.uint8(g, quantized!, input: x.assumingMemoryBound(to: UInt8.self),
                                           filter: f.assumingMemoryBound(to: UInt8.self),
                                           bias: b.map { UnsafePointer($0.assumingMemoryBound(to: Int32.self)) },
                                           output: y.assumingMemoryBound(to: UInt8.self))
        case .int8:
            DepthwiseConv2DReference.int8(g, quantized!, input: x.assumingMemoryBound(to: Int8.self),
                                          filter: f.assumingMemoryBound(to: Int8.self),
                                          bias: b.map { UnsafePointer($0.assumingMemoryBound(to: Int32.self)) },
                                          output: y.assumingMemoryBound(to: Int8.self))
        case .hybrid(let asymmetric):
            let p = hybrid!
            let rowSize = g.inputHeight * g.inputWidth * g.inputDepth
            scratch.quantize(x.assumingMemoryBound(to: Float.self), batches: g.batches, rowSize: rowSize,
                             asymmetric: asymmetric) { q, scales, offsets in
                DepthwiseConv2DReference.hybrid(g, p, quantizedInput: q, inputScales: scales, inputOffsets: offsets,
                                                filter: f.assumingMemoryBound(to: Int8.self),
                                                bias: b.map { UnsafePointer($0.assumingMemoryBound(to: Float.self)) },
                                                output: y.assumingMemoryBound(to: Float.self))
            }
        }
    }

    /// Runs the channel-vectorized kernels, split over output rows across the thread pool: float
    /// layers on the input itself, quantized ones on the padded, offset copy.
    private func invokeOptimized(_ node: NodeContext, _ x: UnsafeMutableRawPointer, _ f: UnsafeMutableRawPointer,
                                 _ b: UnsafeMutableRawPointer?, _ y: UnsafeMutableRawPointer) {
        let g = geometry
        let rows = DepthwiseConv2DOptimized.rowCount(g)
        let minChunk = max(1, 50_000 / max(1, g.outputWidth * g.outputDepth * g.filterHeight * g.filterWidth))
        if mode == .float {
            // Read in place: border taps go through the border kernel (measured faster than a
            // padded copy on face_detection_full_range and deeplabv3, generated or portable kernels).
            let range = floatRange
            let input = UnsafePointer(x.assumingMemoryBound(to: Float.self))
            node.threads.parallelFor(rows, minChunk: minChunk) { part in
                DepthwiseConv2DOptimized.float(g, activationMin: range.min, activationMax: range.max,
                                               input: input, filter: f.assumingMemoryBound(to: Float.self),
                                               bias: b.map { UnsafePointer($0.assumingMemoryBound(to: Float.self)) },
                                               output: y.assumingMemoryBound(to: Float.self), rows: part,
                                               fusedMultiplyAdd: node.fusesMultiplyAdd)
            }
            return
        }
        let padded = paddedGeometry
        let padRows = DepthwiseConv2DOptimized.paddedRowCount(g)
        let minPadRows = max(1, 16_384 / max(1, (padded?.inputWidth ?? 1) * g.inputDepth))
        paddedInput.withUnsafeMutableBufferPointer { buffer in
            let copy = buffer.baseAddress.map { UnsafePointer($0) }
            switch mode {
            case .uint8, .int8:
                guard let padded, let copy else { return }
                let q = requantizer!
                let isU8 = mode == .uint8
                let bias = b.map { UnsafePointer($0.assumingMemoryBound(to: Int32.self)) }
                let base = buffer.baseAddress!
                node.threads.parallelFor(padRows, minChunk: minPadRows) { part in
                    if isU8 {
                        DepthwiseConv2DOptimized.padInput(x.assumingMemoryBound(to: UInt8.self), offset: q.parameters.inputOffset,
                                                          g, rows: part, into: base)
                    } else {
                        DepthwiseConv2DOptimized.padInput(x.assumingMemoryBound(to: Int8.self), offset: q.parameters.inputOffset,
                                                          g, rows: part, into: base)
                    }
                }
                packedInteger!.withUnsafeBufferPointer { w in
                    node.threads.parallelFor(rows, minChunk: minChunk) { part in
                        if isU8 {
                            DepthwiseConv2DOptimized.uint8(padded, q, offsetInput: copy, packedFilter: w.baseAddress!, bias: bias,
                                                           output: y.assumingMemoryBound(to: UInt8.self), rows: part)
                        } else {
                            DepthwiseConv2DOptimized.int8(padded, q, offsetInput: copy, packedFilter: w.baseAddress!, bias: bias,
                                                          output: y.assumingMemoryBound(to: Int8.self), rows: part)
                        }
                    }
                }
            case .float, .hybrid:
                break
            }
        }
    }
}
