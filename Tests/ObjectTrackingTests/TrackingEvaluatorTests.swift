import XCTest
import ObjectTracking

/// Hand-computed CLEAR-MOT and identity figures.
final class TrackingEvaluatorTests: XCTestCase {
    private func b(_ x: Double) -> BoundingBox { BoundingBox(x: x, y: 0, width: 10, height: 10) }

    func testPerfectTrackingScoresOne() {
        var evaluator = TrackingEvaluator()
        for k in 0..<5 {
            evaluator.addFrame(groundTruth: [IdentifiedBox(id: 1, box: b(Double(k))), IdentifiedBox(id: 2, box: b(50))],
                               hypotheses: [IdentifiedBox(id: 7, box: b(Double(k))), IdentifiedBox(id: 9, box: b(50))])
        }
        let s = evaluator.result
        XCTAssertEqual(s.mota, 1); XCTAssertEqual(s.idf1, 1); XCTAssertEqual(s.idSwitches, 0); XCTAssertEqual(s.motp, 1)
    }

    func testSwitchMissAndFalsePositive() {
        var evaluator = TrackingEvaluator()
        // Frames 0-1: GT 1 tracked as 10. Frame 2: missed, and a false positive far away.
        // Frames 3-5: tracked as 11 (one ID switch).
        for k in 0..<6 {
            var hyps: [IdentifiedBox] = []
            if k < 2 { hyps.append(IdentifiedBox(id: 10, box: b(0))) }
            if k == 2 { hyps.append(IdentifiedBox(id: 12, box: b(100))) }
            if k >= 3 { hyps.append(IdentifiedBox(id: 11, box: b(1))) }
            evaluator.addFrame(groundTruth: [IdentifiedBox(id: 1, box: b(0))], hypotheses: hyps)
        }
        let s = evaluator.result
        XCTAssertEqual(s.groundTruthCount, 6); XCTAssertEqual(s.hypothesisCount, 6)
        XCTAssertEqual(s.misses, 1); XCTAssertEqual(s.falsePositives, 1); XCTAssertEqual(s.idSwitches, 1)
        XCTAssertEqual(s.mota, 1 - 3.0 / 6, accuracy: 1e-12)
        // Global matching pairs GT 1 with track 11 (3 frames): IDF1 = 2*3 / (6 + 6).
        XCTAssertEqual(s.identityTruePositives, 3)
        XCTAssertEqual(s.idf1, 0.5, accuracy: 1e-12)
    }

    func testKeepsPreviousCorrespondenceOverCheaperNewOne() {
        var evaluator = TrackingEvaluator()
        evaluator.addFrame(groundTruth: [IdentifiedBox(id: 1, box: b(0))], hypotheses: [IdentifiedBox(id: 5, box: b(0))])
        // Track 5 drifts (IoU 0.54) while track 6 sits exactly on the object: CLEAR-MOT keeps 5.
        evaluator.addFrame(groundTruth: [IdentifiedBox(id: 1, box: b(0))],
                           hypotheses: [IdentifiedBox(id: 5, box: b(3)), IdentifiedBox(id: 6, box: b(0))])
        let s = evaluator.result
        XCTAssertEqual(s.idSwitches, 0); XCTAssertEqual(s.falsePositives, 1); XCTAssertEqual(s.matches, 2)
    }

    func testIdentityMatchingMaximisesOverlapNotPairCount() {
        var evaluator = TrackingEvaluator()
        // GT 1 with track A for 4 frames; one frame where GT 1 overlaps B and GT 2 overlaps A.
        for _ in 0..<4 {
            evaluator.addFrame(groundTruth: [IdentifiedBox(id: 1, box: b(0))], hypotheses: [IdentifiedBox(id: 100, box: b(0))])
        }
        evaluator.addFrame(groundTruth: [IdentifiedBox(id: 1, box: b(0)), IdentifiedBox(id: 2, box: b(50))],
                           hypotheses: [IdentifiedBox(id: 200, box: b(0)), IdentifiedBox(id: 100, box: b(50))])
        let s = evaluator.result
        XCTAssertEqual(s.identityTruePositives, 4, "1↔100 (4 frames) beats 1↔200 + 2↔100 (2 frames)")
        XCTAssertEqual(s.idf1, 8.0 / 12, accuracy: 1e-12)
    }
}

/// HOTA and ignored ground truth, hand-computed.
final class TrackingEvaluatorHOTATests: XCTestCase {
    private func b(_ x: Double) -> BoundingBox { BoundingBox(x: x, y: 0, width: 10, height: 10) }

    func testPerfectTrackingHasHOTAOne() {
        var evaluator = TrackingEvaluator()
        for _ in 0..<4 {
            evaluator.addFrame(groundTruth: [IdentifiedBox(id: 1, box: b(0)), IdentifiedBox(id: 2, box: b(50))],
                               hypotheses: [IdentifiedBox(id: 5, box: b(0)), IdentifiedBox(id: 6, box: b(50))])
        }
        let s = evaluator.result
        XCTAssertEqual(s.hota, 1, accuracy: 1e-12)
        XCTAssertEqual(s.detectionAccuracy, 1, accuracy: 1e-12)
        XCTAssertEqual(s.associationAccuracy, 1, accuracy: 1e-12)
    }

    /// One object tracked perfectly in position but under two IDs, half the frames each:
    /// DetA = 1; each true positive's association score is 2/(4 + 2 - 2) = ... = 1/2, so HOTA = √½.
    func testIdentitySplitHalvesAssociation() {
        var evaluator = TrackingEvaluator()
        for k in 0..<4 {
            evaluator.addFrame(groundTruth: [IdentifiedBox(id: 1, box: b(0))], hypotheses: [IdentifiedBox(id: k < 2 ? 7 : 8, box: b(0))])
        }
        let s = evaluator.result
        XCTAssertEqual(s.detectionAccuracy, 1, accuracy: 1e-12)
        XCTAssertEqual(s.associationAccuracy, 0.5, accuracy: 1e-12)
        XCTAssertEqual(s.hota, 0.5.squareRoot(), accuracy: 1e-12)
    }

    /// Localisation enters through the thresholds: a box with IoU 0.6 is a true positive for
    /// α ≤ 0.6 (12 of the 19 thresholds) and a miss plus a false positive above.
    func testLocalisationAveragesOverThresholds() {
        var evaluator = TrackingEvaluator()
        // IoU of [0,10] and [2.5,12.5] (height 10): 7.5 / 12.5 = 0.6.
        evaluator.addFrame(groundTruth: [IdentifiedBox(id: 1, box: b(0))], hypotheses: [IdentifiedBox(id: 3, box: b(2.5))])
        let s = evaluator.result
        XCTAssertEqual(s.detectionAccuracy, 12.0 / 19, accuracy: 1e-9)
        XCTAssertEqual(s.hota, 12.0 / 19, accuracy: 1e-9, "AssA is 1 where matched, so HOTA(α) = DetA(α) ∈ {0, 1}")
    }

    /// A tracker box on a barely visible (ignored) object is neither a match nor a false positive.
    func testIgnoredGroundTruthAbsorbsTrackerBoxes() {
        var evaluator = TrackingEvaluator()
        evaluator.addFrame(groundTruth: [IdentifiedBox(id: 1, box: b(0))],
                           hypotheses: [IdentifiedBox(id: 3, box: b(0)), IdentifiedBox(id: 4, box: b(50))],
                           ignored: [b(51)])
        let s = evaluator.result
        XCTAssertEqual(s.falsePositives, 0)
        XCTAssertEqual(s.hypothesisCount, 1)
        XCTAssertEqual(s.mota, 1)
    }
}
