import TFLiteKernels
import TFLiteSchema

/// AVERAGE_POOL_2D and MAX_POOL_2D: one NHWC input, `Pool2DOptions`
/// (padding, strides, filter size, fused activation). Quantized pools (uint8, int8, int16) keep
/// the input's scale and zero point, as the reference kernels do; int16 runs the reference kernel.
final class Pool2DOperator: OperatorKernel {
    /// Which reduction the window applies.
    enum Kind { case average, max }

    private let kind: Kind
    private var op: String { kind == .average ? "AVERAGE_POOL_2D" : "MAX_POOL_2D" }
    private var geometry = ConvolutionGeometry(batches: 0, inputHeight: 0, inputWidth: 0, inputDepth: 0,
                                               filterHeight: 0, filterWidth: 0, filterInputDepth: 0,
                                               outputHeight: 0, outputWidth: 0, outputDepth: 0)
    private var floatRange: (min: Float, max: Float) = (0, 0)
    private var quantizedRange: (min: Int32, max: Int32) = (0, 0)

    /// Creates a pooling operator of `kind`.
    init(kind: Kind) { self.kind = kind }

    func prepare(_ node: NodeContext) throws {
        let input = try node.input(0), output = try node.output(0)
        try ConvSupport.requireRank(input, 4, "input", op: op)
        try ConvSupport.requireType(input, [.float32, .uint8, .int8, .int16], "input", op: op)
        let options = try node.options(Pool2DOptions.self)
        let padding = ConvSupport.padding(options.padding)
        let strideW = try ConvSupport.positive(options.strideW, "stride_w", op: op)
        let strideH = try ConvSupport.positive(options.strideH, "stride_h", op: op)
        let filterW = try ConvSupport.positive(options.filterWidth, "filter_width", op: op)
        let filterH = try ConvSupport.positive(options.filterHeight, "filter_height", op: op)
        let activation = ConvFusedActivation(options.fusedActivationFunction)

        let (n, h, w, c) = (input.shape[0], input.shape[1], input.shape[2], input.shape[3])
        let rows = ConvolutionAxis(inputSize: h, filterSize: filterH, stride: strideH, dilation: 1, padding: padding)
        let cols = ConvolutionAxis(inputSize: w, filterSize: filterW, stride: strideW, dilation: 1, padding: padding)
        guard rows.outputSize >= 0, cols.outputSize >= 0 else {
            throw InterpreterError.invalidShape("\(op): window \(filterH)x\(filterW) does not fit input \(h)x\(w)")
        }
        geometry = ConvolutionGeometry(batches: n, inputHeight: h, inputWidth: w, inputDepth: c,
                                       filterHeight: filterH, filterWidth: filterW, filterInputDepth: 1,
                                       outputHeight: rows.outputSize, outputWidth: cols.outputSize, outputDepth: c,
                                       strideHeight: strideH, strideWidth: strideW,
                                       padTop: rows.padBefore, padLeft: cols.padBefore)
        _ = try ConvSupport.product([n, rows.outputSize, cols.outputSize, c], op: op)
        guard output.type == input.type else {
            throw InterpreterError.invalidModel("\(op): output type \(output.type) differs from input type \(input.type)")
        }
        if input.type == .float32 {
            floatRange = activation.floatRange
        } else {
            let (scale, zero) = try ConvSupport.perTensor(output.quantization == nil ? input : output, "output", op: op)
            let (qmin, qmax) = ConvSupport.quantizedBounds(input.type)
            quantizedRange = activation.quantizedRange(scale: scale, zeroPoint: zero, qmin: qmin, qmax: qmax)
            if output.quantization == nil { output.quantization = input.quantization }
        }
        output.shape = [n, rows.outputSize, cols.outputSize, c]
    }

    func invoke(_ node: NodeContext) throws {
        let input = try node.input(0), output = try node.output(0)
        let g = geometry
        guard g.outputCount > 0 else { return }
        let rows = PoolingOptimized.rowCount(g)
        let minChunk = WorkSplitPolicy.poolingMinChunk(g)
        let (fmin, fmax) = floatRange, (qmin, qmax) = quantizedRange
        switch (input.type, kind) {
        case (.float32, .average):
            let (src, dst) = (try input.view(as: Float.self, op).base, try output.mutableView(as: Float.self, op).base)
            node.threads.parallelFor(rows, minChunk: minChunk) {
                PoolingOptimized.averageFloat(g, activationMin: fmin, activationMax: fmax, input: src, output: dst, rows: $0)
            }
        case (.float32, .max):
            let (src, dst) = (try input.view(as: Float.self, op).base, try output.mutableView(as: Float.self, op).base)
            node.threads.parallelFor(rows, minChunk: minChunk) {
                PoolingOptimized.maxFloat(g, activationMin: fmin, activationMax: fmax, input: src, output: dst, rows: $0)
            }
        case (.uint8, .average):
            let (src, dst) = (try input.view(as: UInt8.self, op).base, try output.mutableView(as: UInt8.self, op).base)
            node.threads.parallelFor(rows, minChunk: minChunk) {
                PoolingOptimized.averageUInt8(g, activationMin: qmin, activationMax: qmax, input: src, output: dst, rows: $0)
            }
        case (.uint8, .max):
            let (src, dst) = (try input.view(as: UInt8.self, op).base, try output.mutableView(as: UInt8.self, op).base)
            node.threads.parallelFor(rows, minChunk: minChunk) {
                PoolingOptimized.maxUInt8(g, activationMin: qmin, activationMax: qmax, input: src, output: dst, rows: $0)
            }
        case (.int8, .average):
            let (src, dst) = (try input.view(as: Int8.self, op).base, try output.mutableView(as: Int8.self, op).base)
            node.threads.parallelFor(rows, minChunk: minChunk) {
                PoolingOptimized.averageInt8(g, activationMin: qmin, activationMax: qmax, input: src, output: dst, rows: $0)
            }
        case (.int8, .max):
            let (src, dst) = (try input.view(as: Int8.self, op).base, try output.mutableView(as: Int8.self, op).base)
            node.threads.parallelFor(rows, minChunk: minChunk) {
                PoolingOptimized.maxInt8(g, activationMin: qmin, activationMax: qmax, input: src, output: dst, rows: $0)
            }
        case (.int16, .average):
            PoolingReference.averageQuantized(g, activationMin: qmin, activationMax: qmax,
                                              input: try input.view(as: Int16.self, op).base,
                                              output: try output.mutableView(as: Int16.self, op).base)
        case (.int16, .max):
            PoolingReference.maxQuantized(g, activationMin: qmin, activationMax: qmax,
                                          input: try input.view(as: Int16.self, op).base,
                                          output: try output.mutableView(as: Int16.self, op).base)
        default:
            throw InterpreterError.invocationFailed("\(op): unsupported type \(input.type)")
        }
    }
}
