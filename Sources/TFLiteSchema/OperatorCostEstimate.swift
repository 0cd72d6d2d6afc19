/// Multiply-accumulate counts of the compute-heavy operators, from static shapes:
/// convolutions, depthwise and transpose convolutions, fully connected and batch matmul.
/// Other operators count 0. Counts saturate at `Int.max` instead of overflowing.
public enum OperatorCostEstimate {
    /// MACs of `op` in `subgraph`, or 0 for other operators or unknown shapes.
    public static func macs(of op: OperatorDescription, code: OperatorCode, in subgraph: SubgraphDescription) -> Int {
        guard op.opcodeIndex >= 0 else { return 0 }
        func shape(_ position: Int, _ list: [Int]) -> [Int]? {
            guard position < list.count, list[position] >= 0, list[position] < subgraph.tensors.count else { return nil }
            return subgraph.tensors[list[position]].shape
        }
        guard let output = shape(0, op.outputs) else { return 0 }
        let outputCount = product(output)
        switch code.builtin {
        case .conv2D:
            // Filter [out_channels, kh, kw, in_channels]: each output element sums kh*kw*in_channels products.
            guard let filter = shape(1, op.inputs), filter.count == 4 else { return 0 }
            return multiply(outputCount, product(Array(filter.dropFirst())))
        case .depthwiseConv2D:
            guard let filter = shape(1, op.inputs), filter.count == 4 else { return 0 }
            return multiply(outputCount, multiply(filter[1], filter[2]))
        case .transposeConv:
            // Inputs: output shape, filter [out_channels, kh, kw, in_channels], input.
            guard let filter = shape(1, op.inputs), let input = shape(2, op.inputs), filter.count == 4 else { return 0 }
            return multiply(product(input), multiply(filter[0], multiply(filter[1], filter[2])))
        case .fullyConnected:
            guard let weights = shape(1, op.inputs), weights.count == 2 else { return 0 }
            return multiply(outputCount, weights[1])
        case .batchMatmul:
            guard let lhs = shape(0, op.inputs), let last = lhs.last else { return 0 }
            return multiply(outputCount, last)
        default:
            return 0
        }
    }

    /// Total MACs of every operator of `subgraph`.
    public static func totalMACs(of subgraph: SubgraphDescription, codes: [OperatorCode]) -> Int {
        subgraph.operators.reduce(0) { total, op in
            guard op.opcodeIndex >= 0, op.opcodeIndex < codes.count else { return total }
            let (sum, overflow) = total.addingReportingOverflow(macs(of: op, code: codes[op.opcodeIndex], in: subgraph))
            return overflow ? Int.max : sum
        }
    }

    private static func product(_ shape: [Int]) -> Int { shape.reduce(1) { multiply($0, Swift.max($1, 0)) } }

    private static func multiply(_ a: Int, _ b: Int) -> Int {
        let (value, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? Int.max : value
    }
}

extension TFLiteModelFile {
    /// Estimated multiply-accumulates of one inference of subgraph `index` (see `OperatorCostEstimate`).
    public func estimatedMACs(subgraph index: Int = 0) -> Int {
        guard index >= 0, index < subgraphs.count else { return 0 }
        return OperatorCostEstimate.totalMACs(of: subgraphs[index], codes: operatorCodes)
    }
}
