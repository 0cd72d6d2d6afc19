import Foundation
import ImageCodecs
import ObjectDetection

/// The end-to-end rows: image to detections with the default detector
/// (`ObjectDetector.objectDetector(options:)`, models from `Models/`), timed per image
/// including preprocessing (color conversion, resize, normalization) and post-processing.
/// PNG decoding happens once, before timing. The images of `Models/images/` are used in turn.
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
    /// Warm-up and repetition policy (each run is one image).
    let policy: IterationPolicy

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
        for configuration in Configuration.allCases {
            for threads in threadCounts {
                rows.append(measure(configuration, threads: threads, images: images))
            }
        }
        return .success(rows)
    }

    /// Why the end-to-end rows were skipped.
    struct SkipReason: Error { var message: String }

    private func measure(_ configuration: Configuration, threads: Int, images: [VisionImage]) -> BenchmarkRow {
        var row = BenchmarkRow(model: configuration.rowName, path: "", threads: threads)
        do {
            PeakMemory.reset()
            let detector = try ObjectDetector.objectDetector(options: configuration.options,
                                                             modelDirectory: locations.modelsDirectory,
                                                             threadCount: threads)
            var next = 0
            let framesPerImage = configuration == .streamMultipleObjectsWithClassification ? 30 : 1
            let detectOne = {
                _ = try detector.results(in: images[next / framesPerImage % images.count])
                next += 1
            }
            try policy.warmUp(detectOne)
            // Every image once at least, so the median covers all of them.
            var measured = policy
            measured.minimumIterations = max(policy.minimumIterations, images.count)
            if let fixed = policy.fixedIterations { measured.fixedIterations = max(fixed, images.count) }
            let samples = try measured.measuredRuns(detectOne)
            if let statistics = LatencyStatistics(milliseconds: samples) { row.record(statistics) }
            row.peakRSSBytes = PeakMemory.peakBytes()
        } catch {
            row.error = "pipeline failed: \(error)"
        }
        return row
    }
}
