import TFLiteKernels
import TFLiteSchema

/// The MediaPipe custom operator `Convolution2DTransposeBias`: inputs (input NHWC float,
/// weights OHWI, bias), options ``TransposeConvBiasOptions`` (a raw `TfLiteTransposeConvParams`
/// in the custom options).
/// Output size `stride · (in − 1) + filter − totalPadding`, no activation; each output starts at
/// its bias and accumulates the products, as MediaPipe's kernel does (bit for bit;
/// ``TransposeConvOntoBiasOptimized`` gathers them per output in the same order).
final class TransposeConvBiasOperator: OperatorKernel {
    private let op = "Convolution2DTransposeBias"
    private var geometry = ConvolutionGeometry(batches: 0, inputHeight: 0, inputWidth: 0, inputDepth: 0,
                                               filterHeight: 0, filterWidth: 0, filterInputDepth: 0,
                                               outputHeight: 0, outputWidth: 0, outputDepth: 0)
    /// One batch of input in channel planes (``TransposeConvOntoBiasOptimized``).
    private var planes: ScratchArray<Float>?

    func prepare(_ node: NodeContext) throws {
        planes = nil  // invoke runs only what the last successful prepare decided
        let input = try node.input(0), filter = try node.input(1), bias = try node.input(2)
        let output = try node.output(0)
        try ConvSupport.requireRank(input, 4, "input", op: op)
        try ConvSupport.requireRank(filter, 4, "weights", op: op)
        for t in [input, filter, bias] { try ConvSupport.requireType(t, [.float32], "tensor \(t.index)", op: op) }
        let options: TransposeConvBiasOptions
        do { options = try TransposeConvBiasOptions(customOptions: node.customOptions) } catch let error as TFLiteSchemaError {
            throw InterpreterError.invalidModel(error.description)
        }
        let strideW = try ConvSupport.positive(options.strideW, "stride_w", op: op)
        let strideH = try ConvSupport.positive(options.strideH, "stride_h", op: op)
        let (n, h, w, cin) = (input.shape[0], input.shape[1], input.shape[2], input.shape[3])
        let (cout, fh, fw, fcin) = (filter.shape[0], filter.shape[1], filter.shape[2], filter.shape[3])
        guard fcin == cin, h > 0, w > 0 else {
            throw InterpreterError.invalidShape("\(op): input \(input.shape) does not match weights \(filter.shape)")
        }
        try ConvSupport.checkBias(bias, count: cout, type: .float32, op: op)
        var padH = 0, padW = 0
        if options.padding == .same {
            padH = max(0, fh - (h - 1) % strideH - 1)
            padW = max(0, fw - (w - 1) % strideW - 1)
        }
        let outH = strideH * (h - 1) + fh - padH, outW = strideW * (w - 1) + fw - padW
        _ = try ConvSupport.product([n, outH, outW, cout], op: op)
        geometry = ConvolutionGeometry(batches: n, inputHeight: h, inputWidth: w, inputDepth: cin,
                                       filterHeight: fh, filterWidth: fw, filterInputDepth: cin,
                                       outputHeight: outH, outputWidth: outW, outputDepth: cout,
                                       strideHeight: strideH, strideWidth: strideW, padTop: padH / 2, padLeft: padW / 2)
        planes = try node.requestScratch(Float.self, count: TransposeConvOntoBiasOptimized.planeCount(geometry),
                                         "the input in channel planes")
        output.type = .float32
        output.shape = [n, outH, outW, cout]
    }

    func invoke(_ node: NodeContext) throws {
        let input = try node.input(0), filter = try node.input(1), bias = try node.input(2)
        let output = try node.output(0)
        guard geometry.outputCount > 0 else { return }
        guard let planes else { throw InterpreterError.invocationFailed("\(op): not prepared") }
        let g = geometry, plane = planes.pointer
        let weights = try filter.view(as: Float.self, op).base, biases = try bias.view(as: Float.self, op).base
        let out = try output.mutableView(as: Float.self, op).base
        TransposeConvOntoBiasOptimized.makePlanes(g, input: try input.view(as: Float.self, op).base, planes: plane)
        let rowWork = g.outputWidth * g.outputDepth * max(1, g.inputDepth * g.filterHeight * g.filterWidth
                                                              / (g.strideHeight * g.strideWidth))
        node.threads.parallelFor(g.batches * g.outputHeight,
                                 minChunk: WorkSplitPolicy.minChunk(work: WorkSplitPolicy.floatGEMMMultiplyAdds, workPerUnit: rowWork)) { rows in
            TransposeConvOntoBiasOptimized.run(g, planes: plane, filter: weights, bias: biases, output: out, rows: rows)
        }
    }
}
