import TestSupport
import XCTest
import ObjectTracking

/// Parts of a tracked object (a detection inside a larger one of its class) and partial views
/// (a detection much smaller than the box the track's appearance came from): each rule is
/// checked with its setting on and off, so the tests fail when the rule does nothing.
final class PartsAndPartialViewsTests: XCTestCase {
    private func box(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> BoundingBox {
        BoundingBox(x: x, y: y, width: w, height: h)
    }

    private func tracker(_ change: (inout TrackerConfiguration) -> Void = { _ in }) -> ObjectTracker {
        var configuration = TrackerConfiguration(confidentScore: 0.5, minimumHitsToConfirm: 1)
        change(&configuration)
        return ObjectTracker(configuration: configuration, clock: ManualTrackingClock())
    }

    /// A confident head inside a tracked person's box (same class) starts no track; of another
    /// class, or with the rule off, it does.
    func testPartOfATrackedObjectStartsNoTrack() {
        func liveTracks(headClass: Int, _ change: (inout TrackerConfiguration) -> Void = { _ in }) -> (Int, [Int]) {
            let t = tracker(change)
            t.update(with: [TrackerDetection(box: box(100, 100, 100, 200), score: 0.9, classIndex: 0)], at: 0)
            let out = t.update(with: [TrackerDetection(box: box(102, 100, 100, 200), score: 0.9, classIndex: 0),
                                      TrackerDetection(box: box(120, 96, 60, 60), score: 0.8, classIndex: headClass)], at: 0.033)
            return (t.liveTrackCount, out.map(\.detectionIndex))
        }
        let part = liveTracks(headClass: 0)
        XCTAssertEqual(part.0, 1, "the head is a part of the tracked person")
        XCTAssertEqual(part.1, [0], "and is not reported")
        XCTAssertEqual(liveTracks(headClass: 1).0, 2, "a detection of another class is another object")
        XCTAssertEqual(liveTracks(headClass: 0) { $0.partContainment = 2 }.0, 2, "rule off")
    }

    /// Where a confident part and a weak whole both overlap a track, the track takes the whole:
    /// the part only enters the second stage, where the whole wins on IoU.
    func testTrackKeepsTheWholeOverAConfidentPart() {
        func matched(_ change: (inout TrackerConfiguration) -> Void = { _ in }) -> Int? {
            let t = tracker(change)
            t.update(with: [TrackerDetection(box: box(0, 0, 100, 200), score: 0.9, classIndex: 0)], at: 0)
            let out = t.update(with: [TrackerDetection(box: box(10, 0, 80, 90), score: 0.9, classIndex: 0),
                                      TrackerDetection(box: box(2, 0, 100, 200), score: 0.3, classIndex: 0)], at: 0.033)
            return out.first { $0.trackingID == 1 }?.detectionIndex
        }
        XCTAssertEqual(matched(), 1)
        XCTAssertEqual(matched { $0.partContainment = 2 }, 0, "rule off: the confident head takes the track in the first stage")
    }

    /// A person seen whole in red, then only its top (40 % of the box) in blue for ten frames,
    /// then gone, comes back whole in red far away: re-identified, because the partial views did
    /// not turn its appearance blue. With the rule off they do, and the person gets a new ID.
    func testPartialViewsKeepTheAppearanceOfTheWhole() {
        let red = AppearanceDescriptor(features: [1, 0]), blue = AppearanceDescriptor(features: [0, 1])
        func returningID(_ change: (inout TrackerConfiguration) -> Void = { _ in }) -> [Int] {
            let t = tracker(change)
            var time = 0.0
            for k in 0..<5 {
                t.update(with: [TrackerDetection(box: box(100 + Double(k), 100, 100, 200), score: 0.9, classIndex: 0,
                                                 appearance: red)], at: time)
                time += 0.033
            }
            for k in 0..<10 {
                t.update(with: [TrackerDetection(box: box(105 + Double(k), 100, 100, 80), score: 0.9, classIndex: 0,
                                                 appearance: blue)], at: time)
                time += 0.033
            }
            for _ in 0..<3 { t.update(with: [], at: time); time += 0.033 }
            return t.update(with: [TrackerDetection(box: box(420, 120, 100, 200), score: 0.9, classIndex: 0, appearance: red)],
                            at: time).map(\.trackingID)
        }
        XCTAssertEqual(returningID(), [1])
        XCTAssertEqual(returningID { $0.partialViewArea = 0 }, [2], "rule off")
    }
}
