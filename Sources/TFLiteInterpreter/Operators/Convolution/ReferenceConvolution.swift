import TFLiteKernels

/// A convolution-family layer run by the reference kernels (the oracle): layers no optimized
/// kernel takes (grouped or non-constant weights, int16x8, or no packed form).
struct ReferenceConvolution {
    /// Which operator's reference kernels, with their geometry.
    enum Kernels {
        case conv2D(ConvolutionGeometry)
        case depthwiseConv2D(ConvolutionGeometry)
        case fullyConnected(FullyConnectedGeometry)
    }

    let kernels: Kernels
    var arithmetic: ConvolutionArithmetic

    /// Runs the layer on `o`. The operand types are those `arithmetic` was derived from.
    func run(_ o: ConvolutionOperands) {
        switch arithmetic {
        case .float(let clamp): runFloat(o, clamp)
        case .uint8(let q): runUInt8(o, q)
        case .int8(let q): runInt8(o, q)
        case .int16x8(let q): runInt16x8(o, q)
        case .hybrid(let p, let scratch):
            scratch.quantize(o.input(Float.self), threads: nil) { q, scales, offsets in runHybrid(o, p, q, scales, offsets) }
        }
    }

    private func runFloat(_ o: ConvolutionOperands, _ c: FloatClamp) {
        let (x, f, b, y) = (o.input(Float.self), o.filter(Float.self), o.bias(Float.self), o.output(Float.self))
        switch kernels {
        case .conv2D(let g):
            Conv2DReference.float(g, activationMin: c.min, activationMax: c.max, input: x, filter: f, bias: b, output: y)
        case .depthwiseConv2D(let g):
            DepthwiseConv2DReference.float(g, activationMin: c.min, activationMax: c.max, input: x, filter: f, bias: b,
                                           output: y)
        case .fullyConnected(let g):
            FullyConnectedReference.float(g, activationMin: c.min, activationMax: c.max, input: x, weights: f, bias: b,
                                          output: y)
        }
    }

    private func runUInt8(_ o: ConvolutionOperands, _ q: QuantizedConvolutionParameters) {
        let (x, f, b, y) = (o.input(UInt8.self), o.filter(UInt8.self), o.bias(Int32.self), o.output(UInt8.self))
        switch kernels {
        case .conv2D(let g): Conv2DReference.uint8(g, q, input: x, filter: f, bias: b, output: y)
        case .depthwiseConv2D(let g): DepthwiseConv2DReference.uint8(g, q, input: x, filter: f, bias: b, output: y)
        case .fullyConnected(let g): FullyConnectedReference.uint8(g, q, input: x, weights: f, bias: b, output: y)
        }
    }

    private func runInt8(_ o: ConvolutionOperands, _ q: QuantizedConvolutionParameters) {
        let (x, f, b, y) = (o.input(Int8.self), o.filter(Int8.self), o.bias(Int32.self), o.output(Int8.self))
        switch kernels {
        case .conv2D(let g): Conv2DReference.int8(g, q, input: x, filter: f, bias: b, output: y)
        case .depthwiseConv2D(let g): DepthwiseConv2DReference.int8(g, q, input: x, filter: f, bias: b, output: y)
        case .fullyConnected(let g): FullyConnectedReference.int8(g, q, input: x, weights: f, bias: b, output: y)
        }
    }

    private func runInt16x8(_ o: ConvolutionOperands, _ q: QuantizedConvolutionParameters) {
        let (x, f, b, y) = (o.input(Int16.self), o.filter(Int8.self), o.bias(Int64.self), o.output(Int16.self))
        switch kernels {
        case .conv2D(let g): Conv2DReference.int16x8(g, q, input: x, filter: f, bias: b, output: y)
        case .depthwiseConv2D(let g): DepthwiseConv2DReference.int16x8(g, q, input: x, filter: f, bias: b, output: y)
        case .fullyConnected(let g): FullyConnectedReference.int16x8(g, q, input: x, weights: f, bias: b, output: y)
        }
    }

    private func runHybrid(_ o: ConvolutionOperands, _ p: HybridConvolutionParameters, _ q: UnsafePointer<Int8>,
                           _ scales: UnsafePointer<Float>, _ offsets: UnsafePointer<Int32>) {
        let (f, b, y) = (o.filter(Int8.self), o.bias(Float.self), o.output(Float.self))
        switch kernels {
        case .conv2D(let g):
            Conv2DReference.hybrid(g, p, quantizedInput: q, inputScales: scales, inputOffsets: offsets, filter: f,
                                   bias: b, output: y)
        case .depthwiseConv2D(let g):
            DepthwiseConv2DReference.hybrid(g, p, quantizedInput: q, inputScales: scales, inputOffsets: offsets,
                                            filter: f, bias: b, output: y)
        case .fullyConnected(let g):
            FullyConnectedReference.hybrid(g, p, quantizedInput: q, inputScales: scales, inputOffsets: offsets,
                                           weights: f, bias: b, output: y)
        }
    }
}
