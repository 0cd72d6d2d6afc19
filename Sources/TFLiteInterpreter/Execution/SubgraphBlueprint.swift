import TFLiteSchema
import TFLiteKernels

/// What every execution of one subgraph shares, computed once per ``Model``: the validated
/// graph, the kernel factories, the constant tensors (including folded ones) and the list of
/// operators that remain to run at invoke.
struct SubgraphBlueprint: @unchecked Sendable {
    /// Position of the subgraph in the model.
    let subgraphIndex: Int
    /// The subgraph as read from the file.
    let description: SubgraphDescription
    /// Constant data per tensor index, nil for tensors computed at run time.
    let constants: [ConstantTensor?]
    /// Indices (into `description.operators`) of the operators that run at invoke, in order.
    let liveOperators: [Int]
    /// Weights packed by the optimized kernels, shared by every interpreter of the model.
    let packedWeights: PackedWeightCache
    /// Kernel factory per operator-code index (nil for codes the graph does not use).
    let factories: [OperatorFactory?]
    /// The model's operator-code table.
    let codes: [OperatorCode]

    /// Validates subgraph `subgraphIndex` of `file`, locates its constants, drops the operators
    /// whose results nothing uses, and folds the operators whose inputs are all constant.
    /// Copies and folded outputs go to `storage`, each reserved in `budget` before it is allocated.
    init(file: TFLiteModelFile, subgraphIndex: Int, factories: [OperatorFactory?],
         storage: inout [AlignedBuffer], budget: inout MemoryBudget) throws {
        let subgraph = file.subgraphs[subgraphIndex]
        self.subgraphIndex = subgraphIndex
        self.description = subgraph
        self.factories = factories
        self.codes = file.operatorCodes
        try Self.validate(subgraph, operatorCodeCount: file.operatorCodes.count, subgraphIndex: subgraphIndex)
        var constants = try Self.locateConstants(of: subgraph, in: file, storage: &storage, budget: &budget)
        for (position, op) in subgraph.operators.enumerated() {
            for output in op.outputs where constants[output] != nil {
                throw InterpreterError.invalidModel(
                    "subgraph \(subgraphIndex): operator \(position) writes tensor \(output) '\(subgraph.tensors[output].name)', "
                    + "which holds constant data from the model")
            }
        }
        var live: [Int] = []
        let tensors = Self.makeRuntimeTensors(subgraph, constants)
        let graphInputs = Set(subgraph.inputs)
        let serial = ThreadPool(threadCount: 1)
        let signatures = file.signatures.filter { $0.subgraphIndex == subgraphIndex }
        let used = Self.usedOperators(subgraph, extraRoots: signatures.flatMap { $0.outputs.map(\.tensorIndex) })
        let dequantizations = try Self.deferredDequantizations(
            subgraph, codes: file.operatorCodes, factories: factories, constants: constants, used: used,
            signatureTensors: signatures.flatMap { ($0.inputs + $0.outputs).map(\.tensorIndex) })
        let foldedRegion = Self.foldedOutputRegion(subgraph, constants: constants,
                                                   used: used.indices.map { used[$0] && dequantizations[$0] == nil })
        for (position, op) in subgraph.operators.enumerated() where used[position] {
            // The folding kernel's scratch lives only while it folds: checked on top of the budget, not kept in it.
            let context = Self.makeContext(op, codes: file.operatorCodes, tensors: tensors, threads: serial,
                                           memory: SharedMemoryBudget(budget))
            guard let factory = factories[op.opcodeIndex], AheadOfTimeEvaluation.isCandidate(
                    context, graphInputs: graphInputs, subgraph: subgraph, phase: .load) else {
                live.append(position); continue
            }
            let name = context.code.displayName
            let kernel = factory()
            try KernelErrors.preparing(name) { try kernel.prepare(context) }
            guard try AheadOfTimeEvaluation.evaluatesNow(context, graphInputs: graphInputs, subgraph: subgraph,
                                                         phase: .load, budget: budget) else { live.append(position); continue }
            if let dequantization = dequantizations[position], let output = context.outputs.first,
               output.type == .float32, output.byteCount == dequantization.byteCount {
                // Counted as the folded output it stands for; its pages are provided only if materialized.
                try budget.reserve(output.byteCount, "\(name) (operator \(position)): constant output '\(output.name)'")
                output.data = dequantization.home
                output.isConstant = true
                output.dequantization = dequantization
                constants[output.index] = ConstantTensor(data: dequantization.home, type: .float32, shape: output.shape,
                                                         quantization: output.quantization, byteCount: output.byteCount,
                                                         dequantization: dequantization)
                continue
            }
            storage += try AheadOfTimeEvaluation.evaluate(kernel, context, position: position, budget: budget,
                                                          phase: .load, region: foldedRegion) { try budget.reserve($0, $1) }
            for output in context.outputs {
                constants[output.index] = ConstantTensor(data: output.data!, type: output.type,
                                                         shape: output.shape, quantization: output.quantization,
                                                         byteCount: output.byteCount)
            }
        }
        foldedRegion?.releaseUnusedTail()
        self.constants = constants
        self.packedWeights = PackedWeightCache(constants: constants)
        self.liveOperators = live
    }

