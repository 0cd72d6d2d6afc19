import Foundation
import TFLiteInterpreter
import TFLiteSchema
import TestSupport
import XCTest

/// Bounded mutation fuzzing of `.npy` reading and of model load → allocate → invoke on the
/// hostile, interpreter and MediaPipe-operator fixtures (FUZZ_SECONDS per target; see `Scripts/fuzz.sh formats`).
final class FormatFuzzTests: XCTestCase {
    func testMutatedNumPyFilesParseOrThrow() throws {
        let seeds = try [
            NumPyArray(shape: [2, 3], float32: [1, 2, 3, 4, 5, 6]).npyData(),
            NumPyArray(dataType: .uint8, shape: [4], data: Data([1, 2, 3, 4])).npyData(),
            NumPyArray(dataType: .int64, shape: [], data: Data(count: 8)).npyData(),
            NumPyArray(dataType: .float32, shape: [1, 0, 3], data: Data()).npyData(),
        ].map { [UInt8]($0) }
        var fuzzer = MutationFuzzer(name: "npy", seeds: seeds)
        let summary = fuzzer.run { bytes in
            let array = try NumPyArray(npyData: Data(bytes))
            _ = array.doubleValues().prefix(4)
        }
        XCTAssertGreaterThanOrEqual(summary.accepted, seeds.count)
    }

    func testMutatedModelsLoadRunOrThrow() throws {
        let root = TestPaths.fixturesDirectory
        let names = ["hostile/depthwise_resizable.tflite", "hostile/unused_gigabyte_fills.tflite",
                     "hostile/mul_scale_product_overflow.tflite", "hostile/softmax_nan_beta.tflite",
                     "interpreter/dynamic_chain/model.tflite", "interpreter/two_inputs/model.tflite",
                     // MediaPipe's custom operators: options, landmark indices and crop shapes.
                     "ops/mediapipe/landmarks_to_matrix_varied_photo/model.tflite",
                     "ops/mediapipe/transform_tensor_bilinear_half_outside/model.tflite"]
        let seeds = try names.map { try [UInt8](Data(contentsOf: root.appendingPathComponent($0))) }
        // A mutated shape may ask for gigabytes legally; 16 MiB per tensor, 64 MiB in all here.
        var limits = ResourceLimits()
        limits.maximumTensorByteCount = 1 << 24
        limits.maximumTotalByteCount = 1 << 26
        var fuzzer = MutationFuzzer(name: "model", seeds: seeds)
        fuzzer.run { bytes in
            let interpreter = try Interpreter(modelData: Data(bytes), options: .init(threadCount: 1, resourceLimits: limits))
            try interpreter.allocateTensors()
            for k in 0..<interpreter.inputTensorCount {
                try interpreter.withUnsafeMutableInputBytes(at: k) { raw in
                    for i in raw.indices { raw[i] = UInt8(truncatingIfNeeded: i &* 37) & 0x3F }
                }
            }
            try interpreter.invoke()
            for k in 0..<interpreter.outputTensorCount { _ = try interpreter.output(at: k) }
        }
    }
}
