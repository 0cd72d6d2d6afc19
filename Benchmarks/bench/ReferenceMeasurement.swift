/// One measurement of the reference runtime by `Scripts/reference-bench.py`.
struct ReferenceMeasurement: Codable, Sendable {
    /// Model file path as given to the script.
    var model: String
    /// Kernel threads.
    var threads: Int
    /// `builtin` (`BUILTIN_WITHOUT_DEFAULT_DELEGATES`) or `xnnpack` (the default resolver).
    var runtime: String
    /// Measured runs.
    var iterations: Int?
    /// Median latency, milliseconds.
    var medianMilliseconds: Double?
    /// 90th percentile latency, milliseconds.
    var p90Milliseconds: Double?
    /// Fastest run, milliseconds.
    var minimumMilliseconds: Double?
    /// Interpreter creation + allocation + first invoke, milliseconds.
    var coldStartMilliseconds: Double?
    /// The instruction-set level the runtime's kernels were capped at (`--reference-isa`), if any.
    var isaCap: String?
    /// Why there is no measurement.
    var error: String?

    enum CodingKeys: String, CodingKey {
        case model, threads, runtime, iterations, error, isaCap = "isa_cap"
        case medianMilliseconds = "median_ms", p90Milliseconds = "p90_ms", minimumMilliseconds = "min_ms"
        case coldStartMilliseconds = "cold_start_ms"
    }
}
