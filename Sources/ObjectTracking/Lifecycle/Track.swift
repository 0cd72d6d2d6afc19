/// Internal state of one track.
struct Track: Sendable {
    let id: Int
    var state: TrackState
    var motion: BoxMotionModel
    /// Last observed (detected) box.
    var lastObservedBox: BoundingBox
    var appearance: AppearanceDescriptor?
    var classIndex: Int?
    var hits: Int
    var missedFrames: Int
    let createdAt: Double

    init(id: Int, detection: TrackerDetection, at time: Double, configuration: TrackerConfiguration) {
        self.id = id
        state = configuration.minimumHitsToConfirm <= 1 ? .confirmed : .tentative
        motion = BoxMotionModel(box: detection.box, parameters: configuration.motion)
        lastObservedBox = detection.box
        appearance = detection.appearance
        classIndex = detection.classIndex
        hits = 1
        missedFrames = 0
        createdAt = time
    }

    /// Folds in a matched detection and advances the lifecycle.
    mutating func absorb(_ detection: TrackerDetection, configuration: TrackerConfiguration) {
        if state == .lost && missedFrames > 1 {
            // Back after a gap: the old velocity says nothing about where it goes next.
            motion = BoxMotionModel(box: detection.box, parameters: configuration.motion)
        } else {
            motion.update(with: detection.box)
        }
        lastObservedBox = detection.box
        if let seen = detection.appearance {
            appearance = appearance.map { $0.blended(with: seen, weight: configuration.appearanceUpdateRate) } ?? seen
        }
        if let seenClass = detection.classIndex { classIndex = seenClass }
        hits += 1
        missedFrames = 0
        switch state {
        case .tentative: if hits >= configuration.minimumHitsToConfirm { state = .confirmed }
        case .lost: state = .confirmed
        case .confirmed: break
        }
    }

    /// Records a frame without a match. Returns false when the track should be deleted.
    mutating func miss(configuration: TrackerConfiguration) -> Bool {
        missedFrames += 1
        switch state {
        case .tentative: return false
        case .confirmed, .lost:
            state = .lost
            return missedFrames <= configuration.maximumMissedFrames
        }
    }
}