    /// Whether an operator that runs at invoke turns float activations into integers: a hybrid
    /// layer (a float activation with constant 8-bit weights) or any operator whose float
    /// activation input gives a non-float output (QUANTIZE, CAST, ARG_MAX, comparisons). There a
    /// one-ulp difference upstream can become a whole integer step (see `FloatArithmetic`).
    var quantizesFloatActivations: Bool {
        let tensors = description.tensors
        func isFloat(_ index: Int) -> Bool { tensors[index].type == .float32 || tensors[index].type == .float16 }
        return liveOperators.contains { position in
            let op = description.operators[position]
            let inputs = op.inputs.filter { $0 >= 0 && $0 < tensors.count }
            guard inputs.contains(where: { isFloat($0) && constants[$0] == nil }) else { return false }
            let hybrid = inputs.contains { constants[$0] != nil && [.int8, .uint8].contains(tensors[$0].type) }
            let integerResult = op.outputs.contains { $0 >= 0 && $0 < tensors.count && !isFloat($0) }
            return hybrid || integerResult
        }
    }

    /// Whether evaluating `node` ahead of time (at load or prepare) keeps memory proportional
    /// to the model: its outputs may be at most 16 times its constant inputs plus 1 MiB (weights
    /// dequantized or densified, shape arithmetic). Larger outputs (a FILL or RESIZE of a few
    /// bytes into a gigabyte) run at invoke instead, from the arena, whose plan is checked
    /// against the total budget as a whole before anything is allocated.
    static func foldsWithoutAmplifying(_ node: NodeContext, budget: MemoryBudget) throws -> Bool {
        var inputBytes = 0, outputBytes = 0
        for input in node.inputs.compactMap({ $0 }) { inputBytes += TensorLayout.byteCount(input.shape, input.type) ?? 0 }
        for output in node.outputs {
            outputBytes += try TensorLayout.checkedByteCount(output, node.code.displayName, budget: budget)
        }
        return outputBytes <= 16 * inputBytes + (1 << 20)
    }

    /// Which operators contribute to a result: those writing a graph output, a variable, a
    /// tensor in `extraRoots` (signature outputs) or a tensor a contributing operator reads,
    /// and those with no outputs (side effects). The others never run: a model cannot make
    /// the engine allocate or compute values nobody reads.
    static func usedOperators(_ subgraph: SubgraphDescription, extraRoots: [Int]) -> [Bool] {
        let count = subgraph.tensors.count
        var needed = [Bool](repeating: false, count: count)
        for index in subgraph.outputs + extraRoots where (0..<count).contains(index) { needed[index] = true }
        for (index, t) in subgraph.tensors.enumerated() where t.isVariable { needed[index] = true }
        var used = [Bool](repeating: false, count: subgraph.operators.count)
        // Operators are in execution order (validated), so one backward pass suffices.
        for (position, op) in subgraph.operators.enumerated().reversed() {
            guard op.outputs.isEmpty || op.outputs.contains(where: { needed[$0] }) else { continue }
            used[position] = true
            for input in op.inputs where input >= 0 { needed[input] = true }
            for input in op.intermediates where input >= 0 { needed[input] = true }
        }
        return used
    }

