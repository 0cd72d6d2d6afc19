/// What a kernel sees of the executor running its node when it needs more than its tensors:
/// outputs whose shape is known only at invoke (WHERE on a computed input, IF and WHILE whose
/// called subgraphs change shapes), and the model's other subgraphs and resource variables.
protocol ExecutionHost: AnyObject {
    /// Sets `tensor`, an output of the node being invoked, to `shape` and points it at memory
    /// that holds it: its planned arena slot while that is large enough (no allocation), else a
    /// buffer of its own that is kept and reused by later invokes (allocated only when it grows).
    /// - Throws: ``InterpreterError/invocationFailed(_:)`` when the tensor was planned with a
    ///   fixed shape (its node did not report invoke-time shapes) and `shape` differs;
    ///   ``InterpreterError/resourceLimitExceeded(_:)`` when the memory passes the limits.
    func resizeOutput(_ tensor: RuntimeTensor, to shape: [Int]) throws
    /// The subgraphs control-flow operators call, shared by all executors of one interpreter
    /// (or signature runner); nil for an executor run on its own.
    var subgraphCalls: SubgraphCalls? { get }
}

/// A kernel that needs its ``ExecutionHost``. The executor attaches itself once, when it
/// creates its nodes, before the first `prepare`; the kernel keeps it weakly.
protocol HostedKernel: OperatorKernel {
    /// Gives the kernel its executor.
    func attach(_ host: ExecutionHost)
    /// After `prepare`: whether the node's output shapes may change at invoke. The executor then
    /// re-prepares, at invoke, the nodes that read those outputs whenever their input shapes
    /// differ from the ones they were last prepared with, and sizes their outputs' memory then.
    func hasInvokeTimeShapes(_ node: NodeContext) -> Bool
}
