import Foundation
import ModelHosting
import ObjectTracking
import TFLiteSchema

/// Detects, tracks and classifies objects in images (the SDK's `ObjectDetector`).
///
/// Create one with `objectDetector(options:)`, then call `results(in:)` per image or frame.
/// In stream mode the detector keeps tracking state between calls: feed it the frames of one
/// stream in order. Calls are serialized; one detector can be shared across tasks.
public final class ObjectDetector: @unchecked Sendable {
    private let lock = NSLock()
    private let settings: Settings
    private let localizer: any Localizer
    private let classifier: ((RGBImage, ImageRect) throws -> [ObjectLabel])?
    private let tracking: TrackingFeed?
    /// Stream mode with a classifier: labels per tracking ID, classified in the background.
    private let labelCache: TrackLabelCache?
    /// The longest side of the detector's and the classifier's model inputs (0 when unknown).
    var largestModelInputSide = 0

    /// The shortest side, in pixels, a photo needs for this detector's models: twice the
    /// longest side of its model inputs (detector and classifier), so a crop of half the photo
    /// still covers the classifier's input. Pass it to a decoder that can decode at a reduced
    /// scale (ImageCodecs' `VisionImage(contentsOf:minimumShortSide:)`); results stay in the
    /// full photo's coordinates (see ``VisionImage/reducedScaleSource``). 0 when unknown.
    public var preferredMinimumShortSide: Int { 2 * largestModelInputSide }

    /// What the detector does with candidates, common to both option types.
    struct Settings {
        /// The settings both option types share.
        init(_ options: some DetectorOptionsCommon, scoreThreshold: Float = 0) {
            mode = options.detectorMode; multipleObjects = options.shouldEnableMultipleObjects
            classification = options.shouldEnableClassification; maxObjectCount = options.maxObjectCount
            allowList = options.labelAllowList; denyList = options.labelDenyList
            tracking = TrackingSettings(options, scoreThreshold: scoreThreshold)
            self.scoreThreshold = scoreThreshold
        }
        var mode: DetectorMode
        var multipleObjects: Bool
        var classification: Bool
        var maxObjectCount: Int
        var allowList: Set<String>?
        var denyList: Set<String>
        var tracking: TrackingSettings
        /// Score an object needs to be reported (stream mode: or a track that continues through it).
        var scoreThreshold: Float
    }

    init(settings: Settings, localizer: any Localizer,
         classifier: ((RGBImage, ImageRect) throws -> [ObjectLabel])?,
         clock: any TrackingClock, labelExecutor: any ClassificationExecutor = SerialClassificationExecutor(),
         labelPolicy: TrackLabelCache.Policy = TrackLabelCache.Policy()) {
        self.settings = settings
        self.localizer = localizer
        self.classifier = classifier
        if settings.mode == .stream, settings.classification, let classifier {
            // Only the cache's serial executor calls the classifier from here on.
            let handle = ClassifierHandle(run: classifier)
            labelCache = TrackLabelCache(policy: labelPolicy, clock: clock, executor: labelExecutor) { try handle.run($0, $1) }
        } else {
            labelCache = nil
        }
        tracking = settings.mode == .stream ? TrackingFeed(settings: settings.tracking, clock: clock) : nil
    }

    /// The default detector: prominent objects (DeepLabV3 regions and EfficientNet-Lite0
    /// activation maps, see `EverydayObjectLocalizer`) with optional coarse categories
    /// (EfficientNet-Lite0), models from `modelDirectory`. `resourceLimits` bound
    /// every model's load and allocations and every label file read.
    public static func objectDetector(options: ObjectDetectorOptions = ObjectDetectorOptions(),
                                      modelDirectory: String = DefaultModels.directory,
                                      threadCount: Int? = nil,
                                      resourceLimits: ResourceLimits = .default,
                                      clock: any TrackingClock = SystemTrackingClock()) throws -> ObjectDetector {
        try options.validate()
        let (localizer, threshold) = try makeLocalizer(
            detectorModel: options.detectorModel, labelsPath: options.detectorLabelsPath,
            scoreThreshold: options.detectionScoreThreshold, mode: options.detectorMode, modelDirectory: modelDirectory,
                                          modelManager: .shared, threadCount: threadCount, limits: resourceLimits)
        var classify: ((RGBImage, ImageRect) throws -> [ObjectLabel])?
        var classifierSide = 0
        if options.shouldEnableClassification && options.detectorModel == nil {
            let imageClassifier = try ImageClassifier(
                modelPath: DefaultModels.path(DefaultModels.classifierFileName, in: modelDirectory),
                labels: nil, threadCount: threadCount, limits: resourceLimits)
            classifierSide = max(imageClassifier.runner.inputSize.width, imageClassifier.runner.inputSize.height)
            let coarse = CoarseCategoryClassifier(classifier: imageClassifier)
            classify = { try coarse.classify($0, region: $1) }
        }
        let detector = ObjectDetector(
            settings: Settings(options, scoreThreshold: threshold), localizer: localizer, classifier: classify, clock: clock)
        detector.largestModelInputSide = max(localizer.largestInputSide, classifierSide)
        return detector
    }

