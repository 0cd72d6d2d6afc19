import TFLiteKernels
import TFLiteSchema

/// TRANSPOSE_CONV: inputs (output_shape int32[4], weights OHWI, input NHWC, bias?),
/// `TransposeConvOptions` (padding, strides, fused activation). The output shape must be
/// known at prepare (a constant, or a tensor with data).
final class TransposeConvOperator: OperatorKernel {
    /// How a node runs, decided at prepare from its types; each case carries what its
    /// reference kernel needs.
    enum Plan {
        /// Not prepared (or the last prepare failed): invoke throws.
        case unprepared
        /// float32, clamped to the fused activation's range.
        case float(ConvolutionGeometry, FloatClamp)
        /// uint8 (per-tensor), accumulating into one Int32 per output element (arena scratch,
        /// zeroed by the kernel on every invoke).
        case uint8(ConvolutionGeometry, QuantizedConvolutionParameters, accumulators: ScratchArray<Int32>)
        /// int8 (per-channel weights), as uint8.
        case int8(ConvolutionGeometry, QuantizedConvolutionParameters, accumulators: ScratchArray<Int32>)
    }

    private let op = "TRANSPOSE_CONV"
    private var plan = Plan.unprepared

    func prepare(_ node: NodeContext) throws {
        plan = .unprepared
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
        let geometry = ConvolutionGeometry(batches: n, inputHeight: h, inputWidth: w, inputDepth: cin,
                                           filterHeight: fh, filterWidth: fw, filterInputDepth: cin,
                                           outputHeight: outShape[1], outputWidth: outShape[2], outputDepth: cout,
                                           strideHeight: strideH, strideWidth: strideW,
                                           padTop: rows.padBefore, padLeft: cols.padBefore)
        let count = try ConvSupport.product(outShape, op: op)
        let next: Plan
        switch (input.type, filter.type) {
        case (.float32, .float32):
            try ConvSupport.checkBias(bias, count: cout, type: .float32, op: op)
            next = .float(geometry, activation.floatRange)
            output.type = .float32
        case (.uint8, .uint8), (.int8, .int8):
            let q = try ConvSupport.quantizedParameters(input: input, filter: filter, output: output, bias: bias,
                                                        channels: cout, activation: activation,
                                                        floatScaleProduct: input.type == .uint8, op: op)
            let accumulators = try node.requestScratch(Int32.self, count: count, "the accumulators")
            next = input.type == .uint8 ? .uint8(geometry, q, accumulators: accumulators)
                                        : .int8(geometry, q, accumulators: accumulators)
        default:
            throw InterpreterError.invalidModel("\(op): unsupported input/weights types \(input.type)/\(filter.type)")
        }
        output.shape = outShape
        plan = next
    }

    func invoke(_ node: NodeContext) throws {
        let filter = try node.input(1), input = try node.input(2)
        let bias = node.inputs.count > 3 ? node.inputs[3] : nil
        let output = try node.output(0)
        switch plan {
        case .unprepared:
            throw InterpreterError.allocateTensorsRequired
        case .float(let g, let clamp):
            guard g.outputCount > 0 else { return }
            TransposeConvReference.float(g, activationMin: clamp.min, activationMax: clamp.max,
                                         input: try input.view(as: Float.self, op).base,
                                         filter: try filter.view(as: Float.self, op).base,
                                         bias: try bias.map { try $0.view(as: Float.self, op).base },
                                         output: try output.mutableView(as: Float.self, op).base)
        case .uint8(let g, let q, let accumulators):
            guard g.outputCount > 0 else { return }
            TransposeConvReference.uint8(g, q, input: try input.view(as: UInt8.self, op).base,
                                         filter: try filter.view(as: UInt8.self, op).base,
                                         bias: try bias.map { try $0.view(as: Int32.self, op).base },
                                         scratch: accumulators.pointer, output: try output.mutableView(as: UInt8.self, op).base)
        case .int8(let g, let q, let accumulators):
            guard g.outputCount > 0 else { return }
            TransposeConvReference.int8(g, q, input: try input.view(as: Int8.self, op).base,
                                        filter: try filter.view(as: Int8.self, op).base,
                                        bias: try bias.map { try $0.view(as: Int32.self, op).base },
                                        scratch: accumulators.pointer, output: try output.mutableView(as: Int8.self, op).base)
        }
    }
}
