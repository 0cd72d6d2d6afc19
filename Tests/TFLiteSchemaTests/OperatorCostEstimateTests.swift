import Foundation
import TFLiteSchema
import XCTest

/// The shape rules of the package's one MAC counter (``OperatorCostEstimate``), on hand-built
/// one-operator subgraphs: unknown dimensions count as 1, zero dimensions as 0, counts are
/// never negative and saturate, and the result round-trips through JSON.
final class OperatorCostEstimateTests: XCTestCase {
    /// A subgraph with one `builtin` operator reading tensors of `inputShapes` and writing one of `outputShape`.
    private func subgraph(_ builtin: BuiltinOperator, inputs inputShapes: [[Int]], output outputShape: [Int],
                          opcodeIndex: Int = 0) -> (SubgraphDescription, [OperatorCode]) {
        let shapes = inputShapes + [outputShape]
        let tensors = shapes.enumerated().map { TensorDescription(name: "t\($0.offset)", shape: $0.element, type: .float32, buffer: 0) }
        let op = OperatorDescription(opcodeIndex: opcodeIndex, inputs: Array(inputShapes.indices), outputs: [inputShapes.count],
                                     builtinOptions: nil, customOptions: [])
        let subgraph = SubgraphDescription(name: "", tensors: tensors, inputs: [0], outputs: [inputShapes.count], operators: [op])
        return (subgraph, [OperatorCode(builtin: builtin, customName: nil, version: 1)])
    }

    private func macs(_ builtin: BuiltinOperator, inputs: [[Int]], output: [Int]) -> Int {
        let (subgraph, codes) = subgraph(builtin, inputs: inputs, output: output)
        return OperatorCostEstimate.estimate(of: subgraph, codes: codes).total
    }

    func testEachOperatorFamilyCountsItsProducts() {
        // CONV_2D: output elements x kh*kw*in_channels.
        XCTAssertEqual(macs(.conv2D, inputs: [[1, 8, 8, 3], [16, 3, 3, 3], [16]], output: [1, 4, 4, 16]), 4 * 4 * 16 * 27)
        // DEPTHWISE_CONV_2D: output elements x kh*kw.
        XCTAssertEqual(macs(.depthwiseConv2D, inputs: [[1, 8, 8, 16], [1, 3, 3, 16]], output: [1, 8, 8, 16]), 8 * 8 * 16 * 9)
        // TRANSPOSE_CONV: input elements x out_channels*kh*kw.
        XCTAssertEqual(macs(.transposeConv, inputs: [[4], [8, 2, 2, 4], [1, 5, 5, 4]], output: [1, 10, 10, 8]), 100 * 32)
        // FULLY_CONNECTED: output elements x depth.
        XCTAssertEqual(macs(.fullyConnected, inputs: [[1, 64], [10, 64]], output: [1, 10]), 640)
        // BATCH_MATMUL: output elements x the left operand's last dimension.
        XCTAssertEqual(macs(.batchMatmul, inputs: [[2, 3, 5], [2, 5, 7]], output: [2, 3, 7]), 2 * 3 * 7 * 5)
        XCTAssertEqual(macs(.add, inputs: [[1, 8], [1, 8]], output: [1, 8]), 0, "ADD has no multiply-accumulate core")
    }

    /// The decision the two former counters disagreed on: an unknown (negative) dimension
    /// counts as 1 — in the output, in the filter and in the input — so a dynamic batch
    /// estimates one image, not zero work and never a negative count.
    func testUnknownDimensionsCountAsOne() {
        XCTAssertEqual(macs(.conv2D, inputs: [[-1, 8, 8, 3], [16, 3, 3, 3]], output: [-1, 4, 4, 16]), 4 * 4 * 16 * 27)
        XCTAssertEqual(macs(.conv2D, inputs: [[1, 8, 8, -1], [16, 3, 3, -1]], output: [1, 4, 4, 16]), 4 * 4 * 16 * 9)
        XCTAssertEqual(macs(.depthwiseConv2D, inputs: [[1, 8, 8, 16], [1, -1, 3, 16]], output: [1, 8, 8, 16]), 8 * 8 * 16 * 3)
        XCTAssertEqual(macs(.transposeConv, inputs: [[4], [8, 2, 2, 4], [-1, 5, 5, 4]], output: [-1, 10, 10, 8]), 100 * 32)
        XCTAssertEqual(macs(.fullyConnected, inputs: [[-1, 64], [10, -1]], output: [-1, 10]), 10)
        XCTAssertEqual(macs(.batchMatmul, inputs: [[-1, 3, 5], [-1, 5, 7]], output: [-1, 3, 7]), 3 * 7 * 5)
    }

    func testZeroDimensionsCountNoWork() {
        XCTAssertEqual(macs(.conv2D, inputs: [[0, 8, 8, 3], [16, 3, 3, 3]], output: [0, 4, 4, 16]), 0)
        XCTAssertEqual(macs(.fullyConnected, inputs: [[1, 0], [10, 0]], output: [1, 10]), 0)
    }

    func testUnusableShapesAndIndicesCountZero() {
        XCTAssertEqual(macs(.conv2D, inputs: [[1, 8, 8, 3], [16, 27]], output: [1, 4, 4, 16]), 0, "filter of rank 2")
        XCTAssertEqual(macs(.fullyConnected, inputs: [[1, 64]], output: [1, 10]), 0, "no weights")
        let (subgraph, codes) = subgraph(.conv2D, inputs: [[1, 8, 8, 3], [16, 3, 3, 3]], output: [1, 4, 4, 16], opcodeIndex: 7)
        XCTAssertEqual(OperatorCostEstimate.estimate(of: subgraph, codes: codes), MACEstimate(operators: [0], total: 0),
                       "an operator code out of range counts 0")
    }

    func testHugeShapesSaturateInsteadOfTrapping() {
        let huge = Int.max / 4
        XCTAssertEqual(macs(.conv2D, inputs: [[1, huge, huge, 3], [16, 3, 3, 3]], output: [1, huge, huge, 16]), Int.max)
        var (subgraph, codes) = subgraph(.fullyConnected, inputs: [[1, huge], [huge, huge]], output: [1, huge])
        subgraph.operators += subgraph.operators
        XCTAssertEqual(OperatorCostEstimate.estimate(of: subgraph, codes: codes).total, Int.max, "the sum saturates too")
    }

    func testEstimateIsCodableAndMatchesTheModelFileView() throws {
        let (subgraph, codes) = subgraph(.fullyConnected, inputs: [[1, 64], [10, 64]], output: [1, 10])
        let estimate = OperatorCostEstimate.estimate(of: subgraph, codes: codes)
        XCTAssertEqual(estimate, MACEstimate(operators: [640], total: 640))
        let json = try JSONEncoder().encode(estimate)
        XCTAssertEqual(try JSONDecoder().decode(MACEstimate.self, from: json), estimate)
        XCTAssertEqual(OperatorCostEstimate.totalMACs(of: subgraph, codes: codes), 640)
    }
}
