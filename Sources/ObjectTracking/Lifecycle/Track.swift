/// Internal state of one track.
struct Track: Sendable {
    let id: Int
    var state: TrackState
    /// The motion estimate, predicted to the current frame.
    var motion: BoxMotionModel
    /// The motion estimate right after the last observation (for the observation-centric re-update).
    var motionAtLastObservation: BoxMotionModel
    /// Last observed (detected) box, in the current frame's coordinates.
    var lastObservedBox: BoundingBox
    /// Time of the last observation.
    var lastObservedAt: Double
    /// Timestamps of the frames missed since the last observation (at most ``maximumRememberedGap``).
    var missedTimes: [Double] = []
    var appearance: AppearanceDescriptor?
    /// Area of the box the appearance was last taken from (the reference for partial views).
    var appearanceArea: Double
    /// Score-weighted votes of the classes the detector gave this track's detections (a
    /// detector's class flickers on small or partly hidden objects).
    /// Kept in first-seen order, so sums do not depend on hashing.
    var classVotes: [(classIndex: Int, votes: Double)] = []
    var hits: Int
    /// Sum of the matched detections' scores: how sure the track is to be a real object.
    var evidence: Double
    var missedFrames: Int
    let createdAt: Double

    /// Gap frames replayed by the observation-centric re-update; longer gaps reset the model.
    static let maximumRememberedGap = 256

    /// How a matched detection was found.
    enum MatchKind {
        /// Near the track's predicted or last seen box (first or second association stage).
        case spatial
        /// By appearance, away from where the track was lost: the old motion says nothing.
        case reidentified
    }

    init(id: Int, detection: TrackerDetection, at time: Double, configuration: TrackerConfiguration) {
        self.id = id
        state = configuration.minimumHitsToConfirm <= 1 ? .confirmed : .tentative
        motion = BoxMotionModel(box: detection.box, parameters: configuration.motion)
        motionAtLastObservation = motion
        lastObservedBox = detection.box
        lastObservedAt = time
        appearance = detection.appearance
        appearanceArea = detection.box.area
        hits = 1
        evidence = detection.score.isFinite ? max(0, detection.score) : 0
        missedFrames = 0
        createdAt = time
        if let c = detection.classIndex { vote(for: c, score: detection.score) }
    }

    /// Moves the track into the current frame's coordinates after the camera moved.
    mutating func compensate(_ cameraMotion: CameraMotion) {
        motion.compensate(cameraMotion)
        motionAtLastObservation.compensate(cameraMotion)
        lastObservedBox = cameraMotion.apply(to: lastObservedBox)
    }

    /// Folds in a matched detection at time `now` and advances the lifecycle.
    ///
    /// A track found again near where it was after missing frames gets an observation-centric
    /// re-update (OC-SORT): the filter is rewound to its last observation and run along a
    /// virtual trajectory interpolated between that observation and this one, so the velocity
    /// reflects the real displacement over the gap instead of the drift accumulated while unseen.
    mutating func absorb(_ detection: TrackerDetection, at now: Double, kind: MatchKind, updatesAppearance: Bool,
                         configuration: TrackerConfiguration) {
        if kind == .reidentified {
            motion = BoxMotionModel(box: detection.box, parameters: configuration.motion)
            appearanceArea = detection.box.area
        } else if missedFrames > 0 {
            if missedTimes.count == missedFrames {
                motion = reupdatedMotion(to: detection.box, at: now)
            } else {
                motion = BoxMotionModel(box: detection.box, parameters: configuration.motion)
            }
        } else {
            motion.update(with: detection.box)
        }
        motionAtLastObservation = motion
        lastObservedBox = detection.box
        lastObservedAt = now
        missedTimes.removeAll(keepingCapacity: true)
        if updatesAppearance, let seen = detection.appearance {
            appearance = appearance.map { $0.blended(with: seen, weight: configuration.appearanceUpdateRate) } ?? seen
            appearanceArea = detection.box.area
        }
        if let seenClass = detection.classIndex { vote(for: seenClass, score: detection.score) }
        hits += 1
        if detection.score.isFinite { evidence += max(0, detection.score) }
        missedFrames = 0
        switch state {
        case .tentative: if hits >= configuration.minimumHitsToConfirm { state = .confirmed }
        case .lost: state = .confirmed
        case .confirmed: break
        }
    }

    /// True when `box`, matched to this track, is much smaller than the box the appearance was
    /// last taken from (``TrackerConfiguration/partialViewArea``): a partial view, whose pixels
    /// would make the appearance describe a part of the object. A re-identification (`kind`)
    /// resets the reference first (see `absorb`), so its box is never partial.
    func isPartialView(_ box: BoundingBox, kind: MatchKind, configuration: TrackerConfiguration) -> Bool {
        kind == .spatial && box.area < configuration.partialViewArea * appearanceArea
    }

    /// The class with the most votes (nil when no detection had a class; ties: the lower index).
    var classIndex: Int? {
        classVotes.max { a, b in a.votes != b.votes ? a.votes < b.votes : a.classIndex > b.classIndex }?.classIndex
    }

    private mutating func vote(for c: Int, score: Double) {
        let weight = score.isFinite ? max(score, 1e-3) : 1e-3
        if let i = classVotes.firstIndex(where: { $0.classIndex == c }) { classVotes[i].votes += weight } else { classVotes.append((c, weight)) }
    }

    /// True when the detector has called this track `c` in a good share (≥ ¼) of the votes, or
    /// when either side has no class.
    func mayBe(_ c: Int?) -> Bool {
        guard let c, !classVotes.isEmpty else { return true }
        let total = classVotes.reduce(0) { $0 + $1.votes }
        return (classVotes.first { $0.classIndex == c }?.votes ?? 0) >= 0.25 * total
    }

    /// The filter replayed from the last observation along the straight path to `box`.
    private func reupdatedMotion(to box: BoundingBox, at now: Double) -> BoxMotionModel {
        var model = motionAtLastObservation
        let start = lastObservedBox, span = now - lastObservedAt
        var previous = lastObservedAt
        for t in missedTimes {
            model.predict(dt: t - previous)
            let f = span > 0 ? (t - lastObservedAt) / span : 1
            func mix(_ p: Double, _ q: Double) -> Double { p + (q - p) * f }
            model.update(with: BoundingBox(x: mix(start.x, box.x), y: mix(start.y, box.y),
                                           width: mix(start.width, box.width), height: mix(start.height, box.height)))
            previous = t
        }
        model.predict(dt: now - previous)
        model.update(with: box)
        return model
    }

    /// Records a frame at time `now` without a match. Returns false when the track should be deleted.
    mutating func miss(at now: Double, configuration: TrackerConfiguration) -> Bool {
        missedFrames += 1
        if missedTimes.count < Self.maximumRememberedGap { missedTimes.append(now) }
        switch state {
        case .tentative: return false
        case .confirmed, .lost:
            state = .lost
            return missedFrames <= configuration.maximumMissedFrames
                || now - lastObservedAt <= configuration.lostTrackWindow
        }
    }
}