    /// Operators that are never evaluated ahead of time, even on constant inputs: they call other
    /// subgraphs or touch the interpreter's resource variables (state that exists only at invoke).
    static func runsOnlyAtInvoke(_ op: BuiltinOperator) -> Bool {
        [.if, .while, .callOnce, .varHandle, .readVariable, .assignVariable].contains(op)
    }

    /// Fresh run-time tensors for one execution: constants point at their data.
    func makeRuntimeTensors() -> [RuntimeTensor] { Self.makeRuntimeTensors(description, constants) }

    /// The node context of `op` over `tensors`, its kernel scratch counted in `memory`, the
    /// scratch its kernel requests recorded for placement (see ``NodeScratch``).
    static func makeContext(_ op: OperatorDescription, codes: [OperatorCode], tensors: [RuntimeTensor],
                            threads: ThreadPool, memory: SharedMemoryBudget?) -> NodeContext {
        NodeContext(code: codes[op.opcodeIndex],
                    inputs: op.inputs.map { $0 < 0 ? nil : tensors[$0] },
                    outputs: op.outputs.map { tensors[$0] },
                    options: op.builtinOptions, customOptions: op.customOptions, threads: threads, memory: memory,
                    scratch: NodeScratch())
    }

    /// Tensors declared `resource` (VAR_HANDLE outputs, and the subgraph inputs and outputs that
    /// carry a handle into IF / WHILE bodies) are one int32 handle in this engine (see
    /// `VarHandleOperator`), so a called subgraph's handle input takes the caller's handle as is.
    private static func makeRuntimeTensors(_ subgraph: SubgraphDescription,
                                           _ constants: [ConstantTensor?]) -> [RuntimeTensor] {
        subgraph.tensors.enumerated().map { index, t in
            let constant = constants[index]
            let isHandle = constant == nil && t.type == .resource
            let tensor = RuntimeTensor(index: index, name: t.name, type: constant?.type ?? (isHandle ? .int32 : t.type),
                                       shape: constant?.shape ?? (isHandle ? [] : t.shape),
                                       quantization: constant?.quantization ?? t.quantization,
                                       sparsity: t.sparsity, isConstant: constant != nil)
            tensor.data = constant?.data
            tensor.constantByteCount = constant?.byteCount
            tensor.deferred = constant?.deferred
            tensor.dequantization = constant?.dequantization
            return tensor
        }
    }

    /// Checks every index the subgraph holds.
    private static func validate(_ subgraph: SubgraphDescription, operatorCodeCount: Int,
                                 subgraphIndex: Int) throws {
        let count = subgraph.tensors.count
        func check(_ indices: [Int], _ role: String, optional: Bool = false) throws {
            for i in indices where !(0..<count).contains(i) && !(optional && i == -1) {
                throw InterpreterError.invalidModel(
                    "subgraph \(subgraphIndex): \(role) refers to tensor \(i), the subgraph has \(count)")
            }
        }
        try check(subgraph.inputs, "graph input")
        try check(subgraph.outputs, "graph output")
        for (position, op) in subgraph.operators.enumerated() {
            guard (0..<operatorCodeCount).contains(op.opcodeIndex) else {
                throw InterpreterError.invalidModel(
                    "subgraph \(subgraphIndex): operator \(position) has operator code \(op.opcodeIndex) of \(operatorCodeCount)")
            }
            try check(op.inputs, "operator \(position) input", optional: true)
            try check(op.outputs, "operator \(position) output")
            try check(op.intermediates, "operator \(position) intermediate", optional: true)
        }
        for t in subgraph.tensors where TensorLayout.elementCount(t.shape) == nil {
            throw InterpreterError.invalidModel("tensor '\(t.name)' has an invalid shape \(t.shape)")
        }
        try validateOrder(subgraph, subgraphIndex: subgraphIndex)
    }

