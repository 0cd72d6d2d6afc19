import TFLiteKernels
import TFLiteSchema

/// TRANSPOSE_CONV: inputs (output_shape int32[4], weights OHWI, input NHWC, bias?),
/// `TransposeConvOptions` (padding, strides, fused activation). The output shape must be
/// known at prepare (a constant, or a tensor with data).
final class TransposeConvOperator: OperatorKernel {
    private let op = "TRANSPOSE_CONV"
    private var mode = ConvComputeMode.float
    private var geometry = ConvolutionGeometry(batches: 0, inputHeight: 0, inputWidth: 0, inputDepth: 0,
                                               filterHeight: 0, filterWidth: 0, filterInputDepth: 0,
                                               outputHeight: 0, outputWidth: 0, outputDepth: 0)
    private var floatRange: (min: Float, max: Float) = (0, 0)
    private var quantized: QuantizedConvolutionParameters?
    private var accumulators: [Int32] = []

    func prepare(_ node: NodeContext) throws {
        let shapeTensor = try node.input(0), filter = try node.input(1), input = try node.input(2)
        let bias = node.inputs.count > 3 ? node.inputs[3] : nil
        let output = try node.output(0)
        try ConvSupport.requireRank(input, 4, "input", op: op)
        try ConvSupport.requireRank(filter, 4, "weights", op: op)
        guard shapeTensor.type == .int32, shapeTensor.elementCount == 4, shapeTensor.data != nil else {
            throw InterpreterError.invalidModel("\(op): output_shape must be an int32[4] tensor with known data")
        }
        let s = try shapeTensor.view(as: Int32.self, op)
        let outShape = (0..<4).map { Int(s[$0]) }
        guard outShape.allSatisfy({ $0 >= 0 }) else {
            throw InterpreterError.invalidShape("\(op): negative output_shape \(outShape)")
        }
        let options = try node.options(TransposeConvOptions.self)
        let padding = ConvSupport.padding(options.padding)
        let strideW = try ConvSupport.positive(options.strideW, "stride_w", op: op)
        let strideH = try ConvSupport.positive(options.strideH, "stride_h", op: op)
        let activation = ConvFusedActivation(options.fusedActivationFunction)

        let (n, h, w, cin) = (input.shape[0], input.shape[1], input.shape[2], input.shape[3])
        let (cout, fh, fw, fcin) = (filter.shape[0], filter.shape[1], filter.shape[2], filter.shape[3])
        guard fcin == cin, outShape[0] == n, outShape[3] == cout else {
            throw InterpreterError.invalidShape("\(op): input \(input.shape), weights \(filter.shape) and output_shape \(outShape) disagree")
        }
        // Padding as for the forward convolution from the output back to the input.
        let rows = ConvolutionAxis(inputSize: outShape[1], filterSize: fh, stride: strideH, dilation: 1, padding: padding)
        let cols = ConvolutionAxis(inputSize: outShape[2], filterSize: fw, stride: strideW, dilation: 1, padding: padding)
        geometry = ConvolutionGeometry(batches: n, inputHeight: h, inputWidth: w, inputDepth: cin,
                                       filterHeight: fh, filterWidth: fw, filterInputDepth: cin,
                                       outputHeight: outShape[1], outputWidth: outShape[2], outputDepth: cout,
                                       strideHeight: strideH, strideWidth: strideW,
                                       padTop: rows.padBefore, padLeft: cols.padBefore)
        let count = try ConvSupport.product(outShape, op: op)
        switch (input.type, filter.type) {
        case (.float32, .float32):
            mode = .float
            try ConvSupport.checkBias(bias, count: cout, type: .float32, op: op)
            floatRange = activation.floatRange
            output.type = .float32
        case (.uint8, .uint8), (.int8, .int8):
            mode = input.type == .uint8 ? .uint8 : .int8
            quantized = try ConvSupport.quantizedParameters(input: input, filter: filter, output: output, bias: bias,
                                                            channels: cout, activation: activation,
                                                            floatScaleProduct: input.type == .uint8, op: op)
            try node.reserveScratch(SharedMemoryBudget.bytes(count, MemoryLayout<Int32>.size), "the accumulators")
            if accumulators.count != count { accumulators = Array(repeating: 0, count: count) }
        default:
            throw InterpreterError.invalidModel("\(op): unsupported input/weights types \(input.type)/\(filter.type)")
        }
        output.shape = outShape
    }

    func invoke(_ node: NodeContext) throws {
        let filter = try node.input(1), input = try node.input(2)
        let bias = node.inputs.count > 3 ? node.inputs[3] : nil
        let output = try node.output(0)
        let g = geometry
        guard g.outputCount > 0 else { return }
        switch mode {
        case .float:
            TransposeConvReference.float(g, activationMin: floatRange.min, activationMax: floatRange.max,
                                         input: try input.view(as: Float.self, op).base,
                                         filter: try filter.view(as: Float.self, op).base,
                                         bias: try bias.map { try $0.view(as: Float.self, op).base },
                                         output: try output.mutableView(as: Float.self, op).base)
        case .uint8:
            let q = quantized!
            let (x, f, y) = (try input.view(as: UInt8.self, op), try filter.view(as: UInt8.self, op),
                             try output.mutableView(as: UInt8.self, op))
            let b = try bias.map { try $0.view(as: Int32.self, op).base }
            accumulators.withUnsafeMutableBufferPointer { acc in
                TransposeConvReference.uint8(g, q, input: x.base, filter: f.base, bias: b, scratch: acc.baseAddress!, output: y.base)
            }
        case .int8:
            let q = quantized!
            let (x, f, y) = (try input.view(as: Int8.self, op), try filter.view(as: Int8.self, op),
                             try output.mutableView(as: Int8.self, op))
            let b = try bias.map { try $0.view(as: Int32.self, op).base }
            accumulators.withUnsafeMutableBufferPointer { acc in
                TransposeConvReference.int8(g, q, input: x.base, filter: f.base, bias: b, scratch: acc.baseAddress!, output: y.base)
            }
        }
    }
}
