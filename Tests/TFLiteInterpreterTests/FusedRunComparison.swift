import Foundation
@testable import TFLiteInterpreter
import TFLiteSchema
import XCTest

/// Runs of one float model with its fusions and node by node, for the fusion tests that compare
/// them bit for bit.
enum FusedRunComparison {
    /// Invokes `executor` on `values` (its float input `input`) and returns every graph output.
    static func run(_ executor: SubgraphExecutor, input: RuntimeTensor, values: [Float]) throws -> [[Float]] {
        let p = try XCTUnwrap(input.data).assumingMemoryBound(to: Float.self)
        for (i, v) in values.enumerated() { p[i] = v }
        try executor.invoke()
        return executor.outputIndices.map { index in
            let t = executor.tensors[index]
            let q = t.data!.assumingMemoryBound(to: Float.self)
            return (0..<t.elementCount).map { q[$0] }
        }
    }

    /// The model at `path` run node by node (no fusion) on `values`, one thread; checks that no
    /// `fusedOperator` node left the run order.
    static func runUnfused(path: String, values: [Float], fusedOperator: BuiltinOperator) throws -> [[Float]] {
        let model = try Model(file: TFLiteModelFile(contentsOf: path))
        let executor = SubgraphExecutor(blueprint: model.subgraphs[0], threads: ThreadPool(threadCount: 1))
        executor.fusesNodes = false
        try executor.prepare()
        XCTAssertTrue(executor.nodes.indices.filter { executor.nodes[$0].context.code.builtin == fusedOperator }
            .allSatisfy(executor.runOrder.contains), "no \(fusedOperator) is fused when fusion is off")
        let input = try XCTUnwrap(executor.nodes.first?.context.inputs.first ?? nil)
        return try withExtendedLifetime(model) { try run(executor, input: input, values: values) }
    }
}
