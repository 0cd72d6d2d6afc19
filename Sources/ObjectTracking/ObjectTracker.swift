/// Multi-object tracker: keeps the same ID for the same object across frames, through
/// occlusions, camera pans and short absences.
///
/// Each ``update(with:at:cameraMotion:)`` call takes one frame's detections and returns the
/// confirmed tracks seen in that frame. Per frame it
/// 1. predicts every track to the frame's timestamp with a constant-velocity Kalman filter
///    (the clock, or explicit timestamps, drive the motion model) and moves it by the camera's
///    motion when the caller supplies one (camera-motion compensation, as in BoT-SORT);
/// 2. sets aside as *parts* the detections lying inside a larger detection of their class (a head
///    above an occluder, a wheel; see ``TrackerConfiguration/partContainment``): they count as
///    low-score detections below;
/// 3. associates established tracks (confirmed, and lost ones near their predicted or last
///    seen box) with the *confident* detections on IoU, blended with appearance similarity when
///    both carry an ``AppearanceDescriptor``; pairs below ``TrackerConfiguration/minimumIoU``
///    never match, and with class-aware matching a detection of a class the track has seldom
///    been given counts half (the detector's class flickers on small or partly hidden objects);
/// 4. associates the tracks seen in the previous frame and still unmatched with the low-score
///    detections on IoU alone (ByteTrack's second stage: a partly hidden object keeps its track);
/// 5. gives tentative tracks the remaining confident detections, so a false positive cannot
///    take an established object's detection;
/// 6. re-identifies lost tracks by appearance anywhere in the frame: similarity of at least
///    ``TrackerConfiguration/minimumAppearanceSimilarity``, a similar size, the same class, and
///    clearly more similar to this track than to any other track of the class
///    (``TrackerConfiguration/reidentificationMargin``); only tracks with enough evidence
///    (``TrackerConfiguration/minimumReidentificationEvidence``) take part, so a flickering
///    false positive neither steals nor vetoes a returning object;
/// 7. advances the lifecycle (see ``TrackState``; lost tracks live for a time window) and starts
///    tentative tracks for the confident detections left over.
///
/// A lost track found again near where it was gets an observation-centric re-update of its
/// motion model (OC-SORT); see `Track.absorb`. A matched detection updates the track's
/// appearance only when it is a clear view: confident, not a part, not covered by other
/// detections, and not a partial view (``TrackerConfiguration/partialViewArea``).
///
/// The tracker is deterministic: the same detections and timestamps give the same IDs.
/// It is not thread-safe; use one tracker per stream from one task at a time.
/// - Complexity: O(T·D + D²) per frame for T live tracks and D detections, plus a sort of the
///   allowed pairs (greedy assignment).
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
    ///   - cameraMotion: how the camera moved since the previous frame (maps previous-frame
    ///     pixels to this frame's), e.g. from ``GlobalMotionEstimator``; nil for a still camera.
    ///     Non-finite or degenerate maps are ignored.
    /// - Returns: the confirmed tracks matched in this frame, sorted by ID.
    @discardableResult
    public func update(with detections: [TrackerDetection], at timestamp: Double? = nil,
                       cameraMotion: CameraMotion? = nil) -> [TrackedObject] {
        var now = timestamp ?? clock.now()
        if !now.isFinite { now = lastTimestamp ?? 0 }
        if let last = lastTimestamp, now < last { now = last }
        let dt = lastTimestamp.map { now - $0 } ?? 0
        lastTimestamp = now

        for i in tracks.indices {
            tracks[i].motion.predict(dt: dt)
            if let cameraMotion { tracks[i].compensate(cameraMotion) }
        }
        let usable = detections.indices.filter { detections[$0].box.isValid && detections[$0].score.isFinite }
        let parts = partDetections(among: usable, detections)
        var confident = usable.filter { detections[$0].score >= configuration.confidentScore && !parts.contains($0) }
        var lowScore = usable.filter { detections[$0].score < configuration.confidentScore || parts.contains($0) }

        var matches = [Int: (detection: Int, kind: Track.MatchKind)]()   // track position -> match
        let established = tracks.indices.filter { tracks[$0].state != .tentative }
        associate(established, &confident, detections, &matches, .spatial, weight: spatialWeight)
        // Only tracks seen in the previous frame: a weak box does not bring back a hidden object.
        let unmatchedTracked = established.filter { matches[$0] == nil && tracks[$0].missedFrames == 0 }
        associate(unmatchedTracked, &lowScore, detections, &matches, .spatial, weight: lowScoreWeight)
        let tentative = tracks.indices.filter { tracks[$0].state == .tentative }
        associate(tentative, &confident, detections, &matches, .spatial, weight: spatialWeight)
        let lost = tracks.indices.filter { tracks[$0].state == .lost && matches[$0] == nil }
        associate(lost, &confident, detections, &matches, .reidentified) { track, detection in
            self.reidentificationWeight(track, detection)
        }
        let absorbed = handOverYoungTracks(&matches, detections)

        var survivors: [Track] = []
        var reported: [TrackedObject] = []
        for position in tracks.indices where !absorbed.contains(position) {
            var track = tracks[position]
            if let match = matches[position] {
                let detection = detections[match.detection]
                let clearView = detection.score >= configuration.confidentScore && !parts.contains(match.detection)
                    && !isCovered(match.detection, among: usable, detections)
                    && !track.isPartialView(detection.box, kind: match.kind, configuration: configuration)
                track.absorb(detection, at: now, kind: match.kind, updatesAppearance: clearView,
                             configuration: configuration)
                if track.state == .confirmed { reported.append(report(track, detection: detection, index: match.detection, now: now)) }
                survivors.append(track)
            } else if track.miss(at: now, configuration: configuration) {
                survivors.append(track)
            }
        }
        for d in confident {
            let track = Track(id: nextID, detection: detections[d], at: now, configuration: configuration)
            nextID += 1
            if track.state == .confirmed { reported.append(report(track, detection: detections[d], index: d, now: now)) }
            survivors.append(track)
        }
        tracks = survivors
        return reported.sorted { $0.trackingID < $1.trackingID }
    }

    /// A track started recently from a poor view (an object entering at the edge, a class the
    /// detector got wrong) may be a lost track coming back that re-identification could not yet
    /// recognise. While it lacks evidence, its detection is offered to the lost tracks each frame;
    /// when one re-identifies it, the lost track takes the detection and keeps its ID, and the
    /// young track ends. Returns the positions of the young tracks that ended.
    private func handOverYoungTracks(_ matches: inout [Int: (detection: Int, kind: Track.MatchKind)],
                                     _ detections: [TrackerDetection]) -> Set<Int> {
        let young = tracks.indices.filter { tracks[$0].state == .confirmed && matches[$0] != nil
            && tracks[$0].evidence < configuration.minimumReidentificationEvidence }
        let lost = tracks.indices.filter { tracks[$0].state == .lost && matches[$0] == nil }
        guard !young.isEmpty, !lost.isEmpty else { return [] }
        let weights = lost.map { l in
            young.map { y -> Double? in
                guard tracks[y].createdAt > tracks[l].lastObservedAt else { return nil }   // seen together: two objects
                return reidentificationWeight(tracks[l], detections[matches[y]!.detection])
            }
        }
        var absorbed = Set<Int>()
        for pair in AssignmentSolver.solve(weights: weights, strategy: configuration.assignment) {
            let y = young[pair.column]
            matches[lost[pair.row]] = (matches[y]!.detection, .reidentified)
            matches[y] = nil
            absorbed.insert(y)
        }
        return absorbed
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
    private func associate(_ trackPositions: [Int], _ detectionIndices: inout [Int], _ detections: [TrackerDetection],
                           _ matches: inout [Int: (detection: Int, kind: Track.MatchKind)], _ kind: Track.MatchKind,
                           weight: (Track, TrackerDetection) -> Double?) {
        guard !trackPositions.isEmpty, !detectionIndices.isEmpty else { return }
        let weights = trackPositions.map { position in
            detectionIndices.map { weight(tracks[position], detections[$0]) }
        }
        var taken = Set<Int>()
        for pair in AssignmentSolver.solve(weights: weights, strategy: configuration.assignment) {
            matches[trackPositions[pair.row]] = (detectionIndices[pair.column], kind)
            taken.insert(detectionIndices[pair.column])
        }
        detectionIndices.removeAll { taken.contains($0) }
    }

    /// True when other detections cover more than ``TrackerConfiguration/occludedAppearanceOverlap``
    /// of detection `index`'s box (the largest single overlap counts).
    private func isCovered(_ index: Int, among usable: [Int], _ detections: [TrackerDetection]) -> Bool {
        let box = detections[index].box
        for other in usable where other != index {
            let o = detections[other].box
            let w = min(box.maxX, o.maxX) - max(box.x, o.x), h = min(box.maxY, o.maxY) - max(box.y, o.y)
            if w > 0, h > 0, w * h > configuration.occludedAppearanceOverlap * box.area { return true }
        }
        return false
    }

    /// The detections at least ``TrackerConfiguration/partContainment`` of whose box lies inside
    /// the box of a larger detection of the same class (both with a class): parts of that object.
    /// - Complexity: O(D²) for D detections.
    private func partDetections(among usable: [Int], _ detections: [TrackerDetection]) -> Set<Int> {
        guard configuration.partContainment <= 1 else { return [] }
        var parts = Set<Int>()
        for p in usable {
            let part = detections[p]
            guard let partClass = part.classIndex else { continue }
            let area = part.box.area
            for w in usable where w != p {
                let whole = detections[w]
                guard whole.classIndex == partClass, whole.box.area > area else { continue }
                let width = min(part.box.maxX, whole.box.maxX) - max(part.box.x, whole.box.x)
                let height = min(part.box.maxY, whole.box.maxY) - max(part.box.y, whole.box.y)
                if width > 0, height > 0, width * height >= configuration.partContainment * area {
                    parts.insert(p)
                    break
                }
            }
        }
        return parts
    }

    /// With class-aware matching, whether the detection's class is one the track has often
    /// been given (see `Track.mayBe`); always true when class-agnostic.
    private func classesAgree(_ track: Track, _ detection: TrackerDetection) -> Bool {
        !configuration.isClassAware || track.mayBe(detection.classIndex)
    }

    /// Blends IoU with appearance similarity when both sides have an appearance.
    private func matchScore(iou: Double, _ track: Track, _ detection: TrackerDetection) -> Double {
        guard let a = track.appearance, let b = detection.appearance else { return iou }
        let w = min(1, max(0, configuration.appearanceWeight))
        return (1 - w) * iou + w * max(0, a.similarity(to: b))
    }

    /// IoU with the predicted box, for a lost track also with the last seen box.
    private func spatialIoU(_ track: Track, _ detection: TrackerDetection) -> Double {
        var iou = track.motion.box.intersectionOverUnion(detection.box)
        if track.state == .lost { iou = max(iou, track.lastObservedBox.intersectionOverUnion(detection.box)) }
        return iou
    }

    /// Weight of a spatially supported match with a confident detection (the match score).
    /// A detection of another class than the track's is still allowed where the track is
    /// (the detector's class flickers), at half weight, so a same-class pair wins any contest.
    private func spatialWeight(_ track: Track, _ detection: TrackerDetection) -> Double? {
        let iou = spatialIoU(track, detection)
        guard iou >= configuration.minimumIoU else { return nil }
        return matchScore(iou: iou, track, detection) * (classesAgree(track, detection) ? 1 : 0.5)
    }

    /// Weight of a second-stage match with a low-score detection: IoU with the prediction alone
    /// (half for another class).
    private func lowScoreWeight(_ track: Track, _ detection: TrackerDetection) -> Double? {
        let iou = track.motion.box.intersectionOverUnion(detection.box)
        return iou >= configuration.lowScoreMinimumIoU ? iou * (classesAgree(track, detection) ? 1 : 0.5) : nil
    }

    /// Weight of re-identifying a lost track away from where it was: its appearance similarity,
    /// when at least ``TrackerConfiguration/minimumAppearanceSimilarity``, the sizes are similar,
    /// and no other track of the class looks as much like the detection.
    private func reidentificationWeight(_ track: Track, _ detection: TrackerDetection) -> Double? {
        guard track.evidence >= configuration.minimumReidentificationEvidence, classesAgree(track, detection),
              let a = track.appearance, let b = detection.appearance else { return nil }
        let similarity = a.similarity(to: b)
        guard similarity >= configuration.minimumAppearanceSimilarity else { return nil }
        let areaRatio = max(track.lastObservedBox.area, detection.box.area) /
            max(min(track.lastObservedBox.area, detection.box.area), .leastNonzeroMagnitude)
        guard areaRatio <= configuration.maximumReidentificationAreaRatio else { return nil }
        for other in tracks where other.id != track.id && other.state != .tentative
            && other.evidence >= configuration.minimumReidentificationEvidence && sameClass(other, track) {
            if let o = other.appearance, o.similarity(to: b) > similarity - configuration.reidentificationMargin { return nil }
        }
        return similarity
    }

    /// True when the two tracks may be the same kind of object (always, when class-agnostic).
    private func sameClass(_ a: Track, _ b: Track) -> Bool {
        !configuration.isClassAware || a.mayBe(b.classIndex) || b.mayBe(a.classIndex)
    }
}
