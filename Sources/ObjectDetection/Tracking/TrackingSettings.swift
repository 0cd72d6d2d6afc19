import ObjectTracking

/// The tracking options both option types share, as the tracker configuration they give.
struct TrackingSettings: Sendable {
    var maxMissedFrames: Int
    var windowSeconds: Double
    var classAware: Bool
    var reidentificationThreshold: Double
    var compensatesCameraMotion: Bool

    init(_ options: some DetectorOptionsCommon) {
        maxMissedFrames = options.maxMissedFrames
        windowSeconds = options.trackingWindowSeconds
        classAware = options.isClassAwareTracking
        reidentificationThreshold = options.reidentificationThreshold
        compensatesCameraMotion = options.compensatesCameraMotion
    }

    /// The tracker configuration: objects are reported from their first frame (stream mode
    /// returns IDs at once), every candidate the localizer returns is confident (the localizer
    /// already applied its score threshold), the rest from the options and the tracker's defaults.
    var configuration: TrackerConfiguration {
        TrackerConfiguration(confidentScore: 0, minimumAppearanceSimilarity: reidentificationThreshold,
                             minimumHitsToConfirm: 1, maximumMissedFrames: maxMissedFrames,
                             lostTrackWindow: windowSeconds, isClassAware: classAware)
    }
}
