import Foundation
@testable import TFLiteInterpreter
import TFLiteKernels
import TFLiteSchema
import TestSupport
import XCTest

/// The arena of real models must not grow: each model's plan is checked against the size
/// measured when it was last changed, from the shapes its file declares (`arenaBytes`) and with
/// the engine's real kernels (`real`: their prepared shapes, the float ADD + RELU pairs that
/// share one buffer under `ClampFusion`, and the kernels' per-invoke scratch, which the arena
/// holds, and the per-thread kernel workspace). That scratch depends on the kernels this CPU
/// runs, through the switches of ``RealArena``: float models hold the depthwise kernels' input
/// windows (one per thread; the arena tests run 1 thread) only where
/// `DepthwiseConv2DOptimized.floatReadsInPlace` is false (no generated kernels,
/// `LITEVISION_JIT=0`), and a workspace sized by the float GEMM kernels there are (generated
/// tiles, or the Swift ones with `LITEVISION_JIT=0`); 8-bit models always hold their depthwise
/// windows, and the integer GEMM's activation copies and patch rows in the layout this CPU's
/// kernels take — int8 quads where `QuantizedGEMM.prefersInt8Quads`, int16 pairs, twice the
/// bytes, otherwise, as with `LITEVISION_JIT=0`.
/// The ceilings are the measured sizes, with no slack (the plans are deterministic): lower them
/// when the planner improves; never raise them silently.
final class ArenaSizeTests: XCTestCase {
    /// The arena with the engine's real kernels, for the kernel switches that change it.
    enum RealArena {
        /// A float model: depthwise input read in place (generated kernels, every level) /
        /// through windows, with the Swift float GEMM (no generated kernels, `LITEVISION_JIT=0`:
        /// the SSE2 GEMM's pre-broadcast inputs, which its kernel workspace holds, are larger
        /// than the generated tiles' run tables).
        case float(inPlace: Int, windowed: Int)
        /// An 8-bit model: integer GEMM operands as int8 quads / int16 pairs.
        case integer(quads: Int, pairs: Int)

        /// The bytes for the kernels this process runs.
        var current: Int {
            switch self {
            case .float(let inPlace, let windowed): return DepthwiseConv2DOptimized.floatReadsInPlace ? inPlace : windowed
            case .integer(let quads, let pairs): return QuantizedGEMM.prefersInt8Quads ? quads : pairs
            }
        }
    }

    /// Measured arena bytes per model (``ArenaPlanner``, 64-byte alignment), 2026-11-26.
    /// The real-kernel arenas hold the per-thread kernel workspace (``ThreadWorkspaceSlot``: one
    /// block per thread, live for the whole run, as large as the largest request; these
    /// temporaries were per-call stack or heap allocations before, outside the arena). At 1
    /// thread with the default kernels (AVX-512) that added: deeplabv3 38,464 bytes,
    /// face_detection_short_range and face_detection_back 105,088 (the float GEMM's run table
    /// for a block of 64 tiles of a 5 × 5 layer), face_detection_full_range 39,552,
    /// efficientnet_lite0 64,000 (the 8-bit SOFTMAX's exponentials of 16 rows of 1000),
    /// ssd_fish_uint8 1,280 and yolov8n_int8_640 2,560 (the integer GEMM's pointer table and
    /// accumulators); the int16-pair plans as much. Windowed float plans (one recorded value
    /// covered both builds before): `LITEVISION_ISA=avx2` deeplabv3 6,461,312,
    /// face_detection_short_range 1,847,616, face_detection_back 5,583,168 (+78,144 over the old
    /// value), face_detection_full_range 3,420,480; `LITEVISION_JIT=0` deeplabv3 6,481,472
    /// (+49,152), face_detection_short_range 1,847,232, face_detection_back 5,582,784,
    /// face_detection_full_range 4,018,176 (+36,864: one thread's pre-broadcast inputs, step scratch
    /// before, now live for the whole run).
    static let recorded: [(model: String, shared: Bool, arenaBytes: Int, real: RealArena)] = [
        // Float models: at 1 thread the depthwise windows mostly fit in steps below each model's
        // peak, so the windowed plans' arenas are mostly the in-place ones.
        ("deeplabv3.tflite", false, 6_432_320, .float(inPlace: 6_470_784, windowed: 6_481_472)),
        // The real kernels' plan is larger: merged ADD + RELU lifetimes (`ClampFusion`) place worse here.
        ("face_detection_short_range.tflite", false, 1_572_864, .float(inPlace: 1_874_560, windowed: 1_847_232)),
        // With the fusions, placing in order of first use beats greedy by size (3,981,312 bytes);
        // the windows' step (without generated depthwise tiles) is this model's live peak.
        ("face_detection_full_range.tflite", false, 3_981_312, .float(inPlace: 3_431_040, windowed: 4_018_176)),
        ("face_detection_back.tflite", false, 5_505_024, .float(inPlace: 5_610_112, windowed: 5_582_784)),
        // The 8-bit models' arenas hold their GEMM scratch and their depthwise windows (before
        // the GEMM scratch moved there: 1,655,808, 2,970,048 and 4,526,144 bytes; before the
        // windows did, with the GEMM scratch: efficientnet_lite0 1,756,608 / 1,956,928 and
        // ssd_fish_uint8 3,240,512 / 3,510,080 bytes with quads / pairs, the windows allocated
        // per call on top). efficientnet_lite0's largest per-thread workspace is its SOFTMAX's
        // (1,000 classes); it also holds each group's sums, reciprocals and bits over one in plain
        // memory (+192 bytes; before: 2,131,840) and, for the generated passes, each row's rounding
        // terms (+384 bytes; before: 2,132,032). ssd_fish_uint8's largest is a 1 × 1 GEMM's, which
        // holds the layer's shared tap offsets (`GEMMOffsetTable`, +64 bytes; before: 3,290,048 / 3,511,360).
        ("efficientnet_lite0.tflite", false, 1_655_808, .integer(quads: 2_132_416, pairs: 2_132_416)),
        ("ssd_fish_uint8.tflite", true, 2_970_048, .integer(quads: 3_290_112, pairs: 3_511_424)),
        // yolov8n's first layer gathers 320 × 320 patch rows of 27 values at the step where its
        // 640 × 640 input and its output are live. Its PADs fold into their convolutions
        // (`PadFusion`), so the padded 642 × 642 input is never held (before: 6,973,632 / 9,840,768).
        ("yolov8n_int8_640.tflite", true, 6_144_000, .integer(quads: 5_737_088, pairs: 8_604_224)),
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
    static func path(of entry: (model: String, shared: Bool, arenaBytes: Int, real: RealArena),
                     skipped: inout [String]) throws -> String? {
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
            let recorded = entry.real.current
            print("real-kernel arena \(entry.model): \(interpreter.arenaByteCount) bytes (recorded \(recorded)), "
                  + "peak live set \(interpreter.arenaUsage.peakLiveByteCount) bytes")
            XCTAssertLessThanOrEqual(interpreter.arenaByteCount, recorded, "\(entry.model): arena grew")
            XCTAssertGreaterThanOrEqual(interpreter.arenaByteCount, interpreter.arenaUsage.peakLiveByteCount, entry.model)
            checked.append(entry.model)
        }
        let notRun = unsupported.map { "\($0): operators the engine cannot run" } + skipped
        if checked.isEmpty { throw TestEnvironment.missing("no recorded model ran: \(notRun.joined(separator: "; "))") }
        TestEnvironment.reportSkipped(notRun)
    }
}