    /// Checks that the operators are in a runnable (topological) order: no operator reads a
    /// tensor that the same or a later operator writes (a self-loop or a cycle), and no tensor
    /// is written twice. Tensors nobody writes (graph inputs, constants, and the harmless
    /// unwritten tensors of some exports) and variable tensors may be read anywhere.
    private static func validateOrder(_ subgraph: SubgraphDescription, subgraphIndex: Int) throws {
        var writer = [Int](repeating: -1, count: subgraph.tensors.count)
        for (position, op) in subgraph.operators.enumerated() {
            for output in op.outputs {
                guard writer[output] < 0 else {
                    throw InterpreterError.invalidModel(
                        "subgraph \(subgraphIndex): tensor \(output) '\(subgraph.tensors[output].name)' is written by "
                        + "operators \(writer[output]) and \(position); each tensor must have one producer")
                }
                writer[output] = position
            }
        }
        for (position, op) in subgraph.operators.enumerated() {
            // Variable tensors carry state from one invoke to the next: reading before writing is their point.
            for input in op.inputs where input >= 0 && writer[input] >= position && !subgraph.tensors[input].isVariable {
                let name = subgraph.tensors[input].name
                throw InterpreterError.invalidModel(writer[input] == position
                    ? "subgraph \(subgraphIndex): operator \(position) reads its own output, tensor \(input) '\(name)'"
                    : "subgraph \(subgraphIndex): operator \(position) reads tensor \(input) '\(name)' before operator "
                      + "\(writer[input]) writes it (the graph has a cycle or is not in execution order)")
            }
        }
    }

    /// The DEQUANTIZE operators whose outputs wait for the layers that pack them
    /// (``DeferredDequantization``), by position: used, reading one float16 constant that is not
    /// sparse, and writing one tensor that is only ever the weights (input 1) of CONV_2D or
    /// FULLY_CONNECTED layers whose kernels read them through
    /// ``NodeContext/preparing(with:_:readsRawWeights:)`` (``PlannedConvolutionOperator``): no
    /// other operator input, intermediate, graph or signature (`signatureTensors`) input or
    /// output, and not variable. (The float DEPTHWISE_CONV_2D kernels read their filter as the
    /// model lays it out: it would be materialized at once.)
    /// - Throws: ``InterpreterError/resourceLimitExceeded(_:)`` when the system refuses the
    ///   address space of their homes.
    private static func deferredDequantizations(_ subgraph: SubgraphDescription, codes: [OperatorCode],
                                                factories: [OperatorFactory?], constants: [ConstantTensor?], used: [Bool],
                                                signatureTensors: [Int]) throws -> [Int: DeferredDequantization] {
        let packs = codes.indices.map { code in
            [.conv2D, .fullyConnected].contains(codes[code].builtin) && factories[code].map { $0() is PlannedConvolutionOperator } == true
        }
        let count = subgraph.tensors.count
        var weightUses = [Bool](repeating: false, count: count), otherUses = weightUses
        for index in subgraph.inputs + subgraph.outputs + signatureTensors where (0..<count).contains(index) {
            otherUses[index] = true
        }
        for op in subgraph.operators {
            let packs = packs[op.opcodeIndex]
            for (slot, input) in op.inputs.enumerated() where input >= 0 {
                if packs && slot == 1 { weightUses[input] = true } else { otherUses[input] = true }
            }
            for index in op.intermediates where index >= 0 { otherUses[index] = true }
        }
        var positions: [Int] = [], sources: [(source: UnsafeRawPointer, count: Int)] = []
        for (position, op) in subgraph.operators.enumerated() where used[position] {
            guard codes[op.opcodeIndex].builtin == .dequantize, op.inputs.count == 1, op.outputs.count == 1,
                  let input = op.inputs.first, input >= 0, let constant = constants[input], constant.type == .float16,
                  subgraph.tensors[input].sparsity == nil, let values = TensorLayout.elementCount(constant.shape),
                  let bytes = TensorLayout.byteCount(constant.shape, .float16), constant.byteCount >= bytes,
                  values > 0 else { continue }
            let output = op.outputs[0]
            guard weightUses[output], !otherUses[output], !subgraph.tensors[output].isVariable else { continue }
            positions.append(position)
            sources.append((UnsafeRawPointer(constant.data), values))
        }
        return Dictionary(uniqueKeysWithValues: zip(positions, try DeferredDequantization.make(sources)))
    }

