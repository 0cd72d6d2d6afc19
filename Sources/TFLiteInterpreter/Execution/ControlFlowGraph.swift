import TFLiteSchema

/// Load-time checks of the calls between subgraphs: every subgraph an IF, WHILE or CALL_ONCE
/// names exists, has the number of inputs and outputs the operator passes, and no subgraph
/// calls itself, directly or through others (the reference runtime would recurse without end).
/// Every violation is an ``InterpreterError/invalidModel(_:)`` naming the operator.
enum ControlFlowGraph {
    /// One call: the calling subgraph and operator, and the subgraphs it names in its options.
    struct Call {
        let subgraph: Int
        let position: Int
        let name: String
        let callees: [Int]
    }

    /// The subgraphs `op` calls, with the role of each, or nil for other operators (an absent
    /// field is 0, the schema's default).
    /// - Throws: ``InterpreterError/invalidModel(_:)`` when the options are another table's.
    static func callees(of op: OperatorDescription, code: OperatorCode) throws -> [(index: Int, role: String)]? {
        do {
            switch code.builtin {
            case .if:
                let o = try op.options(IfOptions.self, operator: code.displayName)
                return [(Int(o.thenSubgraphIndex), "then"), (Int(o.elseSubgraphIndex), "else")]
            case .while:
                let o = try op.options(WhileOptions.self, operator: code.displayName)
                return [(Int(o.condSubgraphIndex), "cond"), (Int(o.bodySubgraphIndex), "body")]
            case .callOnce:
                return [(Int(try op.options(CallOnceOptions.self, operator: code.displayName).initSubgraphIndex), "init")]
            default: return nil
            }
        } catch let error as TFLiteSchemaError {
            throw InterpreterError.invalidModel(error.description)
        }
    }

    /// Checks every call of `file`: indices first, then recursion, then input and output counts
    /// (so a subgraph calling itself is reported as recursion, whatever its arity).
    static func validate(_ file: TFLiteModelFile) throws {
        let subgraphs = file.subgraphs
        var calls: [(caller: Int, name: String, op: OperatorDescription, code: BuiltinOperator, index: Int, role: String)] = []
        for (caller, subgraph) in subgraphs.enumerated() {
            for (position, op) in subgraph.operators.enumerated() {
                guard file.operatorCodes.indices.contains(op.opcodeIndex),
                      let callees = try callees(of: op, code: file.operatorCodes[op.opcodeIndex]) else { continue }
                let code = file.operatorCodes[op.opcodeIndex]
                let name = "subgraph \(caller) operator \(position) (\(code.displayName))"
                if code.builtin == .while, op.outputs.count != op.inputs.count {
                    throw InterpreterError.invalidModel(
                        "\(name): \(op.inputs.count) inputs but \(op.outputs.count) outputs (the loop state is both)")
                }
                for (index, role) in callees {
                    guard subgraphs.indices.contains(index) else {
                        throw InterpreterError.invalidModel(
                            "\(name): \(role) subgraph \(index) does not exist (the model has \(subgraphs.count))")
                    }
                    calls.append((caller, name, op, code.builtin, index, role))
                }
            }
        }
        var edges = [[Int]](repeating: [], count: subgraphs.count)
        for call in calls { edges[call.caller].append(call.index) }
        if let cycle = firstCycle(edges) {
            throw InterpreterError.invalidModel(
                "subgraphs call themselves recursively (\(cycle.map(String.init).joined(separator: " -> ")))")
        }
        for call in calls {
            let (inputs, outputs) = expectedArity(call.op, code: call.code, role: call.role)
            let callee = subgraphs[call.index]
            guard callee.inputs.count == inputs, callee.outputs.count == outputs else {
                throw InterpreterError.invalidModel(
                    "\(call.name): \(call.role) subgraph \(call.index) has \(callee.inputs.count) inputs and "
                    + "\(callee.outputs.count) outputs, the operator needs \(inputs) and \(outputs)")
            }
        }
    }

    /// Inputs and outputs the called subgraph must have: IF passes its inputs after the
    /// condition and returns all outputs; WHILE's cond takes the loop state and returns one
    /// boolean, its body maps the loop state to the loop state; CALL_ONCE's init takes nothing.
    private static func expectedArity(_ op: OperatorDescription, code: BuiltinOperator, role: String) -> (Int, Int) {
        switch (code, role) {
        case (.if, _): return (max(0, op.inputs.count - 1), op.outputs.count)
        case (.while, "cond"): return (op.inputs.count, 1)
        case (.while, _): return (op.inputs.count, op.inputs.count)
        default: return (0, 0)
        }
    }

    /// A cycle in the call graph as a list of subgraph indices (first repeated at the end), or nil.
    static func firstCycle(_ edges: [[Int]]) -> [Int]? {
        // Iterative depth-first search: 0 unvisited, 1 on the current path, 2 done.
        var state = [UInt8](repeating: 0, count: edges.count)
        for start in edges.indices where state[start] == 0 {
            var path: [(node: Int, next: Int)] = [(start, 0)]
            state[start] = 1
            while let top = path.last {
                if top.next < edges[top.node].count {
                    path[path.count - 1].next += 1
                    let callee = edges[top.node][top.next]
                    if state[callee] == 1 {
                        let from = path.firstIndex { $0.node == callee }!
                        return path[from...].map(\.node) + [callee]
                    }
                    if state[callee] == 0 { state[callee] = 1; path.append((callee, 0)) }
                } else {
                    state[top.node] = 2
                    path.removeLast()
                }
            }
        }
        return nil
    }
}
