import TFLiteSchema

/// The ``ExecutionHost`` of ``Model/checkSupport(_:limits:)``'s prepare pass, so that IF, WHILE,
/// CALL_ONCE and the resource-variable operators are checked as an interpreter prepares them:
/// they see the model's subgraphs (a called subgraph is prepared on the shapes its call site
/// gives it) and a fresh, empty set of variables. Nothing the model computes is invoked; an
/// output resized at prepare only records its shape.
final class SupportCheckHost: ExecutionHost {
    /// The model's subgraphs and variables, for the check only.
    let subgraphCalls: SubgraphCalls?
    private let threads = ThreadPool(threadCount: 1)

    /// A host for `file`, or nil when the file does not load as a model (unknown operators,
    /// recursion, ...): those problems are reported on their own, and control-flow operators
    /// are then reported as unable to call subgraphs.
    init?(file: TFLiteModelFile, resolver: (OperatorCode) -> OperatorFactory?, limits: ResourceLimits) {
        guard let model = try? Model(file: file, resolver: resolver, limits: limits) else { return nil }
        subgraphCalls = SubgraphCalls(model: model, threads: threads, variables: ResourceVariables(limits: limits),
                                      fusesMultiplyAdd: false)
    }

    /// Whether `file` uses an operator that needs a host (control flow or resource variables).
    static func isNeeded(for file: TFLiteModelFile) -> Bool {
        let hosted = file.operatorCodes.map { SubgraphBlueprint.runsOnlyAtInvoke($0.builtin) }
        return file.subgraphs.contains { $0.operators.contains { hosted.indices.contains($0.opcodeIndex) && hosted[$0.opcodeIndex] } }
    }

    func resizeOutput(_ tensor: RuntimeTensor, to shape: [Int]) throws { tensor.shape = shape }
}
