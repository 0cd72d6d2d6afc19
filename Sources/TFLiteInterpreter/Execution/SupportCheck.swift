import TFLiteSchema

extension Model {
    /// Every operator and option combination in `file` that this engine cannot run, by
    /// subgraph, operator index and name, found without building an interpreter or invoking
    /// anything the model computes from its inputs.
    ///
    /// Unlike ``Model/init(file:limits:)`` and `allocateTensors()`, which stop at the first
    /// problem, the check goes on after each one: it lists every operator code the engine
    /// lacks (in every subgraph, used or not, as loading rejects them all), then runs the
    /// prepare-time validation of every operator that would run, in order, with the model's
    /// declared input shapes. Operators whose inputs are all constant (and `SHAPE` chains) are
    /// evaluated as loading does, so later operators see the same constants. After a failed
    /// operator its outputs keep the shapes and types the file declares, so the check can go on.
    ///
    /// - Complexity: one prepare pass over the model (kernels may pack weights, as at load);
    ///   no arena is planned.
    public static func checkSupport(_ file: TFLiteModelFile, limits: ResourceLimits = .default) -> SupportReport {
        checkSupport(file, resolver: OperatorRegistry.factory(for:), limits: limits)
    }

    /// ``checkSupport(_:limits:)`` under `resolver` (tests inject kernels this way).
    static func checkSupport(_ file: TFLiteModelFile, resolver: (OperatorCode) -> OperatorFactory?,
                             limits: ResourceLimits = .default) -> SupportReport {
        let factories = file.operatorCodes.map { resolver($0) }
        // Control flow and resource variables are prepared against the model's subgraphs.
        let host = SupportCheckHost.isNeeded(for: file) ? SupportCheckHost(file: file, resolver: resolver, limits: limits) : nil
        defer { withExtendedLifetime(host) {} }
        var findings: [SupportReport.Finding] = []
        for (index, subgraph) in file.subgraphs.enumerated() {
            var subgraphFindings: [SupportReport.Finding] = []
            for (position, op) in subgraph.operators.enumerated()
            where file.operatorCodes.indices.contains(op.opcodeIndex) && factories[op.opcodeIndex] == nil {
                let name = file.operatorCodes[op.opcodeIndex].displayName
                subgraphFindings.append(.init(subgraph: index, operatorIndex: position, operatorName: name,
                                              reason: .unknownOperator, message: "no kernel for operator \(name)"))
            }
            subgraphFindings += SupportCheck.prepareAll(file, subgraphIndex: index, factories: factories, limits: limits,
                                                        host: host)
            // Subgraph-wide problems first, then by operator (stable: one finding per operator at most).
            findings += subgraphFindings.enumerated().sorted {
                ($0.element.operatorIndex ?? -1, $0.offset) < ($1.element.operatorIndex ?? -1, $1.offset)
            }.map(\.element)
        }
        if file.subgraphs.isEmpty {
            findings.append(.init(subgraph: 0, operatorIndex: nil, operatorName: nil, reason: .invalidModel,
                                  message: "the model has no subgraph"))
        }
        return SupportReport(findings: findings)
    }
}

/// The collecting prepare pass behind ``Model/checkSupport(_:limits:)``.
enum SupportCheck {
    /// Prepares every live operator of one subgraph with a known kernel, collecting failures.
    /// Kernels that need an ``ExecutionHost`` (control flow, resource variables) get `host`.
    static func prepareAll(_ file: TFLiteModelFile, subgraphIndex: Int, factories: [OperatorFactory?],
                           limits: ResourceLimits, host: ExecutionHost? = nil) -> [SupportReport.Finding] {
        var storage: [AlignedBuffer] = []
        var budget = MemoryBudget(limits: limits)
        let blueprint: SubgraphBlueprint
        do {
            // Unknown operators have no factory: the blueprint keeps them live instead of folding them.
            blueprint = try SubgraphBlueprint(file: file, subgraphIndex: subgraphIndex, factories: factories,
                                              storage: &storage, budget: &budget)
        } catch {
            let (reason, message) = classify(error)
            return [.init(subgraph: subgraphIndex, operatorIndex: nil, operatorName: nil, reason: reason, message: message)]
        }
        var findings: [SupportReport.Finding] = []
        let tensors = blueprint.makeRuntimeTensors()
        let graphInputs = Set(blueprint.description.inputs)
        let serial = ThreadPool(threadCount: 1)
        var evaluated: [AlignedBuffer] = []
        for position in blueprint.liveOperators {
            let op = blueprint.description.operators[position]
            guard let factory = factories[op.opcodeIndex] else { continue }
            let memory = SharedMemoryBudget(budget)
            let context = SubgraphBlueprint.makeContext(op, codes: blueprint.codes, tensors: tensors,
                                                        threads: serial, memory: memory)
            let name = context.code.displayName
            let kernel = factory()
            if let host, let hosted = kernel.roles.hosted { hosted.attach(host) }
            do {
                try KernelErrors.preparing(name) { try kernel.prepare(context) }
                for output in context.outputs { _ = try TensorLayout.checkedByteCount(output, name, budget: budget) }
                // Values that depend only on constants and shapes are computed now, as `prepare()` does.
                guard try AheadOfTimeEvaluation.evaluatesNow(context, graphInputs: graphInputs,
                                                             subgraph: blueprint.description,
                                                             phase: .prepare, budget: budget) else { continue }
                evaluated += try AheadOfTimeEvaluation.evaluate(kernel, context, position: position, budget: budget,
                                                                phase: .prepare) { try budget.reserve($0, $1) }
            } catch {
                let (reason, message) = classify(error)
                findings.append(.init(subgraph: subgraphIndex, operatorIndex: position, operatorName: name,
                                      reason: reason, message: message))
            }
        }
        withExtendedLifetime(evaluated) {}
        withExtendedLifetime(storage) {}
        return findings
    }

    /// The reason class and message of a prepare error. Kernels report missing type and
    /// option combinations as ``InterpreterError/unsupportedOperator(name:)`` or as an
    /// `invalidModel` message saying "unsupported"; a fused activation names itself.
    static func classify(_ error: Error) -> (SupportReport.Reason, String) {
        guard let error = error as? InterpreterError else { return (.invalidModel, "\(error)") }
        switch error {
        case let .unsupportedOperator(name):
            return (mentionsOption(name) ? .unsupportedOption : .unsupportedType, "unsupported: \(name)")
        case let .invalidModel(message):
            if message.contains("unsupported") { return (mentionsOption(message) ? .unsupportedOption : .unsupportedType, message) }
            if message.contains("unknown fused activation") { return (.unsupportedOption, message) }
            return (.invalidModel, message)
        case let .resourceLimitExceeded(message):
            return (.resourceLimit, message)
        default:
            return (.invalidModel, error.description)
        }
    }

    /// Whether a message is about an option (a fused activation or a named option) rather than types.
    private static func mentionsOption(_ message: String) -> Bool {
        message.contains("activation") || message.contains("option")
    }
}
