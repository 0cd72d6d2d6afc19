/// Multi-object tracker: keeps the same ID for the same object across frames.
///
/// Each ``update(with:at:)`` call takes one frame's detections and returns the confirmed
/// tracks seen in that frame. Per frame it
/// 1. predicts every track to the frame's timestamp with a constant-velocity Kalman filter
///    (the clock, or explicit timestamps, drive the motion model);
/// 2. associates established tracks (confirmed, and lost ones near their predicted or last
///    seen box) with detections on IoU, blended with appearance similarity when both carry an
///    ``AppearanceDescriptor``; pairs below ``TrackerConfiguration/minimumIoU`` never match.
///    Tentative tracks get the remaining detections only afterwards, so a false positive
///    cannot take an established object's detection;
/// 3. re-identifies the remaining lost tracks away from their last position by appearance
///    similarity of at least ``TrackerConfiguration/minimumAppearanceSimilarity`` and a
///    similar size;
/// 4. advances the lifecycle (see ``TrackState``) and starts tentative tracks for unmatched
///    detections.
///
/// The tracker is deterministic: the same detections and timestamps give the same IDs.
/// It is not thread-safe; use one tracker per stream from one task at a time.
public final class ObjectTracker {
    /// The behaviour settings.
    public let configuration: TrackerConfiguration
    private let clock: any TrackingClock
    private var tracks: [Track] = []
    private var nextID = 1
    private var lastTimestamp: Double?

    /// A tracker reading time from `clock` (a monotonic system clock by default).
    public init(configuration: TrackerConfiguration = TrackerConfiguration(),
                clock: any TrackingClock = SystemTrackingClock()) {
        self.configuration = configuration
        self.clock = clock
    }

    /// Forgets all tracks. IDs keep counting up, so old IDs are never reused.
    public func reset() {
        tracks.removeAll()
        lastTimestamp = nil
    }

    /// The lifecycle state of track `id`, or nil when no such track is alive.
    public func state(ofTrack id: Int) -> TrackState? {
        tracks.first { $0.id == id }?.state
    }

    /// Number of live tracks in any state.
    public var liveTrackCount: Int { tracks.count }

    /// Processes one frame.
    ///
    /// - Parameters:
    ///   - detections: this frame's detections. Detections with an empty or non-finite box,
    ///     or a non-finite score, are ignored.
    ///   - timestamp: the frame time in seconds; nil reads the injected clock. A timestamp
    ///     earlier than the previous frame's is treated as equal to it.
    /// - Returns: the confirmed tracks matched in this frame, sorted by ID.
    @discardableResult
    public func update(with detections: [TrackerDetection], at timestamp: Double? = nil) -> [TrackedObject] {
        var now = timestamp ?? clock.now()
        if !now.isFinite { now = lastTimestamp ?? 0 }
        if let last = lastTimestamp, now < last { now = last }
        let dt = lastTimestamp.map { now - $0 } ?? 0
        lastTimestamp = now

        for i in tracks.indices { tracks[i].motion.predict(dt: dt) }
        let usable = detections.indices.filter { detections[$0].box.isValid && detections[$0].score.isFinite }

        var matchedDetection = [Int: Int]()   // track position -> detection index
        var freeDetections = usable
        // Established tracks (confirmed, or lost and still near where they were) come first,
        // so a tentative track (often a false positive) cannot take their detection.
        let established = tracks.indices.filter { tracks[$0].state != .tentative }
        associate(trackPositions: established, detectionIndices: &freeDetections, detections: detections,
                  into: &matchedDetection, weight: spatialWeight)
        let tentative = tracks.indices.filter { tracks[$0].state == .tentative }
        associate(trackPositions: tentative, detectionIndices: &freeDetections, detections: detections,
                  into: &matchedDetection, weight: spatialWeight)
        let lost = tracks.indices.filter { tracks[$0].state == .lost && matchedDetection[$0] == nil }
        associate(trackPositions: lost, detectionIndices: &freeDetections, detections: detections,
                  into: &matchedDetection, weight: reidentificationWeight)

        var survivors: [Track] = []
        var reported: [TrackedObject] = []
        for position in tracks.indices {
            var track = tracks[position]
            if let d = matchedDetection[position] {
                track.absorb(detections[d], configuration: configuration)
                if track.state == .confirmed { reported.append(report(track, detection: detections[d], index: d, now: now)) }
                survivors.append(track)
            } else if track.miss(configuration: configuration) {
                survivors.append(track)
            }
        }
        for d in freeDetections where detections[d].score >= configuration.minimumScoreToStartTrack {
            let track = Track(id: nextID, detection: detections[d], at: now, configuration: configuration)
            nextID += 1
            if track.state == .confirmed { reported.append(report(track, detection: detections[d], index: d, now: now)) }
            survivors.append(track)
        }
        tracks = survivors
        return reported.sorted { $0.trackingID < $1.trackingID }
    }

