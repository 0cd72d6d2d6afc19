import TFLiteKernels
import TFLiteSchema

/// CONV_2D: inputs (input NHWC, filter OHWI, bias?), `Conv2DOptions`.
final class Conv2DOperator: PlannedConvolutionOperator {
    let op = "CONV_2D"
    var plan = ConvolutionPlan.unprepared
    /// The PAD this layer applies itself, set by the executor before each prepare (``PadFoldable``).
    var padFold: FoldedPad?

    func prepareLayer(_ node: NodeContext) throws {
        plan = .unprepared
        dropInexactFloatFold(node)
        let layer = try ConvolutionLayer(node, op: op, folded: padFold)
        try layer.requireWindowRanks()
        let options = try node.options(Conv2DOptions.self)
        var window = ConvWindowOptions(options)
        window.explicitPadding = padFold?.padding
        let g = try layer.windowGeometry(window, depthwise: false)
        // Per-channel hybrid layers quantize their input asymmetrically (`HybridConvPerChannel`).
        let scales = layer.filter.quantization?.scales ?? []
        let perChannel = scales.count > 1 && scales.contains { $0 != scales[0] }
        let arithmetic = try layer.arithmetic(channels: g.outputDepth, activation: options.fusedActivationFunction, rules: .init(
            hybridAsymmetric: perChannel, hybridScalesMultipliedFirst: !perChannel,
            quantizedFloatScaleProduct: layer.input.type == .uint8, int16x8FloatScaleProduct: false,
            int16x8BiasRequired: true, filterName: "filter",
            hybridRows: (g.batches, g.inputHeight * g.inputWidth * g.inputDepth)), node: node)
        layer.output.shape = [g.batches, g.outputHeight, g.outputWidth, g.outputDepth]
        plan = try ConvolutionLayer.plan(outputCount: g.outputCount, arithmetic: arithmetic, kernels: .conv2D(g)) {
            // Packed weights: ungrouped layers with constant weights.
            guard g.groups == 1, g.inputDepth > 0 else { return nil }
            return try PackedGEMMPlan.make(arithmetic, geometry: g, filter: layer.filter, node: node, what: "filter")
                .map { .packedGEMM($0) }
        }
    }
}

extension Conv2DOperator: FloatClampFusable, ResidualAddFusable, OutputByteMapFusable, PadFoldable {
    var roles: KernelRoles {
        KernelRoles(floatClampFusable: self, residualAddFusable: self, outputByteMapFusable: self, padFoldable: self)
    }
}
