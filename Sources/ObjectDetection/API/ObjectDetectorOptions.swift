import ModelHosting

/// How the detector trades latency for completeness.
public enum DetectorMode: String, Sendable, CaseIterable {
    /// Lowest latency, tracking IDs that persist across consecutive frames (the default).
    /// The first frames may return partial results (boxes before labels).
    case stream
    /// Waits until boxes (and labels when classification is on) are final; no tracking IDs.
    case singleImage
}

/// Options of the default object detector (the SDK's `ObjectDetectorOptions`).
public struct ObjectDetectorOptions: Sendable {
    /// Stream (default) or single-image mode.
    public var detectorMode: DetectorMode = .stream
    /// False (default): only the most prominent object. True: up to `maxObjectCount` objects.
    public var shouldEnableMultipleObjects = false
    /// False (default): no labels. True: each object is labelled with a coarse category
    /// (Fashion good, Food, Home good, Place, Plant) or left unlabelled.
    public var shouldEnableClassification = false

    /// Beyond the SDK: objects returned when multiple objects are on (default 5, the SDK's cap).
    public var maxObjectCount = 5
    /// Beyond the SDK: minimum localizer score of a returned object (nil: the localizer's default).
    public var detectionScoreThreshold: Float?
    /// Beyond the SDK: only these label texts are kept on objects (nil: all).
    public var labelAllowList: Set<String>?
    /// Beyond the SDK: these label texts are removed from objects.
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
    /// With classification on, objects carry the detector's own class labels.
    public var detectorModel: ModelSource?
    /// Beyond the SDK: side-car label file of `detectorModel` (`labels.txt`, `labelmap.txt`).
    public var detectorLabelsPath: String?

    /// Default options: stream mode, most prominent object only, no classification.
    public init() {}
}