    private func report(_ track: Track, detection: TrackerDetection, index: Int, now: Double) -> TrackedObject {
        let filtered = track.motion.box
        let velocity = track.motion.centerVelocity
        return TrackedObject(trackingID: track.id, box: configuration.reportsFilteredBoxes ? filtered : detection.box,
                             filteredBox: filtered, velocityX: velocity.dx, velocityY: velocity.dy,
                             score: detection.score, classIndex: detection.classIndex, detectionIndex: index,
                             hits: track.hits, age: now - track.createdAt)
    }

    /// Solves one association stage and removes matched detections from `detectionIndices`.
    private func associate(trackPositions: [Int], detectionIndices: inout [Int], detections: [TrackerDetection],
                           into matches: inout [Int: Int], weight: (Track, TrackerDetection) -> Double?) {
        guard !trackPositions.isEmpty, !detectionIndices.isEmpty else { return }
        let weights = trackPositions.map { position in
            detectionIndices.map { weight(tracks[position], detections[$0]) }
        }
        var taken = Set<Int>()
        for pair in AssignmentSolver.solve(weights: weights, strategy: configuration.assignment) {
            matches[trackPositions[pair.row]] = detectionIndices[pair.column]
            taken.insert(detectionIndices[pair.column])
        }
        detectionIndices.removeAll { taken.contains($0) }
    }

    private func classesAgree(_ track: Track, _ detection: TrackerDetection) -> Bool {
        guard configuration.isClassAware, let a = track.classIndex, let b = detection.classIndex else { return true }
        return a == b
    }

    /// Blends IoU with appearance similarity when both sides have an appearance.
    private func matchScore(iou: Double, _ track: Track, _ detection: TrackerDetection) -> Double {
        guard let a = track.appearance, let b = detection.appearance else { return iou }
        let w = min(1, max(0, configuration.appearanceWeight))
        return (1 - w) * iou + w * max(0, a.similarity(to: b))
    }

    /// Weight of a spatially supported match (the match score), gated on IoU with the
    /// predicted box (for a lost track also with the last seen box).
    private func spatialWeight(_ track: Track, _ detection: TrackerDetection) -> Double? {
        guard classesAgree(track, detection) else { return nil }
        var iou = track.motion.box.intersectionOverUnion(detection.box)
        if track.state == .lost { iou = max(iou, track.lastObservedBox.intersectionOverUnion(detection.box)) }
        guard iou >= configuration.minimumIoU else { return nil }
        return matchScore(iou: iou, track, detection)
    }

    /// Weight of re-identifying a lost track away from where it was: its appearance similarity,
    /// when at least ``TrackerConfiguration/minimumAppearanceSimilarity`` and the sizes are similar.
    private func reidentificationWeight(_ track: Track, _ detection: TrackerDetection) -> Double? {
        guard classesAgree(track, detection), let a = track.appearance, let b = detection.appearance else { return nil }
        let similarity = a.similarity(to: b)
        guard similarity >= configuration.minimumAppearanceSimilarity else { return nil }
        let areaRatio = max(track.lastObservedBox.area, detection.box.area) /
            max(min(track.lastObservedBox.area, detection.box.area), .leastNonzeroMagnitude)
        guard areaRatio <= configuration.maximumReidentificationAreaRatio else { return nil }
        return similarity
    }
}
