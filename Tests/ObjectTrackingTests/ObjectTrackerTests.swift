import TestSupport
import XCTest
import ObjectTracking

/// Tracker behaviour with an injected clock.
final class ObjectTrackerTests: XCTestCase {
    private let frame = 1.0 / 30

    private func box(_ x: Double, _ y: Double, _ w: Double = 40, _ h: Double = 40) -> BoundingBox {
        BoundingBox(x: x, y: y, width: w, height: h)
    }

    func testLifecycleTentativeConfirmedLostDeleted() {
        let clock = ManualTrackingClock()
        let tracker = ObjectTracker(configuration: TrackerConfiguration(minimumHitsToConfirm: 3, maximumMissedFrames: 2,
                                                                                    lostTrackWindow: 0),
                                    clock: clock)
        XCTAssertTrue(tracker.update(with: [TrackerDetection(box: box(100, 100))]).isEmpty, "tentative is not reported")
        XCTAssertEqual(tracker.state(ofTrack: 1), .tentative)
        clock.advance(by: frame)
        XCTAssertTrue(tracker.update(with: [TrackerDetection(box: box(101, 100))]).isEmpty)
        clock.advance(by: frame)
        let third = tracker.update(with: [TrackerDetection(box: box(102, 100))])
        XCTAssertEqual(third.map(\.trackingID), [1])
        XCTAssertEqual(third.first?.hits, 3)
        XCTAssertEqual(third.first?.age ?? 0, 2 * frame, accuracy: 1e-12)
        XCTAssertEqual(tracker.state(ofTrack: 1), .confirmed)
        for _ in 0..<2 {
            clock.advance(by: frame)
            XCTAssertTrue(tracker.update(with: []).isEmpty)
            XCTAssertEqual(tracker.state(ofTrack: 1), .lost)
        }
        clock.advance(by: frame)
        tracker.update(with: [])
        XCTAssertNil(tracker.state(ofTrack: 1), "deleted after maximumMissedFrames")
        XCTAssertEqual(tracker.liveTrackCount, 0)
    }

    func testTentativeTrackDiesOnFirstMiss() {
        let clock = ManualTrackingClock()
        let tracker = ObjectTracker(configuration: TrackerConfiguration(minimumHitsToConfirm: 2), clock: clock)
        tracker.update(with: [TrackerDetection(box: box(10, 10))])
        clock.advance(by: frame)
        tracker.update(with: [])
        XCTAssertNil(tracker.state(ofTrack: 1))
        clock.advance(by: frame)
        tracker.update(with: [TrackerDetection(box: box(10, 10))])
        XCTAssertEqual(tracker.state(ofTrack: 2), .tentative, "IDs are never reused")
    }

    func testReidentificationWithinWindowKeepsIDAndNewIDAfterIt() {
        let clock = ManualTrackingClock()
        let tracker = ObjectTracker(configuration: TrackerConfiguration(minimumHitsToConfirm: 1, maximumMissedFrames: 5,
                                                                                    lostTrackWindow: 0),
                                    clock: clock)
        XCTAssertEqual(tracker.update(with: [TrackerDetection(box: box(200, 200))]).map(\.trackingID), [1])
        for _ in 0..<4 { clock.advance(by: frame); tracker.update(with: []) }
        clock.advance(by: frame)
        XCTAssertEqual(tracker.update(with: [TrackerDetection(box: box(202, 199))]).map(\.trackingID), [1],
                       "back after 4 missed frames: same ID")
        for _ in 0..<6 { clock.advance(by: frame); tracker.update(with: []) }
        clock.advance(by: frame)
        XCTAssertEqual(tracker.update(with: [TrackerDetection(box: box(202, 199))]).map(\.trackingID), [2],
                       "back after 6 missed frames (> 5): new ID")
    }

