/// Multiply-accumulate counts of the compute-heavy operators, from the static shapes in the
/// file: convolutions, depthwise and transpose convolutions, fully connected and batch matmul.
/// Other operators count 0. The one MAC counter of the package (`tflite-dump` per operator and
/// in total, `bench` for its GMAC/s column).
///
/// Shape rules (pinned by `OperatorCostEstimateTests`):
/// - An unknown dimension (negative, e.g. the `-1` of a dynamic batch written into `shape`)
///   counts as 1: the estimate is for one inference at the smallest size the model allows,
///   as the engine runs it before any `resizeInput`.
/// - A zero dimension counts 0: an empty tensor takes no work.
/// - A missing tensor, an index out of range or a filter of the wrong rank gives 0 for that
///   operator; counts are never negative and saturate at `Int.max` instead of overflowing.
public enum OperatorCostEstimate {
    /// MACs of `op` in `subgraph`, or 0 for other operators and unusable shapes.
    public static func macs(of op: OperatorDescription, code: OperatorCode, in subgraph: SubgraphDescription) -> Int {
        func shape(_ position: Int, _ list: [Int]) -> [Int]? {
            guard position < list.count, subgraph.tensors.indices.contains(list[position]) else { return nil }
            return subgraph.tensors[list[position]].shape.map(knownDimension)
        }
        guard let output = shape(0, op.outputs) else { return 0 }
        let outputCount = product(output)
        switch code.builtin {
        case .conv2D:
            // Filter [out_channels, kh, kw, in_channels]: each output element sums kh*kw*in_channels products.
            guard let filter = shape(1, op.inputs), filter.count == 4 else { return 0 }
            return multiply(outputCount, product(filter.dropFirst()))
        case .depthwiseConv2D:
            // Filter [1, kh, kw, out_channels]: each output element sums kh*kw products.
            guard let filter = shape(1, op.inputs), filter.count == 4 else { return 0 }
            return multiply(outputCount, multiply(filter[1], filter[2]))
        case .transposeConv:
            // Inputs: output shape, filter [out_channels, kh, kw, in_channels], input:
            // each input element scatters out_channels*kh*kw products.
            guard let filter = shape(1, op.inputs), let input = shape(2, op.inputs), filter.count == 4 else { return 0 }
            return multiply(product(input), product(filter.prefix(3)))
        case .fullyConnected:
            // Weights [out, depth]: each output element sums `depth` products.
            guard let weights = shape(1, op.inputs), weights.count == 2 else { return 0 }
            return multiply(outputCount, weights[1])
        case .batchMatmul:
            // Each output element sums the left operand's last dimension of products.
            guard let lhs = shape(0, op.inputs), let depth = lhs.last else { return 0 }
            return multiply(outputCount, depth)
        default:
            return 0
        }
    }

    /// MACs of every operator of `subgraph`, in file order, and their saturating sum. Operators
    /// whose operator-code index is out of range count 0.
    public static func estimate(of subgraph: SubgraphDescription, codes: [OperatorCode]) -> MACEstimate {
        let perOperator = subgraph.operators.map { op in
            codes.indices.contains(op.opcodeIndex) ? macs(of: op, code: codes[op.opcodeIndex], in: subgraph) : 0
        }
        let total = perOperator.reduce(0) { total, macs in
            let (sum, overflow) = total.addingReportingOverflow(macs)
            return overflow ? Int.max : sum
        }
        return MACEstimate(operators: perOperator, total: total)
    }

    /// Total MACs of every operator of `subgraph` (the `total` of ``estimate(of:codes:)``).
    public static func totalMACs(of subgraph: SubgraphDescription, codes: [OperatorCode]) -> Int {
        estimate(of: subgraph, codes: codes).total
    }

    /// A dimension as counted: unknown (negative) as 1, others as they are.
    private static func knownDimension(_ dimension: Int) -> Int { dimension < 0 ? 1 : dimension }

    private static func product(_ shape: some Sequence<Int>) -> Int { shape.reduce(1, multiply) }

    private static func multiply(_ a: Int, _ b: Int) -> Int {
        let (value, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? Int.max : value
    }
}

/// The multiply-accumulates of one subgraph (see ``OperatorCostEstimate`` for the shape rules).
public struct MACEstimate: Codable, Sendable, Equatable {
    /// MACs of each operator, in file order (0 for operators without a multiply-accumulate core).
    public var operators: [Int]
    /// The sum of `operators`, saturating at `Int.max`.
    public var total: Int

    /// Creates an estimate.
    public init(operators: [Int], total: Int) {
        self.operators = operators; self.total = total
    }
}

extension TFLiteModelFile {
    /// The MAC estimate of subgraph `index` (empty, total 0, when there is no such subgraph).
    public func macEstimate(subgraph index: Int = 0) -> MACEstimate {
        guard subgraphs.indices.contains(index) else { return MACEstimate(operators: [], total: 0) }
        return OperatorCostEstimate.estimate(of: subgraphs[index], codes: operatorCodes)
    }

    /// Estimated multiply-accumulates of one inference of subgraph `index` (the total of
    /// ``macEstimate(subgraph:)``).
    public func estimatedMACs(subgraph index: Int = 0) -> Int { macEstimate(subgraph: index).total }
}
