import ArgumentParser
import Foundation
import MachineCode
import TFLiteInterpreter
import TFLiteKernels

/// `swift run -c release bench`: latency, throughput, arena and memory of the reference
/// models, compared with the reference runtime where it is installed, optionally profiled per
/// operator type.
@main
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmark LiteVision's interpreter on TFLite models.",
        discussion: """
            Without --model, benchmarks every .tflite file in Models/ and ../shared/models/ (relative to \
            the package root) at 1 thread and at all cores, plus the end-to-end default-detector rows \
            (image -> detections on Models/images/*.png, per image including preprocessing).
            Each row: warm-up runs, then measured invokes (time-boxed by --seconds unless --iterations \
            is given) on random inputs of the right type.
            The model rows are compared with the reference runtime (--no-compare: not): \
            Scripts/reference-bench.py runs with $LITEVISION_PYTHON (else python3), which needs the \
            ai-edge-litert package (python3 -m pip install ai-edge-litert), for both the reference \
            runtime's built-in kernels (BUILTIN_WITHOUT_DEFAULT_DELEGATES) and its default XNNPACK path; \
            without the package the comparison is skipped with a message.
            Use a release build: swift run -c release bench
            """)

    @Option(name: .customLong("model"), help: "A .tflite model to benchmark (repeatable; default: every reference model).")
    var models: [String] = []

    @Option(name: .customLong("threads"),
            help: "A thread count (repeatable; default: 1 and all cores).")
    var threadCounts: [Int] = []

    @Option(help: "Measured runs per row (default: time-boxed, see --seconds).")
    var iterations: Int?

    @Option(help: "Time budget of the measured runs per row, in seconds, when --iterations is not given.")
    var seconds: Double = 1.5

    @Option(help: "Warm-up runs per row.")
    var warmup: Int = 2

    @Flag(help: "Print a JSON array of row objects instead of the table.")
    var json = false

    @Flag(inversion: .prefixedNo,
          help: "Also run the reference runtime (built-in kernels and XNNPACK) and print our/their ratios (where it is installed).")
    var compare = true

    @Flag(help: "Collect and print the time per operator type.")
    var profile = false

    @Option(help: "Operator types, and slowest individual operators, listed per profiled row.")
    var profileTop: Int = 8

    @Flag(inversion: .prefixedNo,
          help: "Add the end-to-end default-detector rows (default: on without --model, off with it).")
    var endToEnd: Bool?

    @Option(name: .customLong("end-to-end-row"),
            help: "An end-to-end row to measure (repeatable: e2e_default_detector, e2e_detector_multi_classify, e2e_stream_multi_classify; default: all). Without --model, only these rows are measured.")
    var endToEndRows: [String] = []

    @Flag(help: "With --end-to-end: measure the streaming batch mode (detect --jsonl) instead: images/s and images/s per core with the default and the YOLO detector, without and with decode-ahead.")
    var batch = false

    @Option(help: "With --batch: images per measured run (the sample photos repeated).")
    var batchImages: Int = 60

    @Option(help: "Float convolution rounding: automatic (fused multiply-adds unless the model quantizes float activations), reference, or fused.")
    var floatArithmetic: FloatArithmetic = .automatic

    @Option(name: .customLong("reference-isa"),
            help: "Instruction sets of the reference runtime's kernels: auto (the level ours run at when LITEVISION_ISA or LITEVISION_JIT=0 caps it below the CPU's, so both engines run the same instructions), native (whatever the CPU has), or a level (sse2|avx2|avxvnni|avx512|avx512vnni).")
    var referenceInstructionSet: ReferenceInstructionSet = .automatic

    func validate() throws {
        if let iterations, iterations < 1 { throw ValidationError("--iterations must be at least 1") }
        if threadCounts.contains(where: { $0 < 1 }) { throw ValidationError("--threads must be at least 1") }
        if !(seconds > 0) { throw ValidationError("--seconds must be positive") }
        if warmup < 0 { throw ValidationError("--warmup must not be negative") }
        if profileTop < 1 { throw ValidationError("--profile-top must be at least 1") }
        if batch && endToEnd == false { throw ValidationError("--batch measures the end-to-end pipeline: drop --no-end-to-end") }
        if batchImages < 1 { throw ValidationError("--batch-images must be at least 1") }
        if !endToEndRows.isEmpty && endToEnd == false { throw ValidationError("--end-to-end-row measures end-to-end rows: drop --no-end-to-end") }
        for row in endToEndRows where EndToEndBenchmark.Configuration(rowName: row) == nil {
            throw ValidationError("unknown end-to-end row \(row): use one of \(EndToEndBenchmark.Configuration.allCases.map(\.rowName).joined(separator: ", "))")
        }
    }

    func run() throws {
        let locations = PackageLocations()
        if batch { return try runBatch(locations) }
        let modelPaths = models.isEmpty && endToEndRows.isEmpty ? locations.referenceModels() : models
        let threads = resolvedThreadCounts()
        let policy = IterationPolicy(warmUpCount: warmup, fixedIterations: iterations, minimumIterations: 5,
                                     maximumIterations: 200, secondsBudget: seconds)
        if modelPaths.isEmpty && models.isEmpty && endToEndRows.isEmpty {
            log("no models found in \(locations.modelsDirectory) or \(locations.sharedModelsDirectory): run Scripts/fetch-models.sh")
        }
        #if DEBUG
        log("warning: this is a debug build; measure with `swift run -c release bench`")
        #endif
        log("CPU: \(CPUFeatures.current.map { "\($0)" } ?? "features unknown")")

        // The reference runtime is checked (a Python process importing it) after the first model's
        // own rows, so that its start and exit do not disturb that model's cold start.
        var reference: ReferenceRuntime?
        var referenceChecked = !compare
        func checkedReference() -> ReferenceRuntime? {
            guard !referenceChecked else { return reference }
            referenceChecked = true
            var runtime = ReferenceRuntime(locations: locations)
            if let reason = runtime.unavailabilityReason() {
                log("comparison skipped: \(reason)")
            } else {
                runtime.instructionSetCap = referenceInstructionSet.cap(policy: CodeGenerationPolicy.current,
                                                                        supported: CPUFeatures.current?.supportedLevel)
                if let cap = runtime.instructionSetCap {
                    log("reference runtime capped at \(cap) (our kernels: \(CodeGenerationPolicy.current))")
                }
                reference = runtime
            }
            return reference
        }

        var rows: [BenchmarkRow] = []
        for path in modelPaths {
            log("benchmarking \(path) at \(threads.map(String.init).joined(separator: ", ")) thread(s)")
            var benchmark = ModelBenchmark(path: path, threadCounts: threads, policy: policy, profiling: profile,
                                           floatArithmetic: floatArithmetic)
            benchmark.slowestOperatorCount = profileTop
            var modelRows = benchmark.run()
            if modelRows.contains(where: { $0.error == nil }), let reference = checkedReference() {
                log("  reference runtime on \((path as NSString).lastPathComponent)")
                // Our first model's cold start includes the process's first-use costs (code
                // generation among them): the reference's first XNNPACK interpreter then pays its own.
                let measurements = reference.measure(model: path, threads: threads, policy: policy,
                                                     xnnpackFirst: path == modelPaths.first)
                for k in modelRows.indices {
                    let matching = measurements.filter { $0.threads == modelRows[k].threads }
                    modelRows[k].attach(builtin: matching.first { $0.runtime == "builtin" },
                                        xnnpack: matching.first { $0.runtime == "xnnpack" })
                }
            }
            if let error = modelRows.lazy.compactMap(\.error).first { log("  skipped: \(error)") }
            rows += modelRows
        }
        // Named only now: listing the kernels generates them, and the first model's cold start
        // includes that generation, as a new process's first model load does.
        log(GeneratedKernels.summary)

        if endToEnd ?? (models.isEmpty || !endToEndRows.isEmpty) {
            log("benchmarking the end-to-end default detector")
            var endToEndBenchmark = EndToEndBenchmark(locations: locations, threadCounts: threads, policy: policy)
            if !endToEndRows.isEmpty { endToEndBenchmark.configurations = endToEndRows.compactMap(EndToEndBenchmark.Configuration.init(rowName:)) }
            switch endToEndBenchmark.run() {
            case .success(let endToEndRows): rows += endToEndRows
            case .failure(let reason): log("end-to-end rows skipped: \(reason.message)")
            }
        }

        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(rows), as: UTF8.self))
        } else {
            print(ResultTable(rows: rows, showsComparison: checkedReference() != nil, profileEntries: profileTop).render())
            if !PeakMemory.isPerRow {
                print("\n(peak RSS is the process-wide peak so far: this system does not allow resetting it per row)")
            }
        }
    }

    /// `--batch`: the streaming-mode table (or JSON array of runs).
    private func runBatch(_ locations: PackageLocations) throws {
        let benchmark = BatchThroughputBenchmark(locations: locations, threadCounts: resolvedThreadCounts(), itemCount: batchImages)
        let runs = try benchmark.run(log: log)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(runs), as: UTF8.self))
        } else {
            print(BatchThroughputBenchmark.render(runs))
        }
    }

    /// `--threads` as given, else 1 and every active core (just 1 on a single-core machine).
    private func resolvedThreadCounts() -> [Int] {
        if !threadCounts.isEmpty { return threadCounts }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        return cores > 1 ? [1, cores] : [1]
    }

    private func log(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}

extension FloatArithmetic: ExpressibleByArgument {
    /// `automatic`, `reference` or `fused` (``FloatArithmetic/name``).
    public init?(argument: String) { self.init(name: argument) }

    public static var allValueStrings: [String] { allCases.map(\.name) }
}
