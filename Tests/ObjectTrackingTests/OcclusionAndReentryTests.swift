import TestSupport
import XCTest
import ObjectTracking

/// What keeps IDs through occlusion, camera motion and re-entry: the two association stages,
/// the lost-track time window, the observation-centric re-update, camera-motion compensation
/// and the re-identification gate.
final class OcclusionAndReentryTests: XCTestCase {
    private let frame = 1.0 / 30

    private func box(_ x: Double, _ y: Double, _ w: Double = 40, _ h: Double = 40) -> BoundingBox {
        BoundingBox(x: x, y: y, width: w, height: h)
    }

    /// ByteTrack's second stage: a partly hidden object detected with a low score keeps its
    /// track (IoU ≥ 0.5 with the prediction), while a low-score detection elsewhere starts nothing.
    func testLowScoreDetectionsExtendTracksButNeverStartThem() {
        let tracker = ObjectTracker(configuration: TrackerConfiguration(confidentScore: 0.5, minimumHitsToConfirm: 1),
                                    clock: ManualTrackingClock())
        XCTAssertEqual(tracker.update(with: [TrackerDetection(box: box(100, 100), score: 0.9)], at: 0).map(\.trackingID), [1])
        let out = tracker.update(with: [TrackerDetection(box: box(102, 100), score: 0.2),
                                        TrackerDetection(box: box(300, 300), score: 0.2)], at: frame)
        XCTAssertEqual(out.map(\.trackingID), [1])
        XCTAssertEqual(out.first?.detectionIndex, 0)
        XCTAssertEqual(tracker.liveTrackCount, 1, "the stray low-score box started no track")
        // A low-score box that only grazes the track (IoU < 0.5) does not extend it.
        let graze = tracker.update(with: [TrackerDetection(box: box(125, 100), score: 0.2)], at: 2 * frame)
        XCTAssertTrue(graze.isEmpty)
        XCTAssertEqual(tracker.state(ofTrack: 1), .lost)
    }

    /// The lost-track window is time: at 30 fps an object gone 1.9 s (57 frames, beyond the
    /// 10-frame count) keeps its ID; gone 2.1 s it gets a new one.
    func testLostTracksLiveForTheTimeWindow() {
        for (gone, expected) in [(57, 1), (63, 2)] {
            let clock = ManualTrackingClock()
            let tracker = ObjectTracker(configuration: TrackerConfiguration(minimumHitsToConfirm: 1, maximumMissedFrames: 10,
                                                                            lostTrackWindow: 2), clock: clock)
            tracker.update(with: [TrackerDetection(box: box(200, 200))])
            for _ in 0..<gone { clock.advance(by: frame); tracker.update(with: []) }
            clock.advance(by: frame)
            XCTAssertEqual(tracker.update(with: [TrackerDetection(box: box(201, 200))]).map(\.trackingID), [expected],
                           "gone \(gone) frames")
        }
    }

    /// At a low frame rate the frame count is the longer window: 2 fps, 8 missed frames = 4 s.
    func testFrameCountWindowAppliesWhenLonger() {
        let clock = ManualTrackingClock()
        let tracker = ObjectTracker(configuration: TrackerConfiguration(minimumHitsToConfirm: 1, maximumMissedFrames: 10,
                                                                        lostTrackWindow: 2), clock: clock)
        tracker.update(with: [TrackerDetection(box: box(200, 200))])
        for _ in 0..<8 { clock.advance(by: 0.5); tracker.update(with: []) }
        clock.advance(by: 0.5)
        XCTAssertEqual(tracker.update(with: [TrackerDetection(box: box(200, 200))]).map(\.trackingID), [1])
    }

    /// OC-SORT's re-update: an object moving at 300 px/s is hidden for 10 frames and found again
    /// where it should be. The velocity afterwards reflects the real motion over the gap, so the
    /// next prediction is right; a reset model would start from rest.
    func testObservationCentricReupdateKeepsTheVelocity() {
        let clock = ManualTrackingClock()
        let tracker = ObjectTracker(configuration: TrackerConfiguration(minimumHitsToConfirm: 1), clock: clock)
        var x = 50.0
        for _ in 0..<15 { tracker.update(with: [TrackerDetection(box: box(x, 100, 60, 60))]); clock.advance(by: frame); x += 10 }
        // While hidden the prediction drifts on; the object slows down a little (8 px/frame).
        for _ in 0..<10 { tracker.update(with: []); clock.advance(by: frame); x += 8 }
        let back = tracker.update(with: [TrackerDetection(box: box(x, 100, 60, 60))])
        XCTAssertEqual(back.map(\.trackingID), [1])
        XCTAssertEqual(back.first?.velocityX ?? 0, 240, accuracy: 30, "velocity over the gap (8 px/frame = 240 px/s)")
    }

