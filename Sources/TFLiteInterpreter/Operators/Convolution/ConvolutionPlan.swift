import TFLiteKernels

/// How a convolution-family node (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED) runs, decided
/// once at prepare from its types, shapes, quantization and weights (tflite-micro's
/// `OpData`): invoke is `plan.run(node)`, with no optionals to unwrap and nothing left to
/// choose. Each case carries exactly what its kernels need.
enum ConvolutionPlan {
    /// The node was not prepared (or its last prepare failed): invoke throws.
    case unprepared
    /// The output has no elements: invoke does nothing.
    case emptyOutput
    /// The reference kernels.
    case reference(ReferenceConvolution)
    /// The packed-weight GEMM (CONV_2D, FULLY_CONNECTED).
    case packedGEMM(PackedGEMMPlan)
    /// The channel-vectorized depthwise kernels.
    case depthwise(DepthwisePlan)

    /// Runs the plan on `node`'s tensors, reading `input` in place of input 0 when given (the
    /// input of a folded PAD, the tensor the plan was prepared for).
    /// - Throws: ``InterpreterError/invocationFailed(_:)`` when unprepared or a tensor has no data.
    func run(_ node: NodeContext, op: String, input: RuntimeTensor? = nil) throws {
        switch self {
        case .unprepared:
            throw InterpreterError.invocationFailed("\(op): invoked before a successful prepare")
        case .emptyOutput:
            return
        case .reference(let plan):
            plan.run(try ConvolutionOperands(node, op: op, input: input))
        case .packedGEMM(let plan):
            plan.run(try ConvolutionOperands(node, op: op, input: input), threads: node.threads)
        case .depthwise(let plan):
            plan.run(try ConvolutionOperands(node, op: op, input: input), threads: node.threads)
        }
    }

    /// The operator-fusion hook of the float convolutions (`FloatClampFusable`): a float layer
    /// without a fused activation takes the clamp of the RELU that follows it, intersected with
    /// its own (``ConvolutionArithmetic/fusedClamp(own:with:)``), applied by its epilogue as
    /// `min(max(x, lo), hi)`, the RELU's own formula. Returns the fused plan, or nil (nothing
    /// changes) for other plans or an existing activation.
    func fusingFloatClamp(_ clamp: FloatClamp) -> ConvolutionPlan? {
        switch self {
        case .reference(var plan):
            guard case .float(let own) = plan.arithmetic,
                  let fused = ConvolutionArithmetic.fusedClamp(own: own, with: clamp) else { return nil }
            plan.arithmetic = .float(fused)
            return .reference(plan)
        case .packedGEMM(let plan):
            return plan.fusingFloatClamp(clamp).map { .packedGEMM($0) }
        case .unprepared, .emptyOutput, .depthwise:
            return nil
        }
    }
}

extension ConvolutionPlan {
    /// The fusion hook of an 8-bit byte table that reads this layer's output
    /// (``OutputByteMapFusable``): the packed integer GEMMs apply `map` to each chunk's output.
    /// Returns the fused plan, or nil (nothing changes).
    func fusingOutputByteMap(_ map: OutputByteMap) -> ConvolutionPlan? {
        guard case .packedGEMM(let plan) = self else { return nil }
        return plan.fusingOutputByteMap(map).map { .packedGEMM($0) }
    }

    /// The fusion hook of a float ADD that reads this layer's output (`ResidualAddFusable`):
    /// the packed float GEMM with a generated tile adds the ADD's `operand` and applies its
    /// `clamp` in the epilogue. Returns the fused plan, or nil (nothing changes).
    func fusingResidualAdd(_ operand: RuntimeTensor, clamp: FloatClamp) -> ConvolutionPlan? {
        guard case .packedGEMM(let plan) = self else { return nil }
        return plan.fusingResidualAdd(operand, clamp: clamp).map { .packedGEMM($0) }
    }
}

/// A convolution-family operator that decides a ``ConvolutionPlan`` at prepare: invoke runs it,
/// and a float plan takes a following RELU's clamp (when the operator is `FloatClampFusable`).
protocol PlannedConvolutionOperator: OperatorKernel {
    /// The operator's name in messages.
    var op: String { get }
    /// The plan the last prepare decided (`.unprepared` before one succeeds).
    var plan: ConvolutionPlan { get set }
    /// The PAD the plan applies itself (``PadFusion``): the plan reads that PAD's input instead
    /// of input 0. Nil for operators that fold none.
    var padFold: FoldedPad? { get }
    /// Decides `plan` for the node (the operator's prepare, with its weights readable).
    func prepareLayer(_ node: NodeContext) throws
}

extension PlannedConvolutionOperator {
    /// No folded PAD.
    var padFold: FoldedPad? { nil }

    /// `prepareLayer` with the weights (input 1) readable, read from the model file where it
    /// keeps them (``NodeContext/preparing(with:_:readsRawWeights:)``).
    func prepare(_ node: NodeContext) throws {
        try node.preparing(with: node.inputs.count > 1 ? node.inputs[1] : nil, { try prepareLayer(node) },
                           readsRawWeights: { plan.readsWeightsAtInvoke })
    }

    /// Runs the plan (on the folded PAD's input when there is one).
    /// - Throws: see ``ConvolutionPlan/run(_:op:input:)``.
    func invoke(_ node: NodeContext) throws {
        try plan.run(node, op: op, input: padFold?.input)
    }
}

extension PlannedConvolutionOperator where Self: ResidualAddFusable {
    /// Takes a following ADD into the epilogue (see ``ConvolutionPlan/fusingResidualAdd(_:clamp:)``).
    func fuseResidualAdd(_ operand: RuntimeTensor, min: Float, max: Float) -> Bool {
        guard let fused = plan.fusingResidualAdd(operand, clamp: (min, max)) else { return false }
        plan = fused
        return true
    }
}

extension PlannedConvolutionOperator where Self: OutputByteMapFusable {
    /// Applies a following byte table to the output (see ``ConvolutionPlan/fusingOutputByteMap(_:)``).
    func fuseOutputByteMap(_ table: ByteTableLookup) -> Bool {
        guard let fused = plan.fusingOutputByteMap(OutputByteMap(table: table)) else { return false }
        plan = fused
        return true
    }
}

extension PlannedConvolutionOperator where Self: FloatClampFusable {
    /// Takes a following RELU's clamp into the epilogue (see ``ConvolutionPlan/fusingFloatClamp(_:)``).
    func fuseFloatClamp(min: Float, max: Float) -> Bool {
        guard let fused = plan.fusingFloatClamp((min, max)) else { return false }
        plan = fused
        return true
    }
}

extension ConvolutionPlan {
    /// Whether invoke reads the layer's weights tensor itself, not only what prepare packed
    /// from it: the reference kernels and the float depthwise layers that read their filter in
    /// place (and, conservatively, a plan not prepared).
    var readsWeightsAtInvoke: Bool {
        switch self {
        case .emptyOutput, .packedGEMM: false
        case .depthwise(let plan): plan.readsFilterAtInvoke
        case .unprepared, .reference: true
        }
    }
}
