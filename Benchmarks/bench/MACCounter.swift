import TFLiteSchema

/// Multiply-accumulate count of a model's compute-heavy operators (convolution, depthwise
/// and transpose convolution, fully connected, batch matmul), from the shapes in the file.
/// Used for the effective GMAC/s column. Unknown (negative) dimensions count as 1.
enum MACCounter {
    /// Total MACs of the main subgraph of `file`.
    static func macs(of file: TFLiteModelFile) -> Int {
        guard let subgraph = file.subgraphs.first else { return 0 }
        var total = 0
        for op in subgraph.operators where file.operatorCodes.indices.contains(op.opcodeIndex) {
            total = saturatingAdd(total, macs(of: op, code: file.operatorCodes[op.opcodeIndex], in: subgraph))
        }
        return total
    }

    /// MACs of one operator, 0 for operators without a multiply-accumulate core or unusable shapes.
    static func macs(of op: OperatorDescription, code: OperatorCode, in subgraph: SubgraphDescription) -> Int {
        func shape(of list: [Int], at position: Int) -> [Int]? {
            guard list.indices.contains(position), subgraph.tensors.indices.contains(list[position]) else { return nil }
            return subgraph.tensors[list[position]].shape.map { max($0, 1) }
        }
        guard let output = shape(of: op.outputs, at: 0) else { return 0 }
        let outputElements = product(output)
        switch code.builtin {
        case .conv2D:
            // Filter [out, kh, kw, in]: each output element sums kh*kw*in products.
            guard let filter = shape(of: op.inputs, at: 1), filter.count == 4 else { return 0 }
            return saturatingMultiply(outputElements, product(Array(filter.dropFirst())))
        case .depthwiseConv2D:
            // Filter [1, kh, kw, out]: each output element sums kh*kw products.
            guard let filter = shape(of: op.inputs, at: 1), filter.count == 4 else { return 0 }
            return saturatingMultiply(outputElements, saturatingMultiply(filter[1], filter[2]))
        case .transposeConv:
            // Inputs (output shape, filter [out, kh, kw, in], input): each input element scatters out*kh*kw products.
            guard let filter = shape(of: op.inputs, at: 1), filter.count == 4,
                  let input = shape(of: op.inputs, at: 2) else { return 0 }
            return saturatingMultiply(product(input), product(Array(filter.prefix(3))))
        case .fullyConnected:
            guard let weights = shape(of: op.inputs, at: 1), weights.count == 2 else { return 0 }
            return saturatingMultiply(outputElements, weights[1])
        case .batchMatmul:
            guard let left = shape(of: op.inputs, at: 0), let depth = left.last else { return 0 }
            return saturatingMultiply(outputElements, depth)
        default:
            return 0
        }
    }

    private static func product(_ values: [Int]) -> Int { values.reduce(1, saturatingMultiply) }

    private static func saturatingMultiply(_ a: Int, _ b: Int) -> Int {
        let (value, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? Int.max : value
    }

    private static func saturatingAdd(_ a: Int, _ b: Int) -> Int {
        let (value, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : value
    }
}
