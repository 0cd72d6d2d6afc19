/// Semantic checks run at load, after decoding: every index in range, constant buffers sized
/// to their shapes, a well-formed dataflow graph and consistent quantization arrays.
/// The first violation throws a `TFLiteSchemaError` naming the element. The names are made
/// only then (autoclosures): formatting one per tensor and operator was a visible part of
/// every model load.
struct ModelValidator {
    let operatorCodes: [OperatorCode]
    let subgraphs: [SubgraphDescription]
    /// Byte count of each buffer.
    let bufferSizes: [Int]
    let signatures: [SignatureDescription]
    let metadataEntries: [MetadataEntry]

    func validate() throws {
        for (index, subgraph) in subgraphs.enumerated() { try validate(subgraph, index: index) }
        for (index, signature) in signatures.enumerated() {
            let element = "signature \(index) (\(signature.key))"
            try check(signature.subgraphIndex, count: subgraphs.count, "\(element) subgraph")
            let tensorCount = subgraphs[signature.subgraphIndex].tensors.count
            for entry in signature.inputs { try check(entry.tensorIndex, count: tensorCount, "\(element) input \(entry.name)") }
            for entry in signature.outputs { try check(entry.tensorIndex, count: tensorCount, "\(element) output \(entry.name)") }
        }
        for (index, entry) in metadataEntries.enumerated() {
            try check(entry.buffer, count: bufferSizes.count, "metadata entry \(index) (\(entry.name)) buffer")
        }
    }

    private func check(_ index: Int, count: Int, _ element: @autoclosure () -> String) throws {
        guard index >= 0, index < count else {
            throw TFLiteSchemaError.indexOutOfRange(element: element(), index: index, count: count)
        }
    }

    private func validate(_ subgraph: SubgraphDescription, index: Int) throws {
        let prefix = "subgraph \(index)"
        let tensorCount = subgraph.tensors.count
        for (tensorIndex, tensor) in subgraph.tensors.enumerated() {
            try validate(tensor, element: "\(prefix) tensor \(tensorIndex) (\(tensor.name))")
        }
        var isGraphInput = [Bool](repeating: false, count: tensorCount)
        for (position, input) in subgraph.inputs.enumerated() {
            try check(input, count: tensorCount, "\(prefix) input \(position)")
            isGraphInput[input] = true
        }
        for (position, output) in subgraph.outputs.enumerated() {
            try check(output, count: tensorCount, "\(prefix) output \(position)")
        }
        var producer = [Int](repeating: -1, count: tensorCount)
        for (opIndex, op) in subgraph.operators.enumerated() {
            try check(op.opcodeIndex, count: operatorCodes.count, "\(prefix) operator \(opIndex) opcode index")
            func opName() -> String { "\(prefix) operator \(opIndex) (\(operatorCodes[op.opcodeIndex].displayName))" }
            for (position, input) in op.inputs.enumerated() where input != -1 {
                try check(input, count: tensorCount, "\(opName()) input \(position)")
            }
            try validateSubgraphReferences(op, builtin: operatorCodes[op.opcodeIndex].builtin, element: opName())
            for (position, tensor) in op.intermediates.enumerated() {
                try check(tensor, count: tensorCount, "\(opName()) intermediate \(position)")
            }
            for (position, output) in op.outputs.enumerated() {
                try check(output, count: tensorCount, "\(opName()) output \(position)")
                let tensor = subgraph.tensors[output]
                if bufferSizes[tensor.buffer] > 0 {
                    throw TFLiteSchemaError.invalidGraph(element: "\(opName()) output \(position)",
                                                         reason: "writes constant tensor \(output) (\(tensor.name))")
                }
                if isGraphInput[output] {
                    throw TFLiteSchemaError.invalidGraph(element: "\(opName()) output \(position)",
                                                         reason: "writes graph input tensor \(output) (\(tensor.name))")
                }
                if producer[output] >= 0 {
                    throw TFLiteSchemaError.invalidGraph(
                        element: "\(opName()) output \(position)",
                        reason: "tensor \(output) (\(tensor.name)) is already produced by operator \(producer[output])")
                }
                producer[output] = opIndex
            }
        }
    }