    /// A whip pan moves everything 60 px per frame: with the camera's motion the tracker keeps
    /// every ID; without it the small objects get new IDs.
    func testCameraMotionCompensationKeepsIDsThroughAPan() {
        func run(compensated: Bool) -> Set<Int> {
            let tracker = ObjectTracker(configuration: TrackerConfiguration(minimumHitsToConfirm: 1), clock: ManualTrackingClock())
            var ids = Set<Int>()
            var offset = 0.0
            for k in 0..<20 {
                let shift = (5..<12).contains(k) ? -60.0 : 0
                offset += shift
                let detections = [box(700, 100), box(800, 300), box(900, 200)].map {
                    TrackerDetection(box: BoundingBox(x: $0.x + offset, y: $0.y, width: 40, height: 40))
                }
                let motion = compensated ? CameraMotion.translation(dx: shift, dy: 0) : nil
                ids.formUnion(tracker.update(with: detections, at: Double(k) * frame, cameraMotion: motion).map(\.trackingID))
            }
            return ids
        }
        XCTAssertEqual(run(compensated: true), [1, 2, 3])
        XCTAssertGreaterThan(run(compensated: false).count, 3, "the test can fail: without compensation IDs change")
    }

    /// Two people who look alike: one is lost, the other stays in view. A person appearing far
    /// away who looks more like the one in view than like the lost one is not given the lost
    /// one's ID (that would be a swap waiting to happen); one who clearly looks like the lost
    /// one is.
    func testReidentificationIsGatedAgainstLookAlikesOfTheSameClass() {
        let a = AppearanceDescriptor(features: [1, 0.2, 0, 0]), b = AppearanceDescriptor(features: [1, 0.6, 0, 0])
        let lookAlike = AppearanceDescriptor(features: [1, 0.7, 0, 0])
        XCTAssertGreaterThan(a.similarity(to: b), 0.9, "the two look alike")
        XCTAssertGreaterThan(a.similarity(to: lookAlike), 0.9, "above the re-identification threshold")
        let clock = ManualTrackingClock()
        let tracker = ObjectTracker(configuration: TrackerConfiguration(minimumHitsToConfirm: 1), clock: clock)
        for _ in 0..<3 {
            tracker.update(with: [TrackerDetection(box: box(50, 50), classIndex: 0, appearance: a),
                                  TrackerDetection(box: box(400, 50), classIndex: 0, appearance: b)])
            clock.advance(by: frame)
        }
        for _ in 0..<5 {
            clock.advance(by: frame)
            tracker.update(with: [TrackerDetection(box: box(400, 50), classIndex: 0, appearance: b)])
        }
        clock.advance(by: frame)
        let ambiguous = tracker.update(with: [TrackerDetection(box: box(400, 50), classIndex: 0, appearance: b),
                                              TrackerDetection(box: box(250, 300), classIndex: 0, appearance: lookAlike)])
        XCTAssertEqual(ambiguous.first { $0.detectionIndex == 1 }?.trackingID, 3, "closer to the one in view: new ID")
        clock.advance(by: frame)
        let clear = tracker.update(with: [TrackerDetection(box: box(400, 50), classIndex: 0, appearance: b),
                                          TrackerDetection(box: box(250, 300), classIndex: 0, appearance: lookAlike),
                                          TrackerDetection(box: box(50, 300), classIndex: 0, appearance: a)])
        XCTAssertEqual(clear.first { $0.detectionIndex == 2 }?.trackingID, 1, "clearly the lost one: its ID back")
        // The same look in another class is never re-identified with class-aware matching.
        let other = ObjectTracker(configuration: TrackerConfiguration(minimumHitsToConfirm: 1), clock: ManualTrackingClock())
        other.update(with: [TrackerDetection(box: box(50, 50), classIndex: 0, appearance: a)], at: 0)
        other.update(with: [], at: frame)
        XCTAssertEqual(other.update(with: [TrackerDetection(box: box(400, 300), classIndex: 1, appearance: a)], at: 2 * frame)
            .map(\.trackingID), [2])
    }

