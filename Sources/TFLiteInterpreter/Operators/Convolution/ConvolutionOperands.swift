/// The data of a convolution-family node's tensors at invoke: input, filter (weights), the
/// optional bias and the output, as the kernels read them.
struct ConvolutionOperands {
    let input: UnsafeMutableRawPointer
    let filter: UnsafeMutableRawPointer
    let bias: UnsafeMutableRawPointer?
    let output: UnsafeMutableRawPointer

    /// The operands of `node` (inputs: input, filter, bias?; output 0).
    /// - Throws: ``InterpreterError`` when a tensor is missing or has no data.
    init(_ node: NodeContext, op: String) throws {
        let bias = node.inputs.count > 2 ? node.inputs[2] : nil
        input = try ConvSupport.data(try node.input(0), op: op)
        filter = try ConvSupport.data(try node.input(1), op: op)
        output = try ConvSupport.data(try node.output(0), op: op)
        self.bias = try bias.map { try ConvSupport.data($0, op: op) }
    }

    /// The input as `T` elements (the type the plan was prepared for).
    func input<T>(_: T.Type) -> UnsafeMutablePointer<T> { input.assumingMemoryBound(to: T.self) }
    /// The filter as `T` elements.
    func filter<T>(_: T.Type) -> UnsafeMutablePointer<T> { filter.assumingMemoryBound(to: T.self) }
    /// The bias as `T` elements, nil without a bias.
    func bias<T>(_: T.Type) -> UnsafePointer<T>? { bias.map { UnsafePointer($0.assumingMemoryBound(to: T.self)) } }
    /// The output as `T` elements.
    func output<T>(_: T.Type) -> UnsafeMutablePointer<T> { output.assumingMemoryBound(to: T.self) }
}
