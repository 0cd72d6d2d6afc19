import Foundation
import ImageCodecs
@testable import ObjectDetection
import ObjectTracking
import TestSupport
import XCTest

/// Holds submitted classification jobs until the test runs them.
final class ManualClassificationExecutor: ClassificationExecutor, @unchecked Sendable {
    private let lock = NSLock()
    private var jobs: [@Sendable () -> Void] = []
    var pendingCount: Int { lock.withLock { jobs.count } }
    func submit(_ job: @escaping @Sendable () -> Void) { lock.withLock { jobs.append(job) } }
    func runAll() {
        let batch = lock.withLock { defer { jobs.removeAll() }; return jobs }
        batch.forEach { $0() }
    }
}

/// Counts classifier calls; the n-th call labels the box with confidence n / 100.
final class CountingClassifier: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var calls = 0
    func classify(_ image: RGBImage, _ rect: ImageRect) -> [ObjectLabel] {
        let n = lock.withLock { calls += 1; return calls }
        return [ObjectLabel(text: "Home good", index: 2, confidence: Float(n) / 100)]
    }
}

/// Stream mode's labels per tracking ID: classified when a track appears, then again in the
/// background every N frames, after some time (injected clock) or when the box changed a lot.
final class StreamLabelTests: XCTestCase {
    private let image = try! RGBImage(width: 64, height: 64, fill: .white)

    private func cache(_ policy: TrackLabelCache.Policy = .init(), clock: ManualTrackingClock,
                       executor: ManualClassificationExecutor, classifier: CountingClassifier) -> TrackLabelCache {
        TrackLabelCache(policy: policy, clock: clock, executor: executor) { classifier.classify($0, $1) }
    }

    func testNewTracksAreLabelledAtOnceAndRefreshedInTheBackgroundEveryNFrames() throws {
        let clock = ManualTrackingClock(), executor = ManualClassificationExecutor(), classifier = CountingClassifier()
        var policy = TrackLabelCache.Policy()
        policy.reclassifyEveryFrames = 5
        policy.maxLabelAge = 100
        let labels = cache(policy, clock: clock, executor: executor, classifier: classifier)
        let box = ImageRect(x: 10, y: 10, width: 20, height: 20)
        XCTAssertEqual(try labels.labels(for: [(7, box)], in: image)[0].first?.confidence, 0.01)
        for _ in 2...5 {
            XCTAssertEqual(try labels.labels(for: [(7, box)], in: image)[0].first?.confidence, 0.01)
            clock.advance(by: 1.0 / 30)
        }
        XCTAssertEqual(classifier.calls, 1, "no classification while the track's labels are fresh")
        XCTAssertEqual(executor.pendingCount, 0)
        // Frame 6: five frames later a refresh is queued; the frame still returns the old labels at once.
        XCTAssertEqual(try labels.labels(for: [(7, box)], in: image)[0].first?.confidence, 0.01)
        XCTAssertEqual(executor.pendingCount, 1)
        XCTAssertEqual(try labels.labels(for: [(7, box)], in: image)[0].first?.confidence, 0.01)
        XCTAssertEqual(executor.pendingCount, 1, "one classification in flight per track")
        executor.runAll()
        XCTAssertEqual(try labels.labels(for: [(7, box)], in: image)[0].first?.confidence, 0.02, "labels attach to the ID when ready")
        XCTAssertEqual(classifier.calls, 2)
    }

