/// The tensors of a convolution-family node at invoke: input, filter (weights), the optional
/// bias and the output, handed to the kernels as typed pointers (`RuntimeTensor.pointer(as:)`,
/// whose element type, byte count and alignment are checked under `LITEVISION_INTERNAL_CHECKS`).
struct ConvolutionOperands {
    private let inputTensor: RuntimeTensor
    private let filterTensor: RuntimeTensor
    private let biasTensor: RuntimeTensor?
    private let outputTensor: RuntimeTensor
    /// Elements read in place of the input tensor's (``reading(_:)``), nil for the tensor's own.
    private var inputOverride: UnsafeMutableRawPointer?

    /// The operands of `node` (inputs: input, filter, bias?; output 0), with `input` in place of
    /// input 0 when given (the input of a PAD folded into the node, ``PadFusion``).
    /// - Throws: ``InterpreterError`` when a tensor is missing or has no data.
    init(_ node: NodeContext, op: String, input: RuntimeTensor? = nil) throws {
        let bias = node.inputs.count > 2 ? node.inputs[2] : nil
        inputTensor = try input ?? node.input(0)
        filterTensor = try node.input(1)
        outputTensor = try node.output(0)
        biasTensor = bias
        // One by one, not over an array of the tensors: invoke allocates nothing.
        _ = try ConvSupport.data(inputTensor, op: op)
        _ = try ConvSupport.data(filterTensor, op: op)
        _ = try ConvSupport.data(outputTensor, op: op)
        if let bias { _ = try ConvSupport.data(bias, op: op) }
    }

    /// The input as `T` elements (the type the plan was prepared for).
    func input<T>(_: T.Type) -> UnsafeMutablePointer<T> {
        inputOverride?.assumingMemoryBound(to: T.self) ?? inputTensor.pointer(as: T.self)
    }

    /// These operands with `elements` as the input (``DepthwiseExpandedInput``): elements of the
    /// input's type laid out as the geometry the reading plan was prepared for.
    func reading(_ elements: UnsafeMutableRawPointer) -> ConvolutionOperands {
        var operands = self
        operands.inputOverride = elements
        return operands
    }
    /// The filter as `T` elements.
    func filter<T>(_: T.Type) -> UnsafeMutablePointer<T> { filterTensor.pointer(as: T.self) }
    /// The bias as `T` elements, nil without a bias.
    func bias<T>(_: T.Type) -> UnsafePointer<T>? { biasTensor.map { UnsafePointer($0.pointer(as: T.self)) } }
    /// The output as `T` elements.
    func output<T>(_: T.Type) -> UnsafeMutablePointer<T> { outputTensor.pointer(as: T.self) }
}