    /// A partly covered detection moves its track but does not teach it someone else's colours.
    func testCoveredDetectionsDoNotUpdateAppearance() {
        let red = AppearanceDescriptor(features: [1, 0, 0]), mixed = AppearanceDescriptor(features: [0.5, 0.5, 0])
        let blue = AppearanceDescriptor(features: [0, 1, 0])
        let clock = ManualTrackingClock()
        let tracker = ObjectTracker(configuration: TrackerConfiguration(minimumHitsToConfirm: 1, maximumMissedFrames: 100,
                                                                        appearanceUpdateRate: 1),
                                    clock: clock)
        tracker.update(with: [TrackerDetection(box: box(100, 100), appearance: red)])
        // Frames where a blue object covers half of the red one: the red track sees mixed colours.
        for k in 1...5 {
            clock.advance(by: frame)
            tracker.update(with: [TrackerDetection(box: box(100, 100), appearance: mixed),
                                  TrackerDetection(box: box(120 - Double(k), 100), appearance: blue)])
        }
        // The red object disappears and comes back far away, looking red again.
        for _ in 0..<3 { clock.advance(by: frame); tracker.update(with: [TrackerDetection(box: box(115, 100), appearance: blue)]) }
        clock.advance(by: frame)
        let back = tracker.update(with: [TrackerDetection(box: box(115, 100), appearance: blue),
                                         TrackerDetection(box: box(400, 300), appearance: red)])
        XCTAssertEqual(back.first { $0.detectionIndex == 1 }?.trackingID, 1, "its appearance stayed red")
    }

    /// A false positive seen in two weak frames (evidence 0.6) is not re-identified far away,
    /// however alike the look; the same look after enough strong frames is.
    func testOnlyTracksWithEvidenceAreReidentified() {
        let look = AppearanceDescriptor(features: [0.2, 1, 0.3])
        for (frames, score, expected) in [(2, 0.3, 2), (4, 0.9, 1)] {
            let clock = ManualTrackingClock()
            let tracker = ObjectTracker(configuration: TrackerConfiguration(confidentScore: 0.2, minimumHitsToConfirm: 1),
                                        clock: clock)
            for _ in 0..<frames {
                tracker.update(with: [TrackerDetection(box: box(100, 100), score: score, appearance: look)])
                clock.advance(by: frame)
            }
            tracker.update(with: [])
            clock.advance(by: frame)
            XCTAssertEqual(tracker.update(with: [TrackerDetection(box: box(500, 300), score: 0.9, appearance: look)])
                .map(\.trackingID), [expected], "\(frames) frames at \(score)")
        }
    }

    /// An object re-entering at the edge is first detected poorly (a partial view the detector
    /// calls another class) and gets a new ID; once it is seen as its class again, the lost
    /// track re-identifies it and takes it back, ending the young track.
    func testYoungTrackIsHandedBackToTheLostTrackItIs() {
        let cup = AppearanceDescriptor(features: [1, 0.2, 0.1])
        let clock = ManualTrackingClock()
        // As ObjectDetector configures it: every detection the localizer returns is confident.
        let tracker = ObjectTracker(configuration: TrackerConfiguration(confidentScore: 0, minimumHitsToConfirm: 1), clock: clock)
        for _ in 0..<5 {
            tracker.update(with: [TrackerDetection(box: box(560, 100), score: 0.9, classIndex: 41, appearance: cup)])
            clock.advance(by: frame)
        }
        for _ in 0..<10 { tracker.update(with: []); clock.advance(by: frame) }
        let partial = tracker.update(with: [TrackerDetection(box: box(600, 250, 30, 40), score: 0.3, classIndex: 45, appearance: cup)])
        XCTAssertEqual(partial.map(\.trackingID), [2], "another class: not re-identified")
        clock.advance(by: frame)
        let seen = tracker.update(with: [TrackerDetection(box: box(590, 250), score: 0.6, classIndex: 41, appearance: cup)])
        XCTAssertEqual(seen.map(\.trackingID), [1], "its own class again: the lost track takes it back")
        XCTAssertNil(tracker.state(ofTrack: 2), "the young track ended")
    }
}