    /// Control-flow operators name other subgraphs in their typed options: IF (then, else),
    /// WHILE (cond, body), CALL_ONCE (init).
    private func validateSubgraphReferences(_ op: OperatorDescription, builtin: BuiltinOperator,
                                            element: @autoclosure () -> String) throws {
        guard builtin == .if || builtin == .while || builtin == .callOnce else { return }
        guard op.builtinOptions != nil else {
            throw TFLiteSchemaError.invalidGraph(element: element(), reason: "control-flow operator without options")
        }
        let references: [(Int32, String)]
        switch builtin {
        case .if:
            let o = try op.options(IfOptions.self, operator: builtin.description)
            references = [(o.thenSubgraphIndex, "then subgraph"), (o.elseSubgraphIndex, "else subgraph")]
        case .while:
            let o = try op.options(WhileOptions.self, operator: builtin.description)
            references = [(o.condSubgraphIndex, "cond subgraph"), (o.bodySubgraphIndex, "body subgraph")]
        default:
            references = [(try op.options(CallOnceOptions.self, operator: builtin.description).initSubgraphIndex, "init subgraph")]
        }
        for (index, name) in references {
            try check(Int(index), count: subgraphs.count, "\(element()) \(name)")
        }
    }

    private func validate(_ tensor: TensorDescription, element: @autoclosure () -> String) throws {
        try check(tensor.buffer, count: bufferSizes.count, "\(element()) buffer")
        var elementCount = 1
        for dimension in tensor.shape {
            guard dimension >= 0 else {
                throw TFLiteSchemaError.invalidShape(tensor: element(), shape: tensor.shape, reason: "negative dimension")
            }
            let (product, overflow) = elementCount.multipliedReportingOverflow(by: dimension)
            guard !overflow, product <= Int(Int32.max) else {
                throw TFLiteSchemaError.invalidShape(tensor: element(), shape: tensor.shape,
                                                     reason: "element count overflows")
            }
            elementCount = product
        }
        if let signature = tensor.shapeSignature {
            guard signature.count == tensor.shape.count, signature.allSatisfy({ $0 >= -1 }) else {
                throw TFLiteSchemaError.invalidShape(tensor: element(), shape: signature,
                                                     reason: "shape signature does not match shape \(tensor.shape)")
            }
        }
        try validateQuantization(tensor, element: element())
        let actual = bufferSizes[tensor.buffer]
        guard actual > 0, tensor.sparsity == nil else { return }
        let expected: Int
        switch tensor.type {
        case .string, .resource, .variant: return
        case .int4: expected = (elementCount + 1) / 2
        default:
            let (bytes, overflow) = elementCount.multipliedReportingOverflow(by: tensor.type.byteSize ?? 1)
            guard !overflow else {
                throw TFLiteSchemaError.invalidShape(tensor: element(), shape: tensor.shape, reason: "byte size overflows")
            }
            expected = bytes
        }
        guard actual == expected else {
            throw TFLiteSchemaError.bufferSizeMismatch(tensor: element(), expected: expected, actual: actual)
        }
    }

    private func validateQuantization(_ tensor: TensorDescription, element: @autoclosure () -> String) throws {
        guard let quantization = tensor.quantization else { return }
        let scales = quantization.scales.count
        guard quantization.zeroPoints.count == scales else {
            throw TFLiteSchemaError.invalidQuantization(
                tensor: element(), reason: "\(scales) scales but \(quantization.zeroPoints.count) zero points")
        }
        if let bad = quantization.scales.first(where: { !$0.isFinite || $0 < 0 }) {
            throw TFLiteSchemaError.invalidQuantization(
                tensor: element(), reason: "scale \(bad) is not a finite, non-negative number")
        }
        if let bad = quantization.zeroPoints.first(where: { Int32(exactly: $0) == nil }) {
            throw TFLiteSchemaError.invalidQuantization(tensor: element(), reason: "zero point \(bad) is outside the 32-bit range")
        }
        guard scales > 1 else { return }
        let axis = quantization.quantizedDimension
        guard axis >= 0, axis < tensor.shape.count else {
            throw TFLiteSchemaError.invalidQuantization(
                tensor: element(), reason: "quantized dimension \(axis) outside rank \(tensor.shape.count)")
        }
        guard tensor.shape[axis] == scales else {
            throw TFLiteSchemaError.invalidQuantization(
                tensor: element(), reason: "\(scales) per-axis scales for dimension \(axis) of size \(tensor.shape[axis])")
        }
    }
}
