import ModelHosting

/// Options of a detector whose boxes are classified by a custom image-classification model,
/// or whose boxes come from a custom detector model (the SDK's `CustomObjectDetectorOptions`).
public struct CustomObjectDetectorOptions: Sendable {
    /// The classifier (or detector) model.
    public var model: ModelSource
    /// Stream (default) or single-image mode.
    public var detectorMode: DetectorMode = .stream
    /// See `ObjectDetectorOptions.shouldEnableMultipleObjects`.
    public var shouldEnableMultipleObjects = false
    /// Classify each object with the custom model (default false, as in the SDK).
    public var shouldEnableClassification = false
    /// Minimum label confidence. Nil (default): the model metadata's score threshold, else 0.
    public var classificationConfidenceThreshold: Float?
    /// Labels kept per object, best first (default 10).
    public var maxPerObjectLabelCount = 10

    /// Beyond the SDK: see `ObjectDetectorOptions`.
    public var maxObjectCount = 5
    /// Beyond the SDK: minimum localizer score.
    public var detectionScoreThreshold: Float?
    /// Beyond the SDK: only these label texts are kept.
    public var labelAllowList: Set<String>?
    /// Beyond the SDK: these label texts are removed.
    public var labelDenyList: Set<String> = []
    /// Beyond the SDK (stream mode): the lost-track window in frames. An object that is not
    /// detected (hidden, out of view) keeps its tracking ID while it has been missing for at most
    /// this many frames or at most `trackingWindowSeconds`, whichever is longer.
    public var maxMissedFrames = 10
    /// Beyond the SDK (stream mode): the lost-track window in seconds (default 2). Within it an
    /// object that comes back, anywhere in the frame, gets its old ID back when it looks like
    /// it did (see `reidentificationThreshold`).
    public var trackingWindowSeconds = 2.0
    /// Beyond the SDK (stream mode): class-aware matching (default true; no effect when the
    /// localizer has no classes): a returning object is re-identified only as a class the
    /// detector has often given it, and where a track is, a detection of its class is preferred.
    public var isClassAwareTracking = true
    /// Beyond the SDK (stream mode): the smallest appearance similarity (cosine of color
    /// histograms, 0...1) for giving a returning object its old ID (default 0.8, tuned on the
    /// product-path tracking benchmark). Higher is stricter: fewer wrong re-identifications,
    /// more new IDs.
    public var reidentificationThreshold = 0.8
    /// Beyond the SDK (stream mode): compensate camera motion (a pan, a shake) measured between
    /// consecutive frames, so objects at rest keep their IDs while the camera moves (default true).
    public var compensatesCameraMotion = true
    /// Beyond the SDK: a detector model used as the localizer instead of the default one
    /// (SSD with `TFLite_Detection_PostProcess`, BlazeFace-style raw outputs, YOLO single output).
    public var detectorModel: ModelSource?
    /// Beyond the SDK: side-car label file of `detectorModel` (`labels.txt`, `labelmap.txt`).
    public var detectorLabelsPath: String?
    /// Beyond the SDK: side-car label file of the classifier model.
    public var classifierLabelsPath: String?

    /// Options with a bundled (local) classifier model.
    public init(localModel: LocalModel) { model = .local(localModel) }
    /// Options with a hosted classifier model; falls back to nothing until downloaded —
    /// use `ModelManager.preferredModel(remote:local:)` to fall back to a bundled one.
    public init(remoteModel: RemoteModel) { model = .remote(remoteModel) }
}
