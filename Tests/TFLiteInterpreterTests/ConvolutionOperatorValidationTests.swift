import XCTest
@testable import TFLiteInterpreter
import TFLiteSchema

/// Malformed convolution-family nodes fail at prepare with typed errors instead of trapping.
final class ConvolutionOperatorValidationTests: XCTestCase {
    private func tensor(_ index: Int, _ type: TensorType, _ shape: [Int], scale: Float? = nil) -> RuntimeTensor {
        RuntimeTensor(index: index, name: "t\(index)", type: type, shape: shape,
                      quantization: scale.map { Quantization(scales: [$0], zeroPoints: [0]) }, sparsity: nil, isConstant: false)
    }

    private func node(_ op: BuiltinOperator, _ inputs: [RuntimeTensor?], _ output: RuntimeTensor) -> NodeContext {
        NodeContext(code: OperatorCode(builtin: op, customName: nil, version: 1), inputs: inputs, outputs: [output],
                    options: nil, customOptions: [], threads: ThreadPool(threadCount: 1))
    }

    private func assertRejects(_ kernel: any OperatorKernel, _ n: NodeContext, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try kernel.prepare(n), file: file, line: line) { error in
            XCTAssertTrue(error is InterpreterError, "\(error)", file: file, line: line)
        }
    }

    /// Invoke runs the plan the last prepare decided: before a successful prepare (or after a
    /// failed one) there is none, and invoke throws instead of running stale state.
    func testInvokeWithoutASuccessfulPrepareThrows() throws {
        let input = tensor(0, .float32, [2, 3]), weights = tensor(1, .float32, [4, 3]), output = tensor(2, .float32, [])
        let n = node(.fullyConnected, [input, weights, nil], output)
        for kernel in [Conv2DOperator(), DepthwiseConv2DOperator(), FullyConnectedOperator()] as [any OperatorKernel] {
            XCTAssertThrowsError(try kernel.invoke(n)) { XCTAssertTrue($0 is InterpreterError, "\($0)") }
        }
        let fullyConnected = FullyConnectedOperator()
        try fullyConnected.prepare(n)
        XCTAssertEqual(output.shape, [2, 4])
        input.shape = [2, 5]   // 10 elements: not rows of 3
        XCTAssertThrowsError(try fullyConnected.prepare(n))
        XCTAssertThrowsError(try fullyConnected.invoke(n), "no stale plan runs") { XCTAssertTrue($0 is InterpreterError, "\($0)") }
    }

    func testConvWithoutStridesIsRejected() {
        // Options absent: strides default to 0, which the schema allows but no kernel can run.
        let n = node(.conv2D, [tensor(0, .float32, [1, 4, 4, 2]), tensor(1, .float32, [3, 3, 3, 2]), nil],
                     tensor(2, .float32, []))
        assertRejects(Conv2DOperator(), n)
        assertRejects(DepthwiseConv2DOperator(), node(.depthwiseConv2D, [tensor(0, .float32, [1, 4, 4, 2]),
                                                                         tensor(1, .float32, [1, 3, 3, 2]), nil],
                                                      tensor(2, .float32, [])))
        assertRejects(Pool2DOperator(kind: .max), node(.maxPool2D, [tensor(0, .float32, [1, 4, 4, 2])], tensor(1, .float32, [])))
    }

    func testFullyConnectedShapeMismatchIsRejected() {
        // 10 input elements cannot be split into rows of 3.
        assertRejects(FullyConnectedOperator(), node(.fullyConnected, [tensor(0, .float32, [2, 5]),
                                                                        tensor(1, .float32, [4, 3]), nil],
                                                     tensor(2, .float32, [])))
        // Bias with the wrong length.
        assertRejects(FullyConnectedOperator(), node(.fullyConnected, [tensor(0, .float32, [2, 3]),
                                                                        tensor(1, .float32, [4, 3]),
                                                                        tensor(2, .float32, [5])],
                                                     tensor(3, .float32, [])))
        // Quantized input without quantization parameters.
        assertRejects(FullyConnectedOperator(), node(.fullyConnected, [tensor(0, .int8, [1, 3]),
                                                                        tensor(1, .int8, [4, 3], scale: 0.1), nil],
                                                     tensor(2, .int8, [], scale: 0.1)))
        // Weights of the wrong rank, and mixed types.
        assertRejects(FullyConnectedOperator(), node(.fullyConnected, [tensor(0, .float32, [1, 3]),
                                                                        tensor(1, .float32, [4, 3, 1]), nil],
                                                     tensor(2, .float32, [])))
        assertRejects(FullyConnectedOperator(), node(.fullyConnected, [tensor(0, .uint8, [1, 3], scale: 0.1),
                                                                        tensor(1, .float32, [4, 3]), nil],
                                                     tensor(2, .uint8, [], scale: 0.1)))
    }

    func testTransposeConvNeedsAKnownOutputShape() {
        assertRejects(TransposeConvOperator(), node(.transposeConv, [tensor(0, .int32, [4]), tensor(1, .float32, [2, 3, 3, 2]),
                                                                      tensor(2, .float32, [1, 4, 4, 2]), nil],
                                                    tensor(3, .float32, [])))
    }

    func testTransposeConvBiasCustomOptionsAreValidated() {
        let n = NodeContext(code: OperatorCode(builtin: .custom, customName: "Convolution2DTransposeBias", version: 1),
                            inputs: [tensor(0, .float32, [1, 4, 4, 2]), tensor(1, .float32, [3, 3, 3, 2]), tensor(2, .float32, [3])],
                            outputs: [tensor(3, .float32, [])], options: nil, customOptions: [1, 0, 0],
                            threads: ThreadPool(threadCount: 1))
        assertRejects(TransposeConvBiasOperator(), n)
    }

    func testTransposeConvBiasComputesTheMediaPipeOutputSize() throws {
        // SAME, stride 2, 3x3: height 4 → padding max(0, 3 − 3 % 2 − 1) = 1 → 2·3 + 3 − 1 = 8;
        // width 5 → padding 2 → 2·4 + 3 − 2 = 9.
        let options: [UInt8] = [1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0]
        let out = tensor(3, .float32, [])
        let n = NodeContext(code: OperatorCode(builtin: .custom, customName: "Convolution2DTransposeBias", version: 1),
                            inputs: [tensor(0, .float32, [1, 4, 5, 2]), tensor(1, .float32, [3, 3, 3, 2]), tensor(2, .float32, [3])],
                            outputs: [out], options: nil, customOptions: options, threads: ThreadPool(threadCount: 1))
        try TransposeConvBiasOperator().prepare(n)
        XCTAssertEqual(out.shape, [1, 8, 9, 3])
    }
}
