import Foundation
import TestSupport
@testable import TFLiteInterpreter
import TFLiteSchema
import XCTest

/// Memory that is only touched while invoking, or when outputs are copied out, counts against
/// ``ResourceLimits/maximumTotalByteCount`` like the arena: NMS's candidate queue and the
/// detection post-process workspace are placed in the arena at prepare, and a tensor snapshot is refused
/// when it would take the interpreter past the limit (the in-place accessors still work).
final class InvokeMemoryLimitTests: XCTestCase {
    private func interpreter(_ fixture: String, totalMiB: Int) throws -> Interpreter {
        var limits = ResourceLimits.default
        limits.maximumTotalByteCount = totalMiB << 20
        var options = Interpreter.Options()
        options.resourceLimits = limits
        options.threadCount = 1
        return try Interpreter(modelPath: try TestPaths.fixture("ops/\(fixture)/model.tflite"), options: options)
    }

    /// 2^20 boxes: 20 MiB of inputs and a 24 MiB candidate queue (24 bytes a box), both placed
    /// in the arena at prepare. 40 MiB admitted the model when only the inputs counted.
    func testNonMaxSuppressionCandidateQueueCountsAtPrepare() throws {
        let boxes = 1 << 20
        func prepared(totalMiB: Int) throws -> Interpreter {
            let nms = try interpreter("ties/nms_v4_all_scores_equal", totalMiB: totalMiB)
            try nms.resizeInput(at: 0, to: Tensor.Shape([boxes, 4]))
            try nms.resizeInput(at: 1, to: Tensor.Shape([boxes]))
            try nms.allocateTensors()
            return nms
        }
        // The arena of inputs and queue, 44 MiB and its slots' alignment, is refused under 16 and 40 MiB.
        for totalMiB in [16, 40] {
            XCTAssertThrowsError(try prepared(totalMiB: totalMiB)) { error in
                guard case InterpreterError.resourceLimitExceeded(let message) = error else { return XCTFail("\(error)") }
                let arena = message.components(separatedBy: "the activation arena (").dropFirst().first
                    .flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
                XCTAssertTrue(arena >= 44 << 20 && arena < 45 << 20 && message.contains("maximumTotalByteCount"), message)
            }
        }
        // With room for both, it runs: every score equal, so the first boxes are kept.
        let nms = try prepared(totalMiB: 64)
        try nms.copy(Data(count: boxes * 16), toInputAt: 0)
        try nms.copy([Float](repeating: 0.5, count: boxes).withUnsafeBufferPointer { Data(buffer: $0) }, toInputAt: 1)
        try nms.invoke()
        XCTAssertEqual(try nms.output(at: 1).data.withUnsafeBytes { $0.load(as: Int32.self) }, 40, "max_output_size")
    }

    /// A 16 MiB output (FLOOR then MUL): a snapshot copy is refused when the arena plus the copy pass the
    /// limit, with a message naming the tensor and the in-place accessor; reading in place works.
    func testOutputSnapshotCountsAgainstTheTotal() throws {
        let count = 1 << 22   // 16 MiB of float32 in, 16 MiB out
        func prepared(totalMiB: Int) throws -> Interpreter {
            let floor = try interpreter("elementwise/floor_f32", totalMiB: totalMiB)
            try floor.resizeInput(at: 0, to: Tensor.Shape([count]))
            try floor.allocateTensors()
            return floor
        }
        // The smallest whole-MiB total that admits the model (its arena holds input and output).
        var smallest = 1
        while (try? prepared(totalMiB: smallest)) == nil { smallest += 1; XCTAssertLessThan(smallest, 64) }
        XCTAssertGreaterThanOrEqual(smallest, 32)
        let tight = try prepared(totalMiB: smallest)
        try tight.copy([Float](repeating: 2.5, count: count).withUnsafeBufferPointer { Data(buffer: $0) }, toInputAt: 0)
        try tight.invoke()
        XCTAssertThrowsError(try tight.output(at: 0)) { error in
            guard case InterpreterError.resourceLimitExceeded(let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("a copy of tensor") && message.contains("withUnsafeOutputBytes"), message)
        }
        XCTAssertEqual(try tight.withUnsafeOutputBytes(at: 0) { $0.load(fromByteOffset: 4 * (count - 1), as: Float.self) }, 1,
                       "the fixture is FLOOR then MUL by 0.5")
        // Copying into the input hands back the input tensor without a second copy (it shares
        // the caller's data), so it is admitted at the tight limit.
        XCTAssertEqual(try tight.copy(Data(count: 4 * count), toInputAt: 0).data.count, 4 * count)
        // 16 MiB more and the copy out is admitted.
        let roomy = try prepared(totalMiB: smallest + 16)
        try roomy.copy([Float](repeating: 2.5, count: count).withUnsafeBufferPointer { Data(buffer: $0) }, toInputAt: 0)
        try roomy.invoke()
        XCTAssertEqual(try roomy.output(at: 0).data.count, 4 * count)
    }
}
