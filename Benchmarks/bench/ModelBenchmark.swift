import Foundation
import TFLiteSchema
import TFLiteInterpreter

/// Benchmarks one model file at several thread counts: loads it once, then per thread count
/// creates an interpreter, fills random inputs, and times `invoke()` by the iteration policy.
/// Load and run failures become rows carrying the error; they never stop the benchmark.
struct ModelBenchmark {
    /// The `.tflite` file.
    let path: String
    /// Thread counts to measure, in order.
    let threadCounts: [Int]
    /// Warm-up and repetition policy.
    let policy: IterationPolicy
    /// Whether to collect the per-operator profile.
    let profiling: Bool
    /// How float convolutions round (`--float-arithmetic`).
    var floatArithmetic = FloatArithmetic.automatic
    /// Individual operators kept in the profile (the slowest).
    var slowestOperatorCount = 8

    /// One row per thread count.
    func run() -> [BenchmarkRow] {
        let name = (path as NSString).lastPathComponent
        let model: Model
        do {
            model = try Model(path: path)
        } catch {
            return threadCounts.map { BenchmarkRow(model: name, path: path, threads: $0, error: "load failed: \(error)") }
        }
        let macs = model.file.estimatedMACs()
        return threadCounts.map { threads in
            var row = BenchmarkRow(model: name, path: path, threads: threads)
            row.macs = macs
            do {
                row.coldStartMilliseconds = try coldStart(threads: threads)
                PeakMemory.reset()
                var options = Interpreter.Options(threadCount: threads)
                options.isProfilingEnabled = profiling
                options.floatArithmetic = floatArithmetic
                let interpreter = try Interpreter(model: model, options: options)
                try interpreter.allocateTensors()
                var inputs = RandomInputs()
                try inputs.fill(interpreter)
                let arena = interpreter.arenaUsage
                row.arenaBytes = arena.arenaByteCount
                row.peakLiveBytes = arena.peakLiveByteCount
                try policy.warmUp { try interpreter.invoke() }
                if profiling { try interpreter.resetOperatorProfile() }  // profile the measured runs only
                let samples = try policy.measuredRuns { try interpreter.invoke() }
                if let statistics = LatencyStatistics(milliseconds: samples) { row.record(statistics) }
                row.peakRSSBytes = PeakMemory.peakBytes()
                if profiling {
                    let profile = interpreter.operatorProfile
                    row.profile = OperatorTypeTime.summarize(profile)
                    row.slowestOperators = OperatorTime.slowest(profile, count: slowestOperatorCount)
                }
            } catch {
                row.error = "run failed: \(error)"
            }
            return row
        }
    }

    /// Milliseconds from reading the file to the end of the first invoke on random inputs:
    /// load, prepare (weight packing, kernel choice, and for the process's first model the
    /// code generation), arena allocation and one run — what a new process pays per model.
    private func coldStart(threads: Int) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        var options = Interpreter.Options(threadCount: threads)
        options.floatArithmetic = floatArithmetic
        let interpreter = try Interpreter(model: try Model(path: path), options: options)
        try interpreter.allocateTensors()
        var inputs = RandomInputs()
        try inputs.fill(interpreter)
        try interpreter.invoke()
        // The interpreter and its model are released after the clock stops: the optimizer may
        // otherwise end their lifetime after the last use, timing the teardown as well.
        return withExtendedLifetime(interpreter) { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 }
    }
}
