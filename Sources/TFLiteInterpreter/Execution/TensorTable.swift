/// A value per tensor of a subgraph, by tensor index, `fallback` for every index never set: the
/// lookups of the fusion passes and the arena planning (reader counts, producing nodes, first and
/// last uses). An array rather than a dictionary: a 700-operator graph's prepare makes tens of
/// thousands of these lookups, and hashing them was about 2 ms of its cold start.
///
/// Indices are those of the subgraph's tensors (checked against its tensor count at load), so
/// the storage grows to at most that count.
struct TensorTable<Value> {
    private var values: [Value]
    private let fallback: Value

    /// An empty table for `count` tensors (it grows past `count` when set there).
    init(count: Int = 0, fallback: Value) {
        values = [Value](repeating: fallback, count: count)
        self.fallback = fallback
    }

    /// The value of tensor `index` (≥ 0): the last set, else `fallback`.
    /// - Complexity: O(1); a set past the end grows the storage to `index + 1`.
    subscript(index: Int) -> Value {
        get { index < values.count ? values[index] : fallback }
        set {
            if index >= values.count { values.append(contentsOf: repeatElement(fallback, count: index + 1 - values.count)) }
            values[index] = newValue
        }
    }
}

extension TensorTable where Value == Int {
    /// How many input slots of the nodes at positions `order` read each tensor, for the fusions,
    /// which need tensors with one reader.
    static func readerCounts(_ nodes: [SubgraphExecutor.Node], order: [Int]) -> TensorTable<Int> {
        var readers = TensorTable(fallback: 0)
        for k in order {
            for case let input? in nodes[k].context.inputs { readers[input.index] += 1 }
        }
        return readers
    }
}

extension TensorTable where Value == Int? {
    /// The position (among `order`) of the node that writes each tensor, for the fusions, which
    /// look up the node producing an operand.
    static func producerPositions(_ nodes: [SubgraphExecutor.Node], order: [Int]) -> TensorTable<Int?> {
        var producer = TensorTable(fallback: nil)
        for k in order { for output in nodes[k].context.outputs { producer[output.index] = k } }
        return producer
    }
}
