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
    /// The filter the windowed kernels read, cache-line aligned: `w + filterOffset` (exact in
    /// Float) for quantized layers, a copy of the weights for float ones (nil: no window).
    private var packedFilter: AlignedArray<Float>?
    /// How the optimized kernel blocks its rows over a window of padded input rows (quantized
    /// layers with the optimized kernel, float layers with a constant, finite filter; nil otherwise).
    private var windowPlan: DepthwiseConv2DOptimized.InputWindowPlan?
    /// int16 activations with int8 weights (16x8): the reference kernel's parameters.
    private var int16x8: QuantizedConvolutionParameters?

    func prepare(_ node: NodeContext) throws {
        let input = try node.input(0), filter = try node.input(1)
        let bias = node.inputs.count > 2 ? node.inputs[2] : nil
        let output = try node.output(0)
        try ConvSupport.requireRank(input, 4, "input", op: op)
        try ConvSupport.requireRank(filter, 4, "filter", op: op)

        let options = try node.options(DepthwiseConv2DOptions.self)
        let activation = ConvFusedActivation(options.fusedActivationFunction)
        int16x8 = nil

        let (n, h, w, cin) = (input.shape[0], input.shape[1], input.shape[2], input.shape[3])
        let (fh, fw, cout) = (filter.shape[1], filter.shape[2], filter.shape[3])
        guard filter.shape[0] == 1, cin > 0, cout % cin == 0, cout > 0 else {
            throw InterpreterError.invalidShape("\(op): filter \(filter.shape) does not fit input depth \(cin)")
        }
        geometry = try ConvSupport.windowGeometry(input: input, filterHeight: fh, filterWidth: fw,
                                                  filterInputDepth: 1, outputDepth: cout,
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
            packedFilter = nil
            windowPlan = nil
            return
        default:
            throw InterpreterError.invalidModel("\(op): unsupported input/filter types \(input.type)/\(filter.type)")
        }
        output.shape = [n, geometry.outputHeight, geometry.outputWidth, cout]
        packedFilter = nil
        windowPlan = nil
        if (mode == .uint8 || mode == .int8), DepthwiseConv2DOptimized.supports(geometry),
           filter.isConstant, let raw = filter.data {
            let offset = quantized!.filterOffset
            try node.reserveScratch(SharedMemoryBudget.bytes(filter.elementCount, MemoryLayout<Float>.size), "the packed filter")
            packedFilter = try AlignedArray(mode == .uint8
                ? ConvFilterPacking.packDepthwiseInteger(raw.assumingMemoryBound(to: UInt8.self), offset: offset, count: filter.elementCount)
                : ConvFilterPacking.packDepthwiseInteger(raw.assumingMemoryBound(to: Int8.self), offset: offset, count: filter.elementCount))
            windowPlan = try reserveWindows(node, DepthwiseConv2DOptimized.inputWindowPlan(geometry), rowOfSums: true)
        }
        // Float layers read their input in place unless a window pays: its block converts at
        // least as many rows as it moves (not so for deeplabv3's 33-pixel rows of 960 channels
        // at dilation 4, where the memmove took 15% of the model's time), and its padding taps
        // add `0 · w`, which only a finite weight leaves at 0.
        let plan = DepthwiseConv2DOptimized.inputWindowPlan(geometry)
        if mode == .float, DepthwiseConv2DOptimized.supports(geometry), filter.isConstant, let raw = filter.data,
           plan.convertsMoreThanItMoves(geometry) {
            let weights = UnsafeBufferPointer(start: raw.assumingMemoryBound(to: Float.self), count: filter.elementCount)
            if weights.allSatisfy(\.isFinite) {
                try node.reserveScratch(SharedMemoryBudget.bytes(filter.elementCount, MemoryLayout<Float>.size), "the aligned filter")
                packedFilter = try AlignedArray(copying: weights)
                windowPlan = try reserveWindows(node, plan, rowOfSums: false)
            }
        }
    }

    /// `plan`, with each thread's window (and row of sums, for epilogues that do not finish in
    /// place) reserved against the memory budget; the kernel allocates them while it runs.
    private func reserveWindows(_ node: NodeContext, _ plan: DepthwiseConv2DOptimized.InputWindowPlan,
                                rowOfSums: Bool) throws -> DepthwiseConv2DOptimized.InputWindowPlan {
        let perThread = plan.floatCount + (rowOfSums ? geometry.outputWidth * geometry.outputDepth : 0)
        try node.reserveScratch(SharedMemoryBudget.bytes(node.threads.threadCount * perThread, MemoryLayout<Float>.size),
                                "the input windows (\(plan.windowRows) rows of \(plan.rowLength) values per thread)")
        return plan
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
        if DepthwiseConv2DOptimized.supports(g), mode == .float || packedFilter != nil {
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
    /// layers on the input itself, quantized ones through per-thread windows of padded, offset rows.
    private func invokeOptimized(_ node: NodeContext, _ x: UnsafeMutableRawPointer, _ f: UnsafeMutableRawPointer,
                                 _ b: UnsafeMutableRawPointer?, _ y: UnsafeMutableRawPointer) {
        let g = geometry
        let rows = DepthwiseConv2DOptimized.rowCount(g)
        let minChunk = max(1, 50_000 / max(1, g.outputWidth * g.outputDepth * g.filterHeight * g.filterWidth))
        if mode == .float {
            let range = floatRange, plan = windowPlan
            let input = UnsafePointer(x.assumingMemoryBound(to: Float.self))
            let filter = f.assumingMemoryBound(to: Float.self)
            let bias = b.map { UnsafePointer($0.assumingMemoryBound(to: Float.self)) }
            let output = y.assumingMemoryBound(to: Float.self)
            let aligned = packedFilter.map { UnsafePointer($0.pointer) }
            node.threads.parallelFor(rows, minChunk: minChunk) { part in
                if let plan, let aligned {
                    DepthwiseConv2DOptimized.float(g, activationMin: range.min, activationMax: range.max, input: input,
                                                   filter: aligned, bias: bias, output: output, rows: part, plan: plan,
                                                   fusedMultiplyAdd: node.fusesMultiplyAdd)
                } else {
                    // In place, border taps through the border kernel (a filter that is not constant and finite).
                    DepthwiseConv2DOptimized.float(g, activationMin: range.min, activationMax: range.max, input: input,
                                                   filter: filter, bias: bias, output: output, rows: part,
                                                   fusedMultiplyAdd: node.fusesMultiplyAdd)
                }
            }
            return
        }
        guard let plan = windowPlan, let packed = packedFilter else { return }
        let q = requantizer!
        let bias = b.map { UnsafePointer($0.assumingMemoryBound(to: Int32.self)) }
        let isU8 = mode == .uint8
        packed.withUnsafeBufferPointer { w in
            node.threads.parallelFor(rows, minChunk: minChunk) { part in
                if isU8 {
                    DepthwiseConv2DOptimized.uint8(g, q, input: x.assumingMemoryBound(to: UInt8.self), packedFilter: w.baseAddress!,
                                                   bias: bias, output: y.assumingMemoryBound(to: UInt8.self), rows: part, plan: plan)
                } else {
                    DepthwiseConv2DOptimized.int8(g, q, input: x.assumingMemoryBound(to: Int8.self), packedFilter: w.baseAddress!,
                                                  bias: bias, output: y.assumingMemoryBound(to: Int8.self), rows: part, plan: plan)
                }
            }
        }
    }
}
