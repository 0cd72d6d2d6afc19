import Foundation
@testable import TFLiteInterpreter
import TFLiteSchema
import TestSupport
import XCTest

/// The arena of real models must not grow: each model's plan (from the shapes its file
/// declares) is checked against the size recorded when the planner was written.
/// Lower the recorded values when the planner improves; never raise them silently.
final class ArenaSizeTests: XCTestCase {
    /// Recorded arena bytes per model (greedy-by-size plan, 64-byte alignment).
    static let recorded: [(model: String, shared: Bool, arenaBytes: Int)] = [
        ("deeplabv3.tflite", false, 6_432_320),
        // Raised from 1,572,864 when float ADD + RELU pairs began to share one buffer
        // (`ClampFusion`): the merged lifetimes make the greedy placement of this model 1,769,472.
        ("face_detection_short_range.tflite", false, 1_769_472),
        ("face_detection_full_range.tflite", false, 3_981_312),
        ("face_detection_back.tflite", false, 5_505_024),
        ("efficientnet_lite0.tflite", false, 1_655_808),
        ("ssd_fish_uint8.tflite", true, 2_970_048),
        ("yolov8n_int8_640.tflite", true, 6_144_000),
    ]

    /// The plan of `path` using declared shapes, and the largest set of simultaneously live bytes.
    static func plan(_ path: String) throws -> (arena: Int, peakLive: Int) {
        let model = try Model(file: TFLiteModelFile(contentsOf: path), resolver: TestKernels.declaredShapes)
        let executor = SubgraphExecutor(blueprint: model.subgraphs[0], threads: ThreadPool(threadCount: 1))
        try executor.prepare()
        return (executor.arenaByteCount, executor.peakLiveByteCount)
    }

    /// The path of a recorded model, or nil (with the reason in `skipped`) when it is absent
    /// and may be. Where it may not — a shared model when `../shared/models` exists, any model
    /// under CI — `TestPaths` throws ``MissingPrerequisite`` and the test fails.
    static func path(of entry: (model: String, shared: Bool, arenaBytes: Int), skipped: inout [String]) throws -> String? {
        do {
            return entry.shared ? try TestPaths.sharedModel(entry.model) : try TestPaths.model(entry.model)
        } catch let skip as XCTSkip {
            skipped.append(skip.message ?? entry.model)
            return nil
        }
    }

    func testArenaSizesDoNotGrow() throws {
        var checked = 0, skipped: [String] = []
        for entry in Self.recorded {
            guard let path = try Self.path(of: entry, skipped: &skipped) else { continue }
            let (arena, peak) = try Self.plan(path)
            print("arena \(entry.model): \(arena) bytes (peak live set \(peak) bytes, recorded \(entry.arenaBytes))")
            XCTAssertLessThanOrEqual(arena, entry.arenaBytes, "\(entry.model): arena grew")
            XCTAssertGreaterThanOrEqual(arena, peak, "\(entry.model): arena below the live peak: planner overlaps tensors")
            checked += 1
        }
        if checked == 0 { throw TestEnvironment.missing("no reference models present: run Scripts/fetch-models.sh") }
        TestEnvironment.reportSkipped(skipped)
    }

    /// With the engine's real kernels, prepared shapes agree with the declared ones, so the
    /// arena is the recorded one. A model with operators the engine cannot run is skipped
    /// locally and fails the test under CI (``TestEnvironment``).
    func testRealKernelsPlanTheRecordedArena() throws {
        var checked: [String] = [], skipped: [String] = [], unsupported: [String] = []
        for entry in Self.recorded {
            guard let path = try Self.path(of: entry, skipped: &skipped) else { continue }
            let file = try TFLiteModelFile(contentsOf: path)
            let missing = Model.unsupportedOperators(in: file)
            guard missing.isEmpty else { unsupported.append("\(entry.model) (\(missing.joined(separator: ", ")))"); continue }
            let interpreter = try Interpreter(model: Model(file: file), options: .init(threadCount: 1))
            try interpreter.allocateTensors()
            XCTAssertLessThanOrEqual(interpreter.arenaByteCount, entry.arenaBytes, "\(entry.model): arena grew")
            checked.append(entry.model)
        }
        let notRun = unsupported.map { "\($0): operators the engine cannot run" } + skipped
        if checked.isEmpty { throw TestEnvironment.missing("no recorded model ran: \(notRun.joined(separator: "; "))") }
        TestEnvironment.reportSkipped(notRun)
    }
}