    func testAppearanceReidentifiesObjectReturningElsewhere() {
        let clock = ManualTrackingClock()
        let red = AppearanceDescriptor(features: [1, 0.1, 0, 0]), blue = AppearanceDescriptor(features: [0, 0, 1, 0.2])
        let tracker = ObjectTracker(configuration: TrackerConfiguration(minimumHitsToConfirm: 1, maximumMissedFrames: 20),
                                    clock: clock)
        // Seen for three frames: enough evidence (3 × score 1) to be remembered across the frame.
        for _ in 0..<3 {
            tracker.update(with: [TrackerDetection(box: box(50, 50), appearance: red),
                                  TrackerDetection(box: box(400, 50), appearance: blue)])
            clock.advance(by: frame)
        }
        for _ in 0..<5 { clock.advance(by: frame); tracker.update(with: [TrackerDetection(box: box(400, 50), appearance: blue)]) }
        clock.advance(by: frame)
        // The red object comes back far from where it left; a stranger with another look appears too.
        let back = tracker.update(with: [TrackerDetection(box: box(400, 50), appearance: blue),
                                         TrackerDetection(box: box(250, 300), appearance: AppearanceDescriptor(features: [0, 1, 0, 0])),
                                         TrackerDetection(box: box(50, 300, 44, 38), appearance: red)])
        XCTAssertEqual(back.first { $0.detectionIndex == 2 }?.trackingID, 1, "red re-identified by appearance")
        XCTAssertEqual(back.first { $0.detectionIndex == 0 }?.trackingID, 2)
        XCTAssertEqual(back.first { $0.detectionIndex == 1 }?.trackingID, 3, "the stranger gets a new ID")
    }

    /// An object accelerates until it moves further than its own width between frames:
    /// only the motion model (driven by the clock's timestamps) keeps the association.
    func testMotionModelFollowsAcceleratingObjectUsingClockTime() {
        let clock = ManualTrackingClock(start: 100)
        let tracker = ObjectTracker(configuration: TrackerConfiguration(minimumHitsToConfirm: 1), clock: clock)
        var ids = Set<Int>()
        var x = 10.0, step = 8.0
        var previous: BoundingBox?
        for k in 0..<40 {
            let current = box(x, 100)
            ids.formUnion(tracker.update(with: [TrackerDetection(box: current)]).map(\.trackingID))
            if k == 39, let previous { XCTAssertEqual(previous.intersectionOverUnion(current), 0, "raw boxes no longer overlap") }
            previous = current
            clock.advance(by: frame)
            x += step
            step = min(60, step + 2.5)
        }
        XCTAssertEqual(ids, [1])
    }

    /// The same motion at half the frame interval per step: the motion model uses the clock's
    /// time, so the predicted velocity in pixels per second is what matters, not the frame count.
    func testVelocityEstimateIsInPixelsPerSecond() {
        let clock = ManualTrackingClock()
        let tracker = ObjectTracker(configuration: TrackerConfiguration(minimumHitsToConfirm: 1), clock: clock)
        var last: TrackedObject?
        for k in 0..<30 {
            last = tracker.update(with: [TrackerDetection(box: box(10 + 3 * Double(k), 100))]).first
            clock.advance(by: 0.1)
        }
        XCTAssertEqual(last?.velocityX ?? 0, 30, accuracy: 1)
        XCTAssertEqual(last?.velocityY ?? 1, 0, accuracy: 0.5)
    }

    func testExplicitTimestampsOverrideClockAndNeverRunBackwards() {
        let tracker = ObjectTracker(configuration: TrackerConfiguration(minimumHitsToConfirm: 1), clock: ManualTrackingClock())
        tracker.update(with: [TrackerDetection(box: box(0, 0))], at: 5)
        let later = tracker.update(with: [TrackerDetection(box: box(1, 0))], at: 4)
        XCTAssertEqual(later.first?.age, 0, "a timestamp earlier than the last frame is clamped")
        let much = tracker.update(with: [TrackerDetection(box: box(2, 0))], at: 7)
        XCTAssertEqual(much.first?.age, 2)
    }

    /// Class-aware: where two detections sit on a track, the one of the track's class wins;
    /// class-agnostic, the better overlap wins. A lone detection of another class (a class flicker)
    /// still continues the track.
    func testClassAwareMatching() {
        let tracker = ObjectTracker(configuration: TrackerConfiguration(minimumHitsToConfirm: 1), clock: ManualTrackingClock())
        tracker.update(with: [TrackerDetection(box: box(0, 0), classIndex: 1)], at: 0)
        let both = tracker.update(with: [TrackerDetection(box: box(0, 0), classIndex: 2), TrackerDetection(box: box(3, 0), classIndex: 1)],
                                  at: 0.03)
        XCTAssertEqual(both.first { $0.trackingID == 1 }?.detectionIndex, 1)
        let flicker = ObjectTracker(configuration: TrackerConfiguration(minimumHitsToConfirm: 1), clock: ManualTrackingClock())
        flicker.update(with: [TrackerDetection(box: box(0, 0), classIndex: 1)], at: 0)
        XCTAssertEqual(flicker.update(with: [TrackerDetection(box: box(2, 0), classIndex: 2)], at: 0.03).map(\.trackingID), [1])
        let agnostic = ObjectTracker(configuration: TrackerConfiguration(minimumHitsToConfirm: 1, isClassAware: false),
                                     clock: ManualTrackingClock())
        agnostic.update(with: [TrackerDetection(box: box(0, 0), classIndex: 1)], at: 0)
        let closer = agnostic.update(with: [TrackerDetection(box: box(0, 0), classIndex: 2), TrackerDetection(box: box(3, 0), classIndex: 1)],
                                     at: 0.03)
        XCTAssertEqual(closer.first { $0.trackingID == 1 }?.detectionIndex, 0)
    }

