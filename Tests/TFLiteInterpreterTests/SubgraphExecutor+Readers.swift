@testable import TFLiteInterpreter

extension SubgraphExecutor {
    /// Positions of the nodes that read tensor `index` as an input, in node order.
    func readers(of index: Int) -> [Int] {
        nodes.indices.filter { r in nodes[r].context.inputs.contains { $0?.index == index } }
    }
}