    /// Where the outputs folded at load go: one region on huge pages (``PackingRegion``) sized by
    /// the declared outputs of the `used` operators (those not deferred) whose inputs are all the
    /// file's constants (an estimate: shapes may be refined by the kernels, and folded outputs
    /// feed further folds), with room for twice that; nil where the system offers no huge pages
    /// or the estimate asks for none (under 256 KiB, ``PackingRegion/hugeByteCount(expected:)``).
    /// Measured on the AMD Zen 4 (EPYC family 25 model 17) when face_detection_full_range still
    /// folded all its 178 float16 weights at load (2.06 MB of float32, before
    /// ``DeferredDequantization``): their first-touch faults in 4 KiB pages (about 500) were
    /// about a quarter of its load.
    private static func foldedOutputRegion(_ subgraph: SubgraphDescription, constants: [ConstantTensor?],
                                           used: [Bool]) -> PackingRegion? {
        var expected = 0
        for (position, op) in subgraph.operators.enumerated() where used[position] {
            let inputs = op.inputs.filter { $0 >= 0 }
            guard !inputs.isEmpty, inputs.allSatisfy({ constants[$0] != nil }) else { continue }
            for output in op.outputs {
                let t = subgraph.tensors[output]
                expected = expected.addingReportingOverflow(TensorLayout.byteCount(t.shape, t.type) ?? 0).partialValue
            }
        }
        guard expected > 0, expected <= AlignedBuffer.maximumByteCount else { return nil }
        return PackingRegion(capacity: 2 * expected, expectedByteCount: expected)
    }

    /// Finds the data of every tensor with a non-empty buffer; copies misaligned data.
    private static func locateConstants(of subgraph: SubgraphDescription, in file: TFLiteModelFile,
                                        storage: inout [AlignedBuffer],
                                        budget: inout MemoryBudget) throws -> [ConstantTensor?] {
        try subgraph.tensors.map { t -> ConstantTensor? in
            guard t.buffer > 0, !t.isVariable else { return nil }
            guard t.buffer < file.bufferCount else {
                throw InterpreterError.invalidModel(
                    "tensor '\(t.name)' uses buffer \(t.buffer), the model has \(file.bufferCount)")
            }
            let available = file.bufferByteCount(t.buffer)
            guard available > 0 else { return nil }
            if t.sparsity == nil, t.type.byteSize != nil {
                guard let required = TensorLayout.byteCount(t.shape, t.type), available >= required else {
                    throw InterpreterError.invalidModel(
                        "tensor '\(t.name)' (\(t.type) \(t.shape)) has \(available) bytes of data")
                }
            }
            let alignment = max(1, t.type.byteSize ?? 1)
            // Weights the file keeps until a prepare reads them (`DeferredWeights`): their place.
            if file.isDeferred(t.buffer), let home = file.bufferAddress(t.buffer), Int(bitPattern: home) % alignment == 0 {
                return ConstantTensor(data: UnsafeMutableRawPointer(mutating: home), type: t.type, shape: t.shape,
                                      quantization: t.quantization, byteCount: available,
                                      deferred: DeferredWeights(file: file, buffer: t.buffer))
            }
            let data: UnsafeMutableRawPointer = try file.withBufferBytes(t.buffer) { bytes in
                if let base = bytes.baseAddress, Int(bitPattern: base) % alignment == 0 {
                    return UnsafeMutableRawPointer(mutating: base)
                }
                try budget.reserve(bytes.count, "an aligned copy of constant tensor '\(t.name)'")
                let copy = try AlignedBuffer(copying: bytes)
                storage.append(copy)
                return copy.pointer
            }
            return ConstantTensor(data: data, type: t.type, shape: t.shape, quantization: t.quantization,
                                  byteCount: available)
        }
    }
}