    func testInvalidDetectionsAreIgnored() {
        let tracker = ObjectTracker(configuration: TrackerConfiguration(minimumHitsToConfirm: 1), clock: ManualTrackingClock())
        let out = tracker.update(with: [TrackerDetection(box: box(.nan, 0)), TrackerDetection(box: box(0, 0, -4, 4)),
                                        TrackerDetection(box: box(5, 5), score: .nan), TrackerDetection(box: box(9, 9))],
                                 at: .infinity)
        XCTAssertEqual(out.map(\.detectionIndex), [3])
        XCTAssertEqual(tracker.liveTrackCount, 1)
    }

    func testOnlyConfidentDetectionsStartTracks() {
        let tracker = ObjectTracker(configuration: TrackerConfiguration(confidentScore: 0.5, minimumHitsToConfirm: 1),
                                    clock: ManualTrackingClock())
        XCTAssertTrue(tracker.update(with: [TrackerDetection(box: box(0, 0), score: 0.4)], at: 0).isEmpty)
        XCTAssertEqual(tracker.liveTrackCount, 0)
        XCTAssertEqual(tracker.update(with: [TrackerDetection(box: box(0, 0), score: 0.6)], at: 0.1).map(\.trackingID), [1])
        XCTAssertEqual(tracker.update(with: [TrackerDetection(box: box(1, 0), score: 0.3)], at: 0.2).map(\.trackingID), [1],
                       "a low score still updates an existing track")
    }

    func testDeterministic() {
        func run() -> [[TrackedObject]] {
            let clock = ManualTrackingClock()
            let tracker = ObjectTracker(clock: clock)
            var rng = SeededGenerator(seed: 3)
            return (0..<40).map { _ in
                clock.advance(by: frame)
                let detections = (0..<Int.random(in: 0...6, using: &rng)).map { _ in
                    TrackerDetection(box: box(Double.random(in: 0..<100, using: &rng), Double.random(in: 0..<100, using: &rng)))
                }
                return tracker.update(with: detections)
            }
        }
        XCTAssertEqual(run(), run())
    }

    func testCrossingObjectsKeepIDsWithMotion() {
        let clock = ManualTrackingClock()
        let tracker = ObjectTracker(configuration: TrackerConfiguration(minimumHitsToConfirm: 1), clock: clock)
        var idOfLeftMover: Set<Int> = [], idOfRightMover: Set<Int> = []
        for k in 0..<40 {
            let a = box(20 + 10 * Double(k), 100), b = box(420 - 10 * Double(k), 108)
            let out = tracker.update(with: [TrackerDetection(box: a), TrackerDetection(box: b)])
            for o in out { if o.detectionIndex == 0 { idOfRightMover.insert(o.trackingID) } else { idOfLeftMover.insert(o.trackingID) } }
            clock.advance(by: frame)
        }
        XCTAssertEqual(idOfRightMover, [1])
        XCTAssertEqual(idOfLeftMover, [2])
    }

    /// A false positive next to an occluded object starts a tentative track; when the object
    /// reappears between them, its established (lost) track wins the detection.
    func testEstablishedTrackHasPriorityOverTentative() {
        let clock = ManualTrackingClock()
        let tracker = ObjectTracker(configuration: TrackerConfiguration(minimumHitsToConfirm: 2), clock: clock)
        for _ in 0..<3 { tracker.update(with: [TrackerDetection(box: box(100, 100))]); clock.advance(by: frame) }
        XCTAssertEqual(tracker.state(ofTrack: 1), .confirmed)
        tracker.update(with: [TrackerDetection(box: box(130, 100))])   // object missed, false positive nearby
        clock.advance(by: frame)
        XCTAssertEqual(tracker.state(ofTrack: 1), .lost)
        XCTAssertEqual(tracker.state(ofTrack: 2), .tentative)
        // The reappearing object overlaps the tentative track more than its own lost track.
        let out = tracker.update(with: [TrackerDetection(box: box(117, 100))])
        XCTAssertEqual(out.map(\.trackingID), [1])
        XCTAssertNil(tracker.state(ofTrack: 2), "the unmatched tentative track is dropped")
    }
}
