@testable import TFLiteInterpreter
import TFLiteKernels
import TFLiteSchema
import TestSupport
import XCTest

/// The one folding rule shared by loading, allocation and the support check.
final class AheadOfTimeEvaluationTests: XCTestCase {
    private let threads = ThreadPool(threadCount: 1)

    /// A node `builtin` reading tensor 0 (constant or not) and writing tensor 1 of a
    /// two-tensor subgraph whose graph input is tensor `graphInput`.
    private func check(_ builtin: BuiltinOperator, constantInput: Bool, graphInput: Int = 0,
                       variableOutput: Bool = false, phase: AheadOfTimeEvaluation.Phase) -> Bool {
        let descriptions = [TensorDescription(name: "in", shape: [2, 3], type: .float32, buffer: 0),
                            TensorDescription(name: "out", shape: [2, 3], type: .float32, buffer: 0, isVariable: variableOutput)]
        let subgraph = SubgraphDescription(name: "", tensors: descriptions, inputs: [graphInput], outputs: [1], operators: [])
        let tensors = descriptions.enumerated().map { index, t in
            RuntimeTensor(index: index, name: t.name, type: t.type, shape: t.shape, quantization: nil, sparsity: nil,
                          isConstant: index == 0 && constantInput)
        }
        let node = NodeContext(code: OperatorCode(builtin: builtin, customName: nil, version: 1), inputs: [tensors[0]],
                               outputs: [tensors[1]], options: nil, customOptions: [], threads: threads)
        return AheadOfTimeEvaluation.isCandidate(node, graphInputs: Set(subgraph.inputs), subgraph: subgraph, phase: phase)
    }

    /// hand_landmark_full folds the float16 weights of its depthwise layers and its biases to
    /// float32 at load (its convolutions' weights wait for their prepares,
    /// `DeferredDequantization`): with huge pages, their buffers are carved from one region (and
    /// the model's outputs stay those of the golden tests, which run it).
    func testOutputsFoldedAtLoadShareOneHugePageRegion() throws {
        guard HugePageMapping.isAvailable else {
            throw XCTSkip("no transparent huge pages on request (or LITEVISION_HUGE_PAGES=0): folded outputs are allocated one by one")
        }
        let model = try Model(path: try TestPaths.model("mediapipe/hand_landmark_full.tflite"))
        let buffers = model.derivedConstantBuffers
        XCTAssertGreaterThan(model.derivedConstantByteCount, 512 << 10, "the float16 weights folded at load")
        XCTAssertEqual(buffers.filter(\.isCarved).count, buffers.count, "every folded output carved from the region")
        let starts = buffers.map { Int(bitPattern: $0.pointer) }
        XCTAssertLessThan(starts.max()! - starts.min()!, 2 * model.derivedConstantByteCount, "one region, in order")
    }

    func testConstantInputsFoldAtLoadAndAtPrepare() {
        XCTAssertTrue(check(.dequantize, constantInput: true, phase: .load))
        XCTAssertTrue(check(.dequantize, constantInput: true, phase: .prepare))
        XCTAssertFalse(check(.dequantize, constantInput: false, phase: .prepare))
    }

    /// SHAPE needs only shapes: evaluated at prepare, but not at load, where the graph
    /// inputs may still be resized.
    func testShapeOfAComputedTensorRunsAtPrepareOnly() {
        XCTAssertTrue(check(.shape, constantInput: false, phase: .prepare))
        XCTAssertFalse(check(.shape, constantInput: false, phase: .load))
    }

    func testControlFlowVariablesAndGraphInputsAreNeverFolded() {
        for op in [BuiltinOperator.if, .while, .callOnce, .readVariable] {
            XCTAssertFalse(check(op, constantInput: true, phase: .load), "\(op)")
            XCTAssertFalse(check(op, constantInput: true, phase: .prepare), "\(op)")
        }
        XCTAssertFalse(check(.dequantize, constantInput: true, graphInput: 1, phase: .prepare), "output is a graph input")
        XCTAssertFalse(check(.dequantize, constantInput: true, variableOutput: true, phase: .load), "output is a variable")
    }
}