    /// A detector with a custom classifier (and optionally a custom detector model as localizer).
    /// Hosted models must have been downloaded; see `ModelSource.remote(_:fallback:)`.
    /// `resourceLimits` bound every model's load and allocations and every label file read.
    public static func objectDetector(options: CustomObjectDetectorOptions,
                                      modelDirectory: String = DefaultModels.directory,
                                      modelManager: ModelManager = .shared,
                                      threadCount: Int? = nil,
                                      resourceLimits: ResourceLimits = .default,
                                      clock: any TrackingClock = SystemTrackingClock()) throws -> ObjectDetector {
        try options.validate()
        let (localizer, threshold) = try makeLocalizer(
            detectorModel: options.detectorModel, labelsPath: options.detectorLabelsPath,
            scoreThreshold: options.detectionScoreThreshold, mode: options.detectorMode, modelDirectory: modelDirectory,
                                          modelManager: modelManager, threadCount: threadCount, limits: resourceLimits)
        var classify: ((RGBImage, ImageRect) throws -> [ObjectLabel])?
        var classifierSide = 0
        if options.shouldEnableClassification {
            let labels = try options.classifierLabelsPath.map { try LabelList(contentsOf: $0, limits: resourceLimits) }
            let classifier = try ImageClassifier(modelPath: options.model.resolvedFilePath(using: modelManager),
                                                 labels: labels, threadCount: threadCount, limits: resourceLimits)
            classifierSide = max(classifier.runner.inputSize.width, classifier.runner.inputSize.height)
            let threshold = options.classificationConfidenceThreshold ?? classifier.metadataScoreThreshold ?? 0
            let maxCount = options.maxPerObjectLabelCount
            classify = { try classifier.classify($0, region: $1, threshold: threshold, maxCount: maxCount) }
        }
        let detector = ObjectDetector(
            settings: Settings(options, scoreThreshold: threshold), localizer: localizer, classifier: classify, clock: clock)
        detector.largestModelInputSide = max(localizer.largestInputSide, classifierSide)
        return detector
    }

    /// The given detector model as localizer (its family from ``DetectorFamilyRegistry/shared``),
    /// else the default localizer (`EverydayObjectLocalizer`), and the score an object needs to be
    /// reported. In stream mode the localizer also returns candidates down to
    /// ``TrackingFeed/lowScoreFraction`` of that score, for the tracker's second association stage.
    private static func makeLocalizer(detectorModel: ModelSource?, labelsPath: String?, scoreThreshold: Float?,
                                      mode: DetectorMode, modelDirectory: String, modelManager: ModelManager,
                                      threadCount: Int?, limits: ResourceLimits) throws -> (localizer: any Localizer, scoreThreshold: Float) {
        let fraction: Float = mode == .stream ? TrackingFeed.lowScoreFraction : 1
        if let detectorModel {
            let labels = try labelsPath.map { try LabelList(contentsOf: $0, limits: limits) }
            let localizer = try FamilyLocalizer(modelPath: detectorModel.resolvedFilePath(using: modelManager),
                                                labels: labels, scoreThreshold: scoreThreshold, threadCount: threadCount,
                                                candidateFraction: fraction, limits: limits)
            return (localizer, localizer.reportThreshold)
        }
        let segmentation = try FamilyLocalizer(
            modelPath: DefaultModels.path(DefaultModels.localizerFileName, in: modelDirectory), labels: nil,
            scoreThreshold: scoreThreshold, threadCount: threadCount, family: SegmentationRegionsFamily(),
            candidateFraction: fraction, limits: limits)
        let activations = try ClassActivationModel(
            modelPath: DefaultModels.path(DefaultModels.classifierFileName, in: modelDirectory),
            threadCount: threadCount, limits: limits)
        return (EverydayObjectLocalizer(segmentation: segmentation, activations: activations), segmentation.reportThreshold)
    }

