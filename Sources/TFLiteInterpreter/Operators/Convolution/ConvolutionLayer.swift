import TFLiteKernels
import TFLiteSchema

/// The tensors of a convolution-family node at prepare (input, filter or weights, optional bias,
/// output) and the prepare steps CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED share.
struct ConvolutionLayer {
    let input: RuntimeTensor
    let filter: RuntimeTensor
    let bias: RuntimeTensor?
    let output: RuntimeTensor
    let op: String

    /// The node's tensors, with `folded`'s input (the input of a PAD folded into the node,
    /// ``PadFusion``) in place of input 0 when given.
    /// - Throws: ``InterpreterError/invalidModel(_:)`` when one is missing.
    init(_ node: NodeContext, op: String, folded: FoldedPad? = nil) throws {
        input = try folded?.input ?? node.input(0)
        filter = try node.input(1)
        bias = node.inputs.count > 2 ? node.inputs[2] : nil
        output = try node.output(0)
        self.op = op
    }

    /// Checks that input and filter are NHWC / OHWI tensors (rank 4, no negative dimension).
    func requireWindowRanks() throws {
        try ConvSupport.requireRank(input, 4, "input", op: op)
        try ConvSupport.requireRank(filter, 4, "filter", op: op)
    }

    /// The geometry of a CONV_2D (`depthwise` false: filter OHWI, grouped when the input has a
    /// multiple of the filter's depth) or DEPTHWISE_CONV_2D (filter `[1, fh, fw, cout]`, `cout` a
    /// multiple of the input depth) over `window`, after `requireWindowRanks()`.
    /// - Throws: ``InterpreterError/invalidShape(_:)`` when the shapes do not fit.
    func windowGeometry(_ window: ConvWindowOptions, depthwise: Bool) throws -> ConvolutionGeometry {
        let cin = input.shape[3]
        let (fh, fw) = (filter.shape[1], filter.shape[2])
        let (cout, filterInputDepth): (Int, Int)
        if depthwise {
            cout = filter.shape[3]
            filterInputDepth = 1
            guard filter.shape[0] == 1, cin > 0, cout % cin == 0, cout > 0 else {
                throw InterpreterError.invalidShape("\(op): filter \(filter.shape) does not fit input depth \(cin)")
            }
        } else {
            (cout, filterInputDepth) = (filter.shape[0], filter.shape[3])
            guard filterInputDepth > 0, cin % filterInputDepth == 0, cout > 0, cout % (cin / filterInputDepth) == 0 else {
                throw InterpreterError.invalidShape("\(op): input depth \(cin) does not match filter \(filter.shape)")
            }
        }
        return try ConvSupport.windowGeometry(input: input, filterHeight: fh, filterWidth: fw,
                                              filterInputDepth: filterInputDepth, outputDepth: cout,
                                              window: window, op: op)
    }

    /// ``ConvolutionArithmetic/derive(input:filter:bias:output:channels:activation:rules:node:op:)`` for this layer.
    func arithmetic(channels: Int, activation: ActivationFunctionType, rules: ConvolutionArithmetic.Rules,
                    node: NodeContext) throws -> ConvolutionArithmetic {
        try ConvolutionArithmetic.derive(input: input, filter: filter, bias: bias, output: output, channels: channels,
                                         activation: ConvFusedActivation(activation), rules: rules, node: node, op: op)
    }

    /// The plan of a layer whose arithmetic is known: `.emptyOutput` without output elements,
    /// else `optimized` when it gives a plan, else the reference kernels on `kernels`.
    static func plan(outputCount: Int, arithmetic: ConvolutionArithmetic, kernels: ReferenceConvolution.Kernels,
                     optimized: () throws -> ConvolutionPlan?) rethrows -> ConvolutionPlan {
        guard outputCount > 0 else { return .emptyOutput }
        return try optimized() ?? .reference(ReferenceConvolution(kernels: kernels, arithmetic: arithmetic))
    }
}