    func testLabelAgeByTheInjectedClockAndLargeBoxChangesTriggerAReclassification() throws {
        let clock = ManualTrackingClock(), executor = ManualClassificationExecutor(), classifier = CountingClassifier()
        var policy = TrackLabelCache.Policy()
        policy.reclassifyEveryFrames = 1000
        policy.maxLabelAge = 0.5
        let labels = cache(policy, clock: clock, executor: executor, classifier: classifier)
        let box = ImageRect(x: 10, y: 10, width: 20, height: 20)
        _ = try labels.labels(for: [(1, box)], in: image)
        clock.advance(by: 0.4)
        _ = try labels.labels(for: [(1, box)], in: image)
        XCTAssertEqual(executor.pendingCount, 0)
        clock.advance(by: 0.2)
        _ = try labels.labels(for: [(1, box)], in: image)
        XCTAssertEqual(executor.pendingCount, 1, "labels older than maxLabelAge are refreshed")
        executor.runAll()
        // Moved by half its width: IoU 1/3 < 0.5.
        _ = try labels.labels(for: [(1, ImageRect(x: 20, y: 10, width: 20, height: 20))], in: image)
        XCTAssertEqual(executor.pendingCount, 1, "a large box change is classified again")
        // A small move (IoU 0.9) is not.
        executor.runAll()
        _ = try labels.labels(for: [(1, ImageRect(x: 21, y: 10, width: 20, height: 20))], in: image)
        XCTAssertEqual(executor.pendingCount, 0)
        // Ended tracks are forgotten: the ID seen again is a new track.
        _ = try labels.labels(for: [], in: image)
        let callsBefore = classifier.calls
        _ = try labels.labels(for: [(1, box)], in: image)
        XCTAssertEqual(classifier.calls, callsBefore + 1)
    }

    func testQueuedRefreshOfAnEndedTrackIsSkippedAndNeverLabelsALaterTrack() throws {
        let clock = ManualTrackingClock(), executor = ManualClassificationExecutor(), classifier = CountingClassifier()
        var policy = TrackLabelCache.Policy()
        policy.reclassifyEveryFrames = 2
        policy.maxLabelAge = 100
        let labels = cache(policy, clock: clock, executor: executor, classifier: classifier)
        let box = ImageRect(x: 10, y: 10, width: 20, height: 20)
        _ = try labels.labels(for: [(3, box)], in: image)
        _ = try labels.labels(for: [(3, box)], in: image)
        _ = try labels.labels(for: [(3, box)], in: image)
        XCTAssertEqual(executor.pendingCount, 1, "a refresh is queued")
        // The scene changes before the refresh runs: track 3 ends, track 4 appears.
        XCTAssertEqual(try labels.labels(for: [(4, box)], in: image)[0].first?.confidence, 0.02)
        executor.runAll()
        XCTAssertEqual(classifier.calls, 2, "the ended track's queued refresh does not run the classifier")
        // After a reset an ID seen again is a new track: a refresh queued before the reset must
        // not write its labels into it.
        _ = try labels.labels(for: [(4, box)], in: image)
        _ = try labels.labels(for: [(4, box)], in: image)
        XCTAssertEqual(executor.pendingCount, 1)
        labels.reset()
        XCTAssertEqual(try labels.labels(for: [(4, box)], in: image)[0].first?.confidence, 0.03)
        executor.runAll()
        XCTAssertEqual(classifier.calls, 3, "the refresh queued before the reset is skipped")
        XCTAssertEqual(try labels.labels(for: [(4, box)], in: image)[0].first?.confidence, 0.03)
    }

    func testStreamDetectorReturnsBoxesFirstAndLabelsWhenReady() throws {
        let deepLab = try TestPaths.model(DefaultModels.localizerFileName)
        let photo = try RGBImage(pngFile: TestPaths.imagesDirectory.appendingPathComponent("chelsea.png").path)
        var options = ObjectDetectorOptions()
        options.shouldEnableClassification = true
        let clock = ManualTrackingClock(), executor = ManualClassificationExecutor(), classifier = CountingClassifier()
        var policy = TrackLabelCache.Policy()
        policy.classifyNewTracksImmediately = false
        let detector = ObjectDetector(
            settings: .init(options),
            localizer: try FamilyLocalizer(modelPath: deepLab, labels: nil, scoreThreshold: nil, threadCount: 1,
                                           family: SegmentationRegionsFamily()),
            classifier: { classifier.classify($0, $1) }, clock: clock,
            labelExecutor: executor, labelPolicy: policy)
        let first = try XCTUnwrap(try detector.results(in: VisionImage(photo)).first)
        XCTAssertNotNil(first.trackingID)
        XCTAssertEqual(first.labels, [], "boxes first: the label is being computed")
        XCTAssertEqual(classifier.calls, 0)
        executor.runAll()
        clock.advance(by: 1.0 / 30)
        let second = try XCTUnwrap(try detector.results(in: VisionImage(photo)).first)
        XCTAssertEqual(second.trackingID, first.trackingID)
        XCTAssertEqual(second.labels.first?.text, "Home good")
        XCTAssertEqual(classifier.calls, 1)
    }
}
