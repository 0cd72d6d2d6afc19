import ObjectTracking

/// The tracking options both option types share, as the tracker configuration they give.
struct TrackingSettings: Sendable {
    var maxMissedFrames: Int
    var windowSeconds: Double
    var classAware: Bool
    var reidentificationThreshold: Double
    var compensatesCameraMotion: Bool
    /// Score a candidate needs to count as confident (start a track, update its appearance).
    var confidentScore: Double

    init(_ options: some DetectorOptionsCommon, scoreThreshold: Float) {
        maxMissedFrames = options.maxMissedFrames
        windowSeconds = options.trackingWindowSeconds
        classAware = options.isClassAwareTracking
        reidentificationThreshold = options.reidentificationThreshold
        compensatesCameraMotion = options.compensatesCameraMotion
        confidentScore = Double(scoreThreshold)
    }

    /// The tracker configuration: objects are reported from their first frame (stream mode
    /// returns IDs at once), candidates at the detector's score threshold are confident and the
    /// weaker ones the localizer returns in stream mode only continue tracks (ByteTrack's second
    /// stage), the rest from the options and the tracker's defaults.
    var configuration: TrackerConfiguration {
        TrackerConfiguration(confidentScore: confidentScore, minimumAppearanceSimilarity: reidentificationThreshold,
                             minimumHitsToConfirm: 1, maximumMissedFrames: maxMissedFrames,
                             lostTrackWindow: windowSeconds, isClassAware: classAware)
    }
}
