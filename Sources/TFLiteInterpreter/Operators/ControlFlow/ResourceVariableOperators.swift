import TFLiteSchema

/// The interpreter's resource variables, as the reference runtime exports them (typically with
/// a CALL_ONCE subgraph assigning initial values):
/// - VAR_HANDLE (options: container 0, shared_name 1): output 0 is the variable's handle. The
///   handle tensor is `resource` in the model; it holds one int32 here (it never leaves the
///   interpreter), so prepare gives it type int32 and one element. Every other `resource` tensor
///   (an IF branch's or WHILE body's input, a WHILE state carrying the handle) is an int32 handle
///   too, so handles pass into called subgraphs by value and name the same variable there.
/// - ASSIGN_VARIABLE (handle, value): stores a copy of the value (any fixed-size type and shape).
/// - READ_VARIABLE (handle) → value: the output takes the stored type and shape at invoke; it is
///   planned from the model's declared shape and re-sized at invoke if the stored value differs.
/// Reading a variable never assigned is an ``InterpreterError/invocationFailed(_:)``.
final class VarHandleOperator: HostedKernel {
    private weak var host: ExecutionHost?
    private var handle: Int32 = -1

    func attach(_ host: ExecutionHost) { self.host = host }
    func hasInvokeTimeShapes(_ node: NodeContext) -> Bool { false }

    func prepare(_ node: NodeContext) throws {
        let variables = try VariableHandle.variables(host, "VAR_HANDLE")
        let output = try node.output(0)
        let options = try node.options(VarHandleOptions.self)
        handle = variables.handle(container: options.container, sharedName: options.sharedName)
        output.type = .int32
        output.shape = []
    }

    func invoke(_ node: NodeContext) throws {
        let output = try node.output(0)
        try DataMovementSupport.data(output, "VAR_HANDLE").storeBytes(of: handle, as: Int32.self)
    }
}

/// READ_VARIABLE (see ``VarHandleOperator``): output 0 is a copy of the variable's value.
final class ReadVariableOperator: HostedKernel {
    private weak var host: ExecutionHost?

    func attach(_ host: ExecutionHost) { self.host = host }
    /// The value's shape is whatever was last assigned.
    func hasInvokeTimeShapes(_ node: NodeContext) -> Bool { true }

    func prepare(_ node: NodeContext) throws {
        _ = try VariableHandle.variables(host, "READ_VARIABLE")
        try VariableHandle.checkHandle(node.input(0), "READ_VARIABLE")
        let output = try node.output(0)
        guard output.type.byteSize != nil else {
            throw InterpreterError.invalidModel("READ_VARIABLE: output '\(output.name)' has unsupported type \(output.type)")
        }
    }

    func invoke(_ node: NodeContext) throws {
        guard let host else { throw InterpreterError.invocationFailed("READ_VARIABLE: no executor attached") }
        let (variables, handle) = try VariableHandle.read(node, host, "READ_VARIABLE")
        guard let value = variables.value(of: handle) else {
            throw InterpreterError.invocationFailed("READ_VARIABLE: variable \(handle) is read before any assignment")
        }
        let output = try node.output(0)
        guard value.type == output.type else {
            throw InterpreterError.invocationFailed(
                "READ_VARIABLE: variable \(handle) holds \(value.type), output '\(output.name)' is \(output.type)")
        }
        try host.resizeOutput(output, to: value.shape)
        if value.byteCount > 0 {
            try DataMovementSupport.data(output, "READ_VARIABLE").copyMemory(from: value.storage.pointer, byteCount: value.byteCount)
        }
    }
}

/// ASSIGN_VARIABLE (see ``VarHandleOperator``): stores a copy of input 1 as the variable's value.
final class AssignVariableOperator: HostedKernel {
    private weak var host: ExecutionHost?

    func attach(_ host: ExecutionHost) { self.host = host }
    func hasInvokeTimeShapes(_ node: NodeContext) -> Bool { false }

    func prepare(_ node: NodeContext) throws {
        _ = try VariableHandle.variables(host, "ASSIGN_VARIABLE")
        try VariableHandle.checkHandle(node.input(0), "ASSIGN_VARIABLE")
        let value = try node.input(1)
        guard value.type.byteSize != nil else {
            throw InterpreterError.invalidModel("ASSIGN_VARIABLE: value '\(value.name)' has unsupported type \(value.type)")
        }
    }

    func invoke(_ node: NodeContext) throws {
        guard let host else { throw InterpreterError.invocationFailed("ASSIGN_VARIABLE: no executor attached") }
        let (variables, handle) = try VariableHandle.read(node, host, "ASSIGN_VARIABLE")
        let value = try node.input(1)
        try variables.assign(handle, type: value.type, shape: value.shape, from: value.data, byteCount: value.byteCount)
    }
}

/// Access to the handle that READ_VARIABLE and ASSIGN_VARIABLE take as input 0.
enum VariableHandle {
    /// The interpreter's variables, or a typed error for an executor run on its own.
    static func variables(_ host: ExecutionHost?, _ op: String) throws -> ResourceVariables {
        guard let variables = host?.subgraphCalls?.variables else {
            throw InterpreterError.invalidModel("\(op): this executor has no resource variables")
        }
        return variables
    }

    /// Checks that `input` is a handle as VAR_HANDLE prepares it (one int32).
    static func checkHandle(_ input: RuntimeTensor, _ op: String) throws {
        guard input.type == .int32, input.elementCount == 1 else {
            throw InterpreterError.invalidModel(
                "\(op): input '\(input.name)' (\(input.type) \(input.shape)) is not a variable handle from VAR_HANDLE")
        }
    }

    /// The variables and the handle held by input 0 of `node`.
    static func read(_ node: NodeContext, _ host: ExecutionHost, _ op: String) throws -> (ResourceVariables, Int32) {
        let variables = try variables(host, op)
        let input = try node.input(0)
        try checkHandle(input, op)
        let handle = try DataMovementSupport.data(input, op).load(as: Int32.self)
        guard variables.isKnown(handle) else {
            throw InterpreterError.invocationFailed("\(op): '\(input.name)' holds \(handle), not a variable handle")
        }
        return (variables, handle)
    }
}
