import TFLiteKernels
import TFLiteSchema

/// DEPTHWISE_CONV_2D: inputs (input NHWC, filter `[1, fh, fw, cin·multiplier]`, bias?),
/// `DepthwiseConv2DOptions`. The depth multiplier is taken from the shapes (the option is redundant).
final class DepthwiseConv2DOperator: PlannedConvolutionOperator {
    let op = "DEPTHWISE_CONV_2D"
    var plan = ConvolutionPlan.unprepared
    /// The PAD this layer applies itself, set by the executor before each prepare (``PadFoldable``).
    var padFold: FoldedPad?

    func prepareLayer(_ node: NodeContext) throws {
        plan = .unprepared
        dropInexactFloatFold(node)
        let layer = try ConvolutionLayer(node, op: op, folded: padFold)
        try layer.requireWindowRanks()
        let options = try node.options(DepthwiseConv2DOptions.self)
        var window = ConvWindowOptions(options)
        window.explicitPadding = padFold?.padding
        let g = try layer.windowGeometry(window, depthwise: true)
        let arithmetic = try layer.arithmetic(channels: g.outputDepth, activation: options.fusedActivationFunction, rules: .init(
            hybridAsymmetric: true, hybridScalesMultipliedFirst: true,
            quantizedFloatScaleProduct: layer.input.type == .uint8, int16x8FloatScaleProduct: false,
            int16x8BiasRequired: true, filterName: "filter",
            hybridRows: (g.batches, g.inputHeight * g.inputWidth * g.inputDepth)), node: node)
        layer.output.shape = [g.batches, g.outputHeight, g.outputWidth, g.outputDepth]
        plan = try ConvolutionLayer.plan(outputCount: g.outputCount, arithmetic: arithmetic, kernels: .depthwiseConv2D(g)) {
            try DepthwisePlan.make(arithmetic, geometry: g, filter: layer.filter, hasBias: layer.bias != nil, node: node).map { .depthwise($0) }
        }
    }
}

extension DepthwiseConv2DOperator: PadFoldable {
    var roles: KernelRoles { KernelRoles(padFoldable: self) }
}
