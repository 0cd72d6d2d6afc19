import BatchDetection
import Foundation
import ModelHosting
import ObjectDetection

/// `bench --end-to-end --batch`: throughput of the streaming batch mode (`detect --jsonl`'s
/// ``BatchRunner``) on the sample photos, read and decoded from their files as a batch job
/// does, with the default detector and with a YOLO detector (`../shared/models`).
///
/// Each configuration runs the same list twice per thread count: without decode-ahead
/// (`prefetch 0`: read, decode, detect one after the other) and with it (`prefetch 2`: the next
/// images are decoded on another thread while the current one is detected). Reported per run:
/// images/s, images/s per core (images per second of CPU time the process used, so a run that
/// keeps two cores busy counts twice), the share of time spent decoding, and peak RSS. With
/// decode-ahead: the share of decoding hidden behind detection (1 − the time the detection
/// loop waited for images ÷ the decoding time, measured within the run) and the wall-time
/// speedup over the run without it.
struct BatchThroughputBenchmark {
    /// A detector configuration.
    struct Configuration {
        var name: String
        var options: ObjectDetectorOptions
    }

    let locations: PackageLocations
    let threadCounts: [Int]
    /// Items per measured run (the photos repeated).
    let itemCount: Int
    /// Runs per mode; the fastest is reported.
    static let repetitions = 2

    /// One measured run.
    struct Run: Encodable {
        var detector: String
        var threads: Int
        var prefetch: Int
        var items: Int
        var errors: Int
        var wallSeconds: Double
        var cpuSeconds: Double
        var decodeSeconds: Double
        var detectSeconds: Double
        var waitSeconds: Double
        var peakRSSBytes: Int
        /// Images per second of wall-clock time.
        var imagesPerSecond: Double
        /// Images per second of process CPU time (all threads).
        var imagesPerCoreSecond: Double

        init(detector: String, threads: Int, prefetch: Int, statistics: BatchStatistics, cpuSeconds: Double, peakRSSBytes: Int) {
            self.detector = detector; self.threads = threads; self.prefetch = prefetch
            items = statistics.items; errors = statistics.errors
            wallSeconds = statistics.wallSeconds; self.cpuSeconds = cpuSeconds
            decodeSeconds = statistics.decodeSeconds; detectSeconds = statistics.detectSeconds
            waitSeconds = statistics.waitSeconds; self.peakRSSBytes = peakRSSBytes
            imagesPerSecond = Double(items) / wallSeconds
            imagesPerCoreSecond = Double(items) / cpuSeconds
        }
    }

    /// The configurations whose models are present: the default detector (`Models/`) and
    /// YOLOv8n full-integer (`../shared/models/yolov8n_int8_640.tflite`), both up to five objects.
    func configurations(log: (String) -> Void) -> [Configuration] {
        var result: [Configuration] = []
        if FileManager.default.fileExists(atPath: (locations.modelsDirectory as NSString).appendingPathComponent(DefaultModels.localizerFileName)) {
            var options = ObjectDetectorOptions()
            options.shouldEnableMultipleObjects = true
            result.append(Configuration(name: "default (DeepLabV3)", options: options))
        } else {
            log("default detector skipped: no models in \(locations.modelsDirectory) (run Scripts/fetch-models.sh)")
        }
        let yolo = (locations.sharedModelsDirectory as NSString).appendingPathComponent("yolov8n_int8_640.tflite")
        if FileManager.default.fileExists(atPath: yolo) {
            var options = ObjectDetectorOptions()
            options.shouldEnableMultipleObjects = true
            options.detectorModel = .local(LocalModel(path: yolo))
            options.detectorLabelsPath = (locations.sharedModelsDirectory as NSString).appendingPathComponent("coco_labels.txt")
            result.append(Configuration(name: "yolov8n_int8_640", options: options))
        } else {
            log("YOLO detector skipped: \(yolo) is absent")
        }
        return result
    }

    /// Measures every configuration at every thread count, without and with decode-ahead.
    func run(log: (String) -> Void) throws -> [Run] {
        let photos = locations.sampleImages()
        guard !photos.isEmpty else { throw BatchBenchmarkError("no PNG images in \(locations.imagesDirectory): run Scripts/fetch-models.sh") }
        let list = FileManager.default.temporaryDirectory.appendingPathComponent("litevision-bench-items-\(getpid()).txt").path
        let lines = (0..<itemCount).map { photos[$0 % photos.count] }
        try (lines.joined(separator: "\n") + "\n").write(toFile: list, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: list) }

        var runs: [Run] = []
        for configuration in configurations(log: log) {
            for threads in threadCounts {
                log("batch: \(configuration.name) at \(threads) thread(s), \(itemCount) images")
                let detector = try ObjectDetector.objectDetector(options: configuration.options,
                                                                 modelDirectory: locations.modelsDirectory, threadCount: threads)
                // Warm-up: every photo once (first-touch of the arena, caches).
                for photo in photos { _ = try? detector.results(in: ImageFileLoader().load(photo).get()) }
                // Alternating repetitions, the fastest kept: load from other processes hits both modes alike.
                var best: [Int: Run] = [:]
                for _ in 0..<Self.repetitions {
                    for prefetch in [0, 2] {
                        PeakMemory.reset()
                        let cpuBefore = Self.processCPUSeconds()
                        let statistics = try BatchRunner(detector: detector, prefetch: prefetch)
                            .run(try WorkItemReader(path: list), emit: { _ in })
                        let run = Run(detector: configuration.name, threads: threads, prefetch: prefetch, statistics: statistics,
                                      cpuSeconds: Self.processCPUSeconds() - cpuBefore, peakRSSBytes: PeakMemory.peakBytes())
                        if run.wallSeconds < best[prefetch]?.wallSeconds ?? .infinity { best[prefetch] = run }
                    }
                }
                runs += [0, 2].compactMap { best[$0] }
            }
        }
        return runs
    }

    /// The table: one line per run, with the overlap gained on the decode-ahead line.
    static func render(_ runs: [Run]) -> String {
        var lines = [["detector", "thr", "prefetch", "images", "img/s", "img/s/core", "decode %", "peak RSS MB", "speedup", "decode hidden"]]
        for run in runs {
            var speedup = "", hidden = ""
            if run.prefetch > 0 {
                if run.decodeSeconds > 0 {
                    hidden = String(format: "%.0f%%", 100 * max(0, 1 - run.waitSeconds / run.decodeSeconds))
                }
                if let baseline = runs.first(where: { $0.detector == run.detector && $0.threads == run.threads && $0.prefetch == 0 }) {
                    speedup = String(format: "%.2fx", baseline.wallSeconds / run.wallSeconds)
                }
            }
            lines.append([run.detector, String(run.threads), String(run.prefetch), String(run.items),
                          String(format: "%.1f", run.imagesPerSecond), String(format: "%.1f", run.imagesPerCoreSecond),
                          String(format: "%.0f", 100 * run.decodeSeconds / run.wallSeconds),
                          String(format: "%.0f", Double(run.peakRSSBytes) / 1_048_576), speedup, hidden])
        }
        let widths = lines[0].indices.map { column in lines.map { $0[column].count }.max() ?? 0 }
        return lines.map { row in
            row.enumerated().map { column, cell in
                column == 0 ? cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                            : String(repeating: " ", count: widths[column] - cell.count) + cell
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// User plus system CPU time of the whole process so far.
    static func processCPUSeconds() -> Double {
        guard let usage = processResourceUsage() else { return 0 }
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}

/// Why the batch benchmark could not run.
struct BatchBenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
