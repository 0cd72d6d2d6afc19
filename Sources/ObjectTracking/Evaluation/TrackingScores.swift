/// CLEAR-MOT and identity figures of a tracker run against ground truth.
public struct TrackingScores: Hashable, Sendable, CustomStringConvertible {
    /// Frames evaluated.
    public var frames: Int
    /// Ground-truth boxes over all frames.
    public var groundTruthCount: Int
    /// Tracker boxes over all frames.
    public var hypothesisCount: Int
    /// Ground-truth boxes matched to a tracker box (IoU ≥ threshold) per frame.
    public var matches: Int
    /// Ground-truth boxes left unmatched (false negatives).
    public var misses: Int
    /// Tracker boxes left unmatched.
    public var falsePositives: Int
    /// Times a ground-truth object was matched to a different tracker ID than at its previous match.
    public var idSwitches: Int
    /// Sum of IoU over matches (for MOTP).
    public var totalMatchedIoU: Double
    /// Frames where a ground-truth object and its globally assigned tracker ID overlap (IDTP).
    public var identityTruePositives: Int
    /// Higher Order Tracking Accuracy: √(DetA · AssA), averaged over IoU thresholds 0.05...0.95.
    public var hota: Double = 0
    /// HOTA's detection accuracy, averaged over the thresholds.
    public var detectionAccuracy: Double = 0
    /// HOTA's association accuracy, averaged over the thresholds.
    public var associationAccuracy: Double = 0

    /// Multiple Object Tracking Accuracy: 1 - (misses + false positives + ID switches) / ground truth.
    public var mota: Double {
        groundTruthCount == 0 ? 0 : 1 - Double(misses + falsePositives + idSwitches) / Double(groundTruthCount)
    }
    /// Multiple Object Tracking Precision: mean IoU of matched pairs.
    public var motp: Double { matches == 0 ? 0 : totalMatchedIoU / Double(matches) }
    /// Identity F1: 2 IDTP / (ground truth + tracker boxes).
    public var idf1: Double {
        let total = groundTruthCount + hypothesisCount
        return total == 0 ? 0 : 2 * Double(identityTruePositives) / Double(total)
    }
    /// Identity precision: IDTP / tracker boxes.
    public var idPrecision: Double { hypothesisCount == 0 ? 0 : Double(identityTruePositives) / Double(hypothesisCount) }
    /// Identity recall: IDTP / ground-truth boxes.
    public var idRecall: Double { groundTruthCount == 0 ? 0 : Double(identityTruePositives) / Double(groundTruthCount) }

    /// One line with the main figures.
    public var description: String {
        func pct(_ v: Double) -> String { String(Double(Int((v * 1000).rounded())) / 10) + "%" }
        return "MOTA \(pct(mota)) IDF1 \(pct(idf1)) HOTA \(pct(hota)) IDsw \(idSwitches) FN \(misses) FP \(falsePositives) " +
            "GT \(groundTruthCount) MOTP \(pct(motp))"
    }
}
