import ObjectTracking

/// What stream mode hands the tracker per frame: each candidate's box, score, detector class
/// and an appearance descriptor from the frame's pixels, plus the camera's motion since the
/// previous frame.
///
/// The appearance is a color histogram of the box's body-centred region (the middle 60 % of
/// the width, the middle 80 % of the height, where the object rather than the background is),
/// in two stripes (upper and lower half) of 4×4×4 bins, sampled on at most 512 points per
/// stripe: about 10 µs per box. The camera motion comes from ``GlobalMotionEstimator`` on the
/// frame with the candidates' boxes left out.
final class TrackingFeed {
    /// Candidates beyond this many (best first) are neither tracked nor reported.
    static let maximumTrackedCandidates = 20
    /// In stream mode the localizer returns candidates down to this fraction of the detector's
    /// score threshold; those below the threshold only continue existing tracks.
    static let lowScoreFraction: Float = 0.5
    /// Samples per histogram stripe.
    static let samplesPerStripe = 512

    private let tracker: ObjectTracker
    private var motionEstimator: GlobalMotionEstimator?

    init(settings: TrackingSettings, clock: any TrackingClock) {
        tracker = ObjectTracker(configuration: settings.configuration, clock: clock)
        motionEstimator = settings.compensatesCameraMotion ? GlobalMotionEstimator() : nil
    }

    /// Forgets all tracks and the previous frame.
    func reset() {
        tracker.reset()
        motionEstimator?.reset()
    }

    /// The tracking ID of each candidate (nil for none), after updating the tracker with this frame.
    func trackingIDs(for candidates: [DetectionCandidate], in image: RGBImage, timestamp: Double?) -> [Int?] {
        let detections = Self.detections(for: candidates, in: image)
        let cameraMotion = motionEstimator?.estimate(pixels: image.pixels, width: image.width, height: image.height,
                                                     bytesPerRow: image.width * 3, channels: 3,
                                                     excluding: detections.map(\.box))
        var ids = [Int?](repeating: nil, count: candidates.count)
        for track in tracker.update(with: detections, at: timestamp, cameraMotion: cameraMotion) {
            ids[track.detectionIndex] = track.trackingID
        }
        return ids
    }

    /// The tracker's view of the candidates.
    static func detections(for candidates: [DetectionCandidate], in image: RGBImage) -> [TrackerDetection] {
        candidates.map { candidate in
            let r = candidate.rect
            let box = BoundingBox(x: r.x, y: r.y, width: r.width, height: r.height)
            return TrackerDetection(box: box, score: Double(candidate.score), classIndex: candidate.classIndex,
                                    appearance: appearance(of: box, in: image))
        }
    }

    /// The body-centred color histogram of `box` (nil when it is too small to sample).
    static func appearance(of box: BoundingBox, in image: RGBImage) -> AppearanceDescriptor? {
        let body = BoundingBox(x: box.x + 0.2 * box.width, y: box.y + 0.1 * box.height,
                               width: 0.6 * box.width, height: 0.8 * box.height)
        return AppearanceDescriptor.colorHistogram(pixels: image.pixels, width: image.width, height: image.height,
                                                   bytesPerRow: image.width * 3, channels: 3, region: body,
                                                   binsPerChannel: 4, stripes: 2,
                                                   maximumSamplesPerStripe: samplesPerStripe)
    }
}
