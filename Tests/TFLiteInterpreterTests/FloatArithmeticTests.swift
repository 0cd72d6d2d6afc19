import Foundation
import TFLiteInterpreter
@testable import TFLiteKernels
import TestSupport
import XCTest

/// `Interpreter.Options.floatArithmetic`: which models count as quantizing float activations,
/// and that the two roundings both run, differ, and agree within the float tolerance.
final class FloatArithmeticTests: XCTestCase {
    /// The names command lines use (`litevision run`, `bench --float-arithmetic`) round-trip.
    func testPoliciesAreNamedAsCommandLinesSpellThem() {
        XCTAssertEqual([FloatArithmetic.automatic, .referenceRounding, .fusedMultiplyAdd].map(\.name), ["automatic", "reference", "fused"])
        for policy in [FloatArithmetic.automatic, .referenceRounding, .fusedMultiplyAdd] {
            XCTAssertEqual(FloatArithmetic(name: policy.name), policy)
        }
        for unknown in ["", "Reference", "exact", "referenceRounding"] { XCTAssertNil(FloatArithmetic(name: unknown), unknown) }
    }

    func testModelsThatQuantizeFloatActivationsAreRecognised() throws {
        XCTAssertTrue(try Model(path: TestPaths.sharedModel("yolov8n_dynamic_range_640.tflite")).quantizesFloatActivations,
                      "hybrid convolutions quantize their float inputs")
        for name in ["deeplabv3.tflite", "face_detection_short_range.tflite", "efficientnet_lite0.tflite"] {
            XCTAssertFalse(try Model(path: TestPaths.model(name)).quantizesFloatActivations, name)
        }
    }

    /// face_detection_short_range (float convolutions, depthwise and 1×1) under both roundings on
    /// one seeded input: within the golden float tolerance of each other, and not identical
    /// (the option reaches the kernels).
    func testFusedAndReferenceRoundingAgreeWithinTolerance() throws {
        guard GeneratedKernels.current?.floatConv6x16Fused != nil else {
            throw XCTSkip("no generated float kernels on this CPU / policy (\(GeneratedKernels.summary))")
        }
        let model = try Model(path: TestPaths.model("face_detection_short_range.tflite"))
        func run(_ arithmetic: FloatArithmetic) throws -> [[Float]] {
            var options = Interpreter.Options(threadCount: 1)
            options.floatArithmetic = arithmetic
            let interpreter = try Interpreter(model: model, options: options)
            try interpreter.allocateTensors()
            var rng = SeededGenerator(seed: 3)
            let count = try interpreter.input(at: 0).shape.elementCount
            let values = (0..<count).map { _ in rng.float() }
            try interpreter.copy(values.withUnsafeBufferPointer { Data(buffer: $0) }, toInputAt: 0)
            try interpreter.invoke()
            return try (0..<interpreter.outputTensorCount).map { k in
                try interpreter.output(at: k).data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            }
        }
        let reference = try run(.referenceRounding), fused = try run(.fusedMultiplyAdd)
        XCTAssertNotEqual(reference, fused, "fused multiply-adds should move some value by an ulp")
        for k in reference.indices {
            XCTAssertNil(TolerantCompare.floatMismatch(fused[k].map(Double.init), reference[k].map(Double.init)), "output \(k)")
        }
    }
}