    /// The longest side of a localizer's model input (0 for localizers without one model).
    /// Detects objects synchronously. An empty array means nothing was found.
    /// In stream mode the injected clock timestamps the frame.
    public func results(in image: VisionImage) throws -> [DetectedObject] {
        try results(in: image, timestamp: nil)
    }

    /// Detects objects in a video frame taken at `timestamp` seconds (drives the tracker's
    /// motion model instead of the clock).
    public func results(in image: VisionImage, timestamp: Double?) throws -> [DetectedObject] {
        let upright = image.uprightRGB()
        let objects = try lock.withLock { try detect(upright, timestamp: timestamp) }
        guard let source = image.reducedScaleSource else { return objects }
        // A reduced-scale decode: report boxes in the full photo's upright pixels.
        return objects.compactMap { object in
            let f = object.frame
            let rect = source.sourceRect(ImageRect(x: Double(f.minX), y: Double(f.minY), width: Double(f.width),
                                                   height: Double(f.height)), orientation: image.orientation)
            guard !rect.isEmpty else { return nil }
            var mapped = object
            mapped.frame = CGRect(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
            return mapped
        }
    }

    /// Detects objects asynchronously.
    public func process(_ image: VisionImage) async throws -> [DetectedObject] {
        try await Task.detached(priority: .userInitiated) { try self.results(in: image) }.value
    }

    /// Detects objects and calls `completion` with the objects or the error (SDK style).
    public func process(_ image: VisionImage,
                        completion: @escaping @Sendable ([DetectedObject]?, (any Error)?) -> Void) {
        Task.detached(priority: .userInitiated) {
            do { completion(try self.results(in: image), nil) } catch { completion(nil, error) }
        }
    }

    /// Forgets tracking state (start of a new stream).
    public func resetTracking() {
        lock.lock(); defer { lock.unlock() }
        tracking?.reset()
        labelCache?.reset()
    }

    /// Detects objects in `image` as a photo of its own, unrelated to the images before it:
    /// tracking state is forgotten first (``resetTracking()``), so no track or cached label
    /// carries over, and tracking IDs are numbered 1, 2, … in the order the tracker created
    /// them, exactly as a fresh detector would number them (the tracker never reuses an ID, so
    /// ranking them gives those numbers). For several photos in one job.
    public func results(inIndependentImage image: VisionImage) throws -> [DetectedObject] {
        resetTracking()
        let objects = try results(in: image)
        let rank = Dictionary(uniqueKeysWithValues: objects.compactMap(\.trackingID).sorted().enumerated().map { ($1, $0 + 1) })
        return objects.map { object in
            var renumbered = object
            renumbered.trackingID = object.trackingID.flatMap { rank[$0] }
            return renumbered
        }
    }

    private func detect(_ image: RGBImage, timestamp: Double?) throws -> [DetectedObject] {
        let limit = settings.multipleObjects ? settings.maxObjectCount : 1
        let candidates = Array(try localizer.localize(image).prefix(max(limit, TrackingFeed.maximumTrackedCandidates)))
        // Stream mode tracks every candidate, reported or not, so an object's ID survives frames
        // where another object outranks it, and reports the candidates the tracker gave an ID: a
        // weak candidate only when it continues a track, and not a part of a larger object of its
        // class that the tracker set aside (a head above an occluder, see
        // TrackerConfiguration.partContainment).
        let ids = tracking?.trackingIDs(for: candidates, in: image, timestamp: timestamp)
        var objects: [(rect: ImageRect, trackingID: Int?, labels: [ObjectLabel])] = []
        for (i, candidate) in candidates.enumerated() {
            guard objects.count < limit else { break }
            guard ids.map({ $0[i] != nil }) ?? (candidate.score >= settings.scoreThreshold) else { continue }
            var labels: [ObjectLabel] = []
            if settings.classification {
                if let classifier {
                    // Stream mode takes the labels of the tracking ID after tracking, below.
                    if labelCache == nil { labels = try classifier(image, candidate.rect) }
                } else if let names = localizer.labels, let index = candidate.classIndex {
                    let text = names.labels.indices.contains(index) ? names.labels[index] : nil
                    labels = [ObjectLabel(text: text, index: index, confidence: candidate.score)]
                }
            }
            guard let kept = labelCache == nil ? filter(labels) : labels else { continue }
            objects.append((candidate.rect, ids?[i], kept))
        }
        var dropped = Set<Int>()
        if let labelCache {
            let tracked = objects.indices.filter { objects[$0].trackingID != nil }
            let cached = try labelCache.labels(for: tracked.map { (objects[$0].trackingID!, objects[$0].rect) }, in: image)
            for (i, labels) in zip(tracked, cached) {
                if let kept = filter(labels) { objects[i].labels = kept } else { dropped.insert(i) }
            }
        }
        return objects.indices.filter { !dropped.contains($0) }.map { i in
            let r = objects[i].rect
            return DetectedObject(frame: CGRect(x: r.x, y: r.y, width: r.width, height: r.height),
                                  trackingID: objects[i].trackingID, labels: objects[i].labels)
        }
    }

    /// Applies the allow/deny lists: nil drops the object (all its labels were filtered out).
    private func filter(_ labels: [ObjectLabel]) -> [ObjectLabel]? {
        guard settings.allowList != nil || !settings.denyList.isEmpty else { return labels }
        let kept = labels.filter { label in
            guard let text = label.text else { return settings.allowList == nil }
            return (settings.allowList?.contains(text) ?? true) && !settings.denyList.contains(text)
        }
        if settings.allowList != nil && kept.isEmpty { return nil }
        if !labels.isEmpty && kept.isEmpty { return nil }
        return kept
    }
}

/// A classifier closure handed to the stream-label executor, its only caller once stream
/// labels are on (calls stay serialized).
private struct ClassifierHandle: @unchecked Sendable {
    let run: (RGBImage, ImageRect) throws -> [ObjectLabel]
}

/// What `ObjectDetectorOptions` and `CustomObjectDetectorOptions` have in common.
protocol DetectorOptionsCommon {
    var detectorMode: DetectorMode { get }
    var shouldEnableMultipleObjects: Bool { get }
    var shouldEnableClassification: Bool { get }
    var maxObjectCount: Int { get }
    var labelAllowList: Set<String>? { get }
    var labelDenyList: Set<String> { get }
    var maxMissedFrames: Int { get }
    var trackingWindowSeconds: Double { get }
    var isClassAwareTracking: Bool { get }
    var reidentificationThreshold: Double { get }
    var compensatesCameraMotion: Bool { get }
}

extension DetectorOptionsCommon {
    /// Checks the shared options.
    func validateCommon() throws {
        guard maxObjectCount >= 1 else { throw ObjectDetectionError.invalidOptions("maxObjectCount must be at least 1") }
        guard maxMissedFrames >= 0 else { throw ObjectDetectionError.invalidOptions("maxMissedFrames must not be negative") }
        guard trackingWindowSeconds.isFinite, trackingWindowSeconds >= 0 else {
            throw ObjectDetectionError.invalidOptions("trackingWindowSeconds \(trackingWindowSeconds) must be a finite number of seconds, 0 or more")
        }
        guard (0...1).contains(reidentificationThreshold) else {
            throw ObjectDetectionError.invalidOptions("reidentificationThreshold \(reidentificationThreshold) is outside 0...1")
        }
    }
}

extension ObjectDetectorOptions: DetectorOptionsCommon {
    func validate() throws { try validateCommon() }
}

extension CustomObjectDetectorOptions: DetectorOptionsCommon {
    func validate() throws {
        try validateCommon()
        guard maxPerObjectLabelCount >= 1 else {
            throw ObjectDetectionError.invalidOptions("maxPerObjectLabelCount must be at least 1")
        }
        if let t = classificationConfidenceThreshold, !(0...1).contains(t) {
            throw ObjectDetectionError.invalidOptions("classificationConfidenceThreshold \(t) is outside 0...1")
        }
    }
}
