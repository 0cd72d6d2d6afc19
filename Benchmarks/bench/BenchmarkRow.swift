/// One line of the benchmark table (one model at one thread count), also the `--json` object.
struct BenchmarkRow: Codable, Sendable {
    /// Model file name (or `end_to_end_default_detector` for the pipeline row).
    var model: String
    /// Full path of the model file (empty for the pipeline row).
    var path: String
    /// Kernel threads.
    var threads: Int
    /// Measured runs.
    var iterations: Int = 0
    /// Median latency, milliseconds.
    var medianMilliseconds: Double?
    /// 90th percentile latency, milliseconds.
    var p90Milliseconds: Double?
    /// Fastest run, milliseconds.
    var minimumMilliseconds: Double?
    /// Load + prepare + allocate + first invoke, milliseconds (see `ModelBenchmark`).
    var coldStartMilliseconds: Double?
    /// Images (invokes) per second at the median latency.
    var imagesPerSecond: Double?
    /// Estimated multiply-accumulates per invoke (`TFLiteModelFile.estimatedMACs()`).
    var macs: Int?
    /// Effective GMAC/s at the median latency.
    var gmacPerSecond: Double?
    /// Bytes of the interpreter's activation arena.
    var arenaBytes: Int?
    /// Most arena bytes alive at one step of the interpreter's run order, the lower bound its
    /// arena plan is measured against (`Interpreter.arenaUsage`).
    var peakLiveBytes: Int?
    /// Peak resident set size, bytes.
    var peakRSSBytes: Int?
    /// Why the row has no measurement (load or run failure).
    var error: String?
    /// The reference runtime's built-in kernels (`BUILTIN_WITHOUT_DEFAULT_DELEGATES`), when compared.
    var referenceBuiltin: ReferenceMeasurement?
    /// The reference runtime's default path (XNNPACK delegate), when compared.
    var referenceXNNPACK: ReferenceMeasurement?
    /// Our median / the built-in kernels' median.
    var ratioToBuiltin: Double?
    /// Our median / XNNPACK's median.
    var ratioToXNNPACK: Double?
    /// Per-operator-type time (`--profile`), slowest first.
    var profile: [OperatorTypeTime]?
    /// The slowest individual operators (`--profile`), slowest first.
    var slowestOperators: [OperatorTime]?

    enum CodingKeys: String, CodingKey {
        case model, path, threads, iterations
        case medianMilliseconds = "median_ms", p90Milliseconds = "p90_ms", minimumMilliseconds = "min_ms"
        case imagesPerSecond = "images_per_s", macs, gmacPerSecond = "gmac_per_s", coldStartMilliseconds = "cold_start_ms"
        case arenaBytes = "arena_bytes", peakLiveBytes = "peak_live_bytes", peakRSSBytes = "peak_rss_bytes", error
        case referenceBuiltin = "reference_builtin", referenceXNNPACK = "reference_xnnpack"
        case ratioToBuiltin = "ratio_to_builtin", ratioToXNNPACK = "ratio_to_xnnpack", profile
        case slowestOperators = "slowest_operators"
    }

    /// Stores latency statistics and the figures derived from them.
    mutating func record(_ statistics: LatencyStatistics) {
        iterations = statistics.count
        medianMilliseconds = statistics.medianMilliseconds
        p90Milliseconds = statistics.p90Milliseconds
        minimumMilliseconds = statistics.minimumMilliseconds
        if statistics.medianMilliseconds > 0 {
            imagesPerSecond = 1000 / statistics.medianMilliseconds
            if let macs, macs > 0 { gmacPerSecond = Double(macs) / statistics.medianMilliseconds / 1e6 }
        }
    }

    /// Attaches the reference runtime's measurements of the same model and thread count.
    mutating func attach(builtin: ReferenceMeasurement?, xnnpack: ReferenceMeasurement?) {
        referenceBuiltin = builtin
        referenceXNNPACK = xnnpack
        if let ours = medianMilliseconds {
            if let theirs = builtin?.medianMilliseconds, theirs > 0 { ratioToBuiltin = ours / theirs }
            if let theirs = xnnpack?.medianMilliseconds, theirs > 0 { ratioToXNNPACK = ours / theirs }
        }
    }
}

/// Time spent in one operator type per invoke (from the interpreter's operator profile).
struct OperatorTypeTime: Codable, Sendable {
    /// Operator name, e.g. `CONV_2D`.
    var name: String
    /// Operators of this type in the model.
    var count: Int
    /// Milliseconds per invoke, all operators of this type together.
    var milliseconds: Double
    /// Share of the profiled time, percent.
    var percent: Double

    enum CodingKeys: String, CodingKey { case name = "operator", count, milliseconds = "ms", percent }
}

/// Time of one operator of the model per invoke (from the interpreter's operator profile).
struct OperatorTime: Codable, Sendable {
    /// Position of the operator in the model's subgraph.
    var position: Int
    /// Operator name, e.g. `CONV_2D`.
    var name: String
    /// Shape of its first output.
    var outputShape: [Int]
    /// Milliseconds per invoke.
    var milliseconds: Double
    /// Share of the profiled time, percent.
    var percent: Double

    enum CodingKeys: String, CodingKey {
        case position, name = "operator", outputShape = "output_shape", milliseconds = "ms", percent
    }
}
