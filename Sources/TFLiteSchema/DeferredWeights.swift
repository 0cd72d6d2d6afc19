/// Which buffers of a model read from a file stay in the file after loading: the weights of
/// CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED, which the interpreter packs into its own
/// layouts at prepare (reading them from the file then, through a buffer it reuses), so that
/// a loaded model does not also hold them in memory: most of a convolutional model's file. Where
/// a layer runs on the raw weights instead, its prepare reads them into the model's memory
/// (`TFLiteModelFile.makeBufferResident`).
///
/// A buffer is deferred when it has at least `minimumBytes` bytes and every tensor using it is
/// the weights input (input 1) of one of those operators and nothing else: no other operator
/// input or output, no subgraph or signature input or output, not variable, not sparse, and no
/// metadata entry names it.
enum DeferredWeights {
    /// Smallest buffer deferred: smaller ones cost more in reads than they save.
    static let minimumBytes = 64 * 1024

    /// The buffers of `subgraphs` to leave in the file (see the type's comment).
    static func buffers(operatorCodes: [OperatorCode], subgraphs: [SubgraphDescription], signatures: [SignatureDescription],
                        metadataEntries: [MetadataEntry], bufferRanges: [Range<Int>]) -> Set<Int> {
        let weightOperators: [BuiltinOperator] = [.conv2D, .depthwiseConv2D, .fullyConnected]
        var candidates = Set<Int>(), excluded = Set(metadataEntries.map(\.buffer))
        for (index, subgraph) in subgraphs.enumerated() {
            var weights = Set<Int>(), otherUses = Set(subgraph.inputs + subgraph.outputs)
            for signature in signatures where signature.subgraphIndex == index {
                otherUses.formUnion((signature.inputs + signature.outputs).map(\.tensorIndex))
            }
            for op in subgraph.operators {
                let code = op.opcodeIndex >= 0 && op.opcodeIndex < operatorCodes.count ? operatorCodes[op.opcodeIndex].builtin : nil
                let readsWeights = code.map(weightOperators.contains) ?? false
                for (slot, tensor) in op.inputs.enumerated() {
                    if readsWeights && slot == 1 { weights.insert(tensor) } else { otherUses.insert(tensor) }
                }
                otherUses.formUnion(op.outputs)
                otherUses.formUnion(op.intermediates)
            }
            for (tensorIndex, tensor) in subgraph.tensors.enumerated() where tensor.buffer > 0 {
                if weights.contains(tensorIndex), !otherUses.contains(tensorIndex), !tensor.isVariable, tensor.sparsity == nil {
                    candidates.insert(tensor.buffer)
                } else {
                    excluded.insert(tensor.buffer)
                }
            }
        }
        return candidates.subtracting(excluded).filter {
            $0 < bufferRanges.count && bufferRanges[$0].count >= minimumBytes
        }
    }
}
