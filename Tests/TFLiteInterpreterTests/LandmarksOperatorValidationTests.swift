import Foundation
import TestSupport
import XCTest
@testable import TFLiteInterpreter
import TFLiteSchema

/// MediaPipe's attention-mesh operators read their real options, and malformed nodes (options,
/// indices past the landmarks, shapes MediaPipe's kernels would read past, version 1) fail at
/// prepare with typed errors instead of reading out of bounds.
final class LandmarksOperatorValidationTests: XCTestCase {
    private func tensor(_ index: Int, _ shape: [Int], _ type: TensorType = .float32) -> RuntimeTensor {
        RuntimeTensor(index: index, name: "t\(index)", type: type, shape: shape, quantization: nil, sparsity: nil, isConstant: false)
    }

    private func node(_ name: String, version: Int = 2, _ inputs: [RuntimeTensor], _ output: RuntimeTensor,
                      options: [UInt8] = []) -> NodeContext {
        NodeContext(code: OperatorCode(builtin: .custom, customName: name, version: version), inputs: inputs, outputs: [output],
                    options: nil, customOptions: options, threads: ThreadPool(threadCount: 1))
    }

    private func assertRejects(_ kernel: any OperatorKernel, _ n: NodeContext, _ fragment: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try kernel.prepare(n), file: file, line: line) { error in
            XCTAssertTrue(error is InterpreterError, "\(error)", file: file, line: line)
            XCTAssertTrue("\(error)".contains(fragment), "\(error) does not say '\(fragment)'", file: file, line: line)
        }
    }

    /// The custom options of the single operator of the golden case `mediapipe/<name>`.
    private func fixtureOptions(_ name: String) throws -> [UInt8] {
        let url = TestPaths.fixturesDirectory.appendingPathComponent("ops/mediapipe/\(name)/model.tflite")
        let model = try TFLiteModelFile(contentsOf: url.path)
        return try XCTUnwrap(model.subgraphs.first?.operators.first).customOptions
    }

    /// The left-eye options of face_landmark_with_attention: 71 subset indices (an odd count,
    /// whose last index MediaPipe repeats), rotation from landmarks 33 and 133, a 16 × 16 crop.
    func testLandmarksToTransformMatrixReadsTheModelsOptions() throws {
        let o = try LandmarksToTransformMatrixOptions(customOptions: try fixtureOptions("landmarks_to_matrix_left_eye_photo"))
        XCTAssertEqual(o.subsetIndices.count, 72)
        XCTAssertEqual(o.subsetIndices[70], o.subsetIndices[71])
        XCTAssertEqual([o.leftRotationIndex, o.rightRotationIndex, o.outputWidth, o.outputHeight], [33, 133, 16, 16])
        XCTAssertEqual([o.scaleX, o.scaleY, o.targetRotationRadians], [1.5, 1.5, 0])
        let varied = try LandmarksToTransformMatrixOptions(customOptions: try fixtureOptions("landmarks_to_matrix_varied_photo"))
        XCTAssertEqual(varied.subsetIndices, [61, 146, 91, 181, 84, 17, 314, 405, 321, 321])
        XCTAssertEqual([varied.outputWidth, varied.outputHeight], [24, 12])
        XCTAssertEqual([varied.scaleX, varied.scaleY, varied.targetRotationRadians], [2.0, 1.25, 0.5])
    }

    func testLandmarksToTransformMatrixRejectsMalformedNodes() throws {
        let op = "Landmarks2TransformMatrix", options = try fixtureOptions("landmarks_to_matrix_lips_photo")
        let kernel = LandmarksToTransformMatrixOperator()
        // Lips indices reach 409: ten landmarks are far too few.
        assertRejects(kernel, node(op, [tensor(0, [1, 10, 3])], tensor(1, []), options: options), "past the 10 landmarks")
        assertRejects(kernel, node(op, [tensor(0, [1, 468, 3])], tensor(1, []), options: Array(options.prefix(9))), "custom options")
        // TransformTensorBilinear's options (output size only): no subset.
        assertRejects(kernel, node(op, [tensor(0, [1, 468, 3])], tensor(1, []),
                                   options: try fixtureOptions("transform_tensor_bilinear_photo_lips")), "subset_idxs")
        assertRejects(kernel, node(op, version: 1, [tensor(0, [1, 468, 3])], tensor(1, []), options: options), "version 1")
        assertRejects(kernel, node(op, [tensor(0, [468, 3])], tensor(1, []), options: options), "rank 3")
        assertRejects(kernel, node(op, [tensor(0, [1, 468, 3], .int8)], tensor(1, []), options: options), "float32")
        XCTAssertThrowsError(try kernel.invoke(node(op, [tensor(0, [1, 468, 3])], tensor(1, []), options: options)))
        let output = tensor(1, [])
        try kernel.prepare(node(op, [tensor(0, [1, 468, 3])], output, options: options))
        XCTAssertEqual(output.shape, [1, 4, 4])
    }

    func testTransformTensorBilinearRejectsShapesItWouldReadPast() {
        let op = "TransformTensorBilinear", kernel = TransformTensorBilinearOperator()
        let features = tensor(0, [1, 48, 48, 32]), matrix = tensor(1, [1, 4, 4])
        assertRejects(kernel, node(op, [features, matrix], tensor(2, [1, 16, 16, 33])), "more channels")
        assertRejects(kernel, node(op, [features, tensor(1, [1, 4])], tensor(2, [1, 16, 16, 32])), "8 values")
        assertRejects(kernel, node(op, [tensor(0, [2, 48, 48, 32]), matrix], tensor(2, [1, 16, 16, 32])), "batch 1")
        assertRejects(kernel, node(op, [features, matrix], tensor(2, [16, 16, 32])), "rank 4")
        assertRejects(kernel, node(op, [features], tensor(2, [1, 16, 16, 32])), "2 input(s)")
        assertRejects(kernel, node(op, version: 1, [features, matrix], tensor(2, [1, 16, 16, 32])), "version 1")
        XCTAssertNoThrow(try kernel.prepare(node(op, [features, matrix], tensor(2, [1, 16, 16, 32]))))
    }

    func testTransformLandmarksTakesTwoOrThreeValuesPerLandmark() throws {
        let op = "TransformLandmarks", kernel = TransformLandmarksOperator(), matrix = tensor(1, [1, 4, 4])
        assertRejects(kernel, node(op, [tensor(0, [1, 80, 4]), matrix], tensor(2, [])), "2 or 3 values")
        assertRejects(kernel, node(op, [tensor(0, [1, 80, 2]), tensor(1, [7])], tensor(2, [])), "8 values")
        assertRejects(kernel, node(op, [tensor(0, [1, 80, 2, 1]), matrix], tensor(2, [])), "rank 3")
        for values in [2, 3] {
            let output = tensor(2, [])
            try kernel.prepare(node(op, [tensor(0, [1, 80, values]), matrix], output))
            XCTAssertEqual(output.shape, [1, 80, values])
        }
    }
}
