import TFLiteSchema

/// The executors of the subgraphs that control-flow operators (IF, WHILE, CALL_ONCE) call, one
/// per called subgraph, created on first use and shared by every call site of one interpreter
/// (or signature runner), plus the per-invoke WHILE iteration count.
///
/// Calls never nest into a subgraph that is already running: the model rejects recursion at load
/// (``ControlFlowGraph``), so one executor per subgraph is enough. A called executor keeps its
/// plan between calls and re-plans only when a call brings different input shapes.
/// Each called executor counts its memory against the same ``ResourceLimits`` as the caller.
final class SubgraphCalls {
    /// Every subgraph of the model.
    let blueprints: [SubgraphBlueprint]
    /// The interpreter's resource variables and CALL_ONCE record.
    let variables: ResourceVariables
    /// The limits (memory per executor, WHILE iterations per invoke).
    let limits: ResourceLimits
    private let threads: ThreadPool
    private let budget: MemoryBudget
    private let fusesMultiplyAdd: Bool
    private var executors: [Int: SubgraphExecutor] = [:]
    /// WHILE body runs since the current root invoke began.
    private(set) var whileIterations = 0

    init(model: Model, threads: ThreadPool, variables: ResourceVariables, fusesMultiplyAdd: Bool) {
        blueprints = model.subgraphs
        self.variables = variables
        limits = model.resourceLimits
        self.threads = threads
        budget = MemoryBudget(limits: model.resourceLimits, alreadyUsed: model.derivedConstantByteCount)
        self.fusesMultiplyAdd = fusesMultiplyAdd
    }

    /// The executor of subgraph `index` (created, not yet prepared, on first use).
    /// - Throws: ``InterpreterError/invalidModel(_:)`` for an index outside the model.
    func executor(for index: Int) throws -> SubgraphExecutor {
        if let executor = executors[index] { return executor }
        guard blueprints.indices.contains(index) else {
            throw InterpreterError.invalidModel("subgraph \(index) does not exist (the model has \(blueprints.count))")
        }
        let executor = SubgraphExecutor(blueprint: blueprints[index], threads: threads, budget: budget,
                                        fusesMultiplyAdd: fusesMultiplyAdd, calls: self, isCallee: true)
        executors[index] = executor
        return executor
    }

    /// Called by the root executor at the start of each invoke.
    func beginInvoke() { whileIterations = 0 }

    /// Counts one WHILE body run.
    /// - Throws: ``InterpreterError/resourceLimitExceeded(_:)`` past ``ResourceLimits/maximumWhileIterations``.
    func countWhileIteration(_ subject: @autoclosure () -> String) throws {
        whileIterations += 1
        guard whileIterations <= limits.maximumWhileIterations else {
            throw InterpreterError.resourceLimitExceeded(
                "\(subject()) needs more than \(limits.maximumWhileIterations) WHILE iterations in one invoke "
                + "(ResourceLimits.maximumWhileIterations)")
        }
    }
}
