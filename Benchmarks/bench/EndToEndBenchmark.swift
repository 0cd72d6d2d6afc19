import Foundation
import ImageCodecs
import ObjectDetection

/// The end-to-end rows: image to detections with the default detector
/// (`ObjectDetector.objectDetector(options:)`, models from `Models/`), timed per image
/// including preprocessing (color conversion, resize, normalization) and post-processing.
/// PNG decoding happens once, before timing. The images of `Models/images/` are used in turn,
/// and every row measures whole rounds of them (each photo as often, or for as many frames, as
/// every other), so rows of different configurations cover the same photos and compare.
struct EndToEndBenchmark {
    /// The detector configurations measured.
    enum Configuration: CaseIterable {
        /// `ObjectDetectorOptions()`: stream mode, the most prominent object, no labels (DeepLabV3).
        case defaultOptions
        /// Single-image mode, multiple objects, coarse categories (DeepLabV3 + EfficientNet-Lite0 per object).
        case multipleObjectsWithClassification
        /// Stream mode, multiple objects, coarse categories: each photo held for 30 frames (a still
        /// camera), so tracks persist and their labels are refreshed in the background.
        case streamMultipleObjectsWithClassification

        /// Row name in the table.
        var rowName: String {
            switch self {
            case .defaultOptions: return "e2e_default_detector"
            case .multipleObjectsWithClassification: return "e2e_detector_multi_classify"
            case .streamMultipleObjectsWithClassification: return "e2e_stream_multi_classify"
            }
        }

        /// Frames each photo is held for (a still camera in stream mode, else 1).
        var framesPerImage: Int { self == .streamMultipleObjectsWithClassification ? 30 : 1 }

        /// The configuration of a row name.
        init?(rowName: String) {
            guard let match = Self.allCases.first(where: { $0.rowName == rowName }) else { return nil }
            self = match
        }

        /// The detector options.
        var options: ObjectDetectorOptions {
            var options = ObjectDetectorOptions()
            if self != .defaultOptions {
                options.detectorMode = self == .multipleObjectsWithClassification ? .singleImage : .stream
                options.shouldEnableMultipleObjects = true
                options.shouldEnableClassification = true
            }
            return options
        }
    }

    /// Where the models and images are.
    let locations: PackageLocations
    /// Thread counts to measure.
    let threadCounts: [Int]
    /// Warm-up and repetition policy (each run is one image). The measured runs are extended
    /// to whole rounds of the photos (see ``measure(_:threads:images:)``).
    let policy: IterationPolicy
    /// The configurations measured, in this order.
    var configurations: [Configuration] = Configuration.allCases

    /// Rows for every configuration and thread count, or a reason when the pipeline cannot run
    /// (no `Models/` or no images).
    func run() -> Result<[BenchmarkRow], SkipReason> {
        let imagePaths = locations.sampleImages()
        guard FileManager.default.fileExists(atPath: locations.modelsDirectory) else {
            return .failure(SkipReason(message: "no \(locations.modelsDirectory): run Scripts/fetch-models.sh"))
        }
        guard !imagePaths.isEmpty else {
            return .failure(SkipReason(message: "no PNG images in \(locations.imagesDirectory): run Scripts/fetch-models.sh"))
        }
        let images: [VisionImage]
        do {
            images = try imagePaths.map { try VisionImage(pngFile: $0) }
        } catch {
            return .failure(SkipReason(message: "cannot decode the sample images: \(error)"))
        }
        var rows: [BenchmarkRow] = []
        for configuration in configurations {
            for threads in threadCounts {
                rows.append(measure(configuration, threads: threads, images: images))
            }
        }
        return .success(rows)
    }

    /// Why the end-to-end rows were skipped.
    struct SkipReason: Error { var message: String }

    /// One row: warm-up frames, then the measured frames from the first photo on (stream mode
    /// starts a new stream there: tracks and labels of the warm-up are forgotten), at least one
    /// round of the photos (`images.count × framesPerImage` frames) and always whole rounds, so
    /// each photo weighs the same in the median and p90 as in every other row. (Time-boxed runs
    /// that stopped within a round measured stream mode on its first photo only, the costliest
    /// one, against the other rows' average over all photos.)
    private func measure(_ configuration: Configuration, threads: Int, images: [VisionImage]) -> BenchmarkRow {
        var row = BenchmarkRow(model: configuration.rowName, path: "", threads: threads)
        do {
            PeakMemory.reset()
            let detector = try ObjectDetector.objectDetector(options: configuration.options,
                                                             modelDirectory: locations.modelsDirectory,
                                                             threadCount: threads)
            var next = 0
            let framesPerImage = configuration.framesPerImage
            let detectOne = {
                _ = try detector.results(in: images[next / framesPerImage % images.count])
                next += 1
            }
            try policy.warmUp(detectOne)
            next = 0
            detector.resetTracking()
            // Every photo for its frames at least, so the median covers all of them.
            let round = images.count * framesPerImage
            var measured = policy
            measured.minimumIterations = max(policy.minimumIterations, round)
            measured.maximumIterations = max(policy.maximumIterations, round)
            if let fixed = policy.fixedIterations { measured.fixedIterations = max(fixed, round) }
            var samples = try measured.measuredRuns(detectOne)
            while samples.count % round != 0 { samples.append(try IterationPolicy.time(detectOne)) }
            if let statistics = LatencyStatistics(milliseconds: samples) { row.record(statistics) }
            row.peakRSSBytes = PeakMemory.peakBytes()
        } catch {
            row.error = "pipeline failed: \(error)"
        }
        return row
    }
}
