/// A box with an identity: a ground-truth object or a tracker output in one frame.
public struct IdentifiedBox: Hashable, Sendable {
    /// Object or track identity.
    public var id: Int
    /// The box.
    public var box: BoundingBox
    /// Creates an identified box.
    public init(id: Int, box: BoundingBox) { self.id = id; self.box = box }
}

/// Scores a tracker against ground truth with the CLEAR-MOT metrics (MOTA, MOTP, ID switches)
/// and the identity metrics of Ristani et al. (IDF1, IDP, IDR).
///
/// Per frame, a ground-truth box and a tracker box may match when their IoU is at least
/// ``matchThreshold``. CLEAR-MOT: correspondences from earlier frames are kept while they
/// stay valid; the rest are paired by a minimum-cost assignment (cost 1 - IoU) that
/// maximises the number of matches. An ID switch is counted when a ground-truth object is
/// matched to a tracker ID other than the one at its previous match.
/// IDF1: ground-truth and tracker identities are paired once for the whole sequence by a
/// maximum-weight bipartite matching whose weight is the number of frames the pair overlaps.
public struct TrackingEvaluator: Sendable {
    /// Minimum IoU for a ground-truth box and a tracker box to correspond.
    public let matchThreshold: Double
    private var scores = TrackingScores(frames: 0, groundTruthCount: 0, hypothesisCount: 0, matches: 0, misses: 0,
                                        falsePositives: 0, idSwitches: 0, totalMatchedIoU: 0, identityTruePositives: 0)
    /// Tracker ID each ground-truth object was matched to in the previous frame.
    private var currentMatch: [Int: Int] = [:]
    /// Tracker ID each ground-truth object was last matched to, in any earlier frame.
    private var lastMatch: [Int: Int] = [:]
    /// Frames each (ground truth, tracker) identity pair overlaps.
    private var overlapFrames: [IdentityPair: Int] = [:]
    private var groundTruthIDs = Set<Int>()
    private var hypothesisIDs = Set<Int>()

    private struct IdentityPair: Hashable, Sendable { let truth: Int; let hypothesis: Int }

    /// An evaluator with the usual IoU threshold of 0.5.
    public init(matchThreshold: Double = 0.5) { self.matchThreshold = matchThreshold }

    /// Adds one frame. Repeated IDs within a frame after the first are ignored.
    public mutating func addFrame(groundTruth: [IdentifiedBox], hypotheses: [IdentifiedBox]) {
        let truth = Self.unique(groundTruth), hyps = Self.unique(hypotheses)
        scores.frames += 1
        scores.groundTruthCount += truth.count
        scores.hypothesisCount += hyps.count
        for t in truth { groundTruthIDs.insert(t.id) }
        for h in hyps { hypothesisIDs.insert(h.id) }

        var iou = [[Double]](repeating: [Double](repeating: 0, count: hyps.count), count: truth.count)
        for (i, t) in truth.enumerated() {
            for (j, h) in hyps.enumerated() {
                iou[i][j] = t.box.intersectionOverUnion(h.box)
                if iou[i][j] >= matchThreshold {
                    overlapFrames[IdentityPair(truth: t.id, hypothesis: h.id), default: 0] += 1
                }
            }
        }

        // Keep last frame's correspondences that are still valid.
        var truthMatched = [Int?](repeating: nil, count: truth.count)
        var hypothesisTaken = [Bool](repeating: false, count: hyps.count)
        for (i, t) in truth.enumerated() {
            guard let previous = currentMatch[t.id], let j = hyps.firstIndex(where: { $0.id == previous }),
                  !hypothesisTaken[j], iou[i][j] >= matchThreshold else { continue }
            truthMatched[i] = j; hypothesisTaken[j] = true
        }
        // Pair the rest by minimum cost.
        let openTruth = truth.indices.filter { truthMatched[$0] == nil }
        let openHyps = hyps.indices.filter { !hypothesisTaken[$0] }
        let costs: [[Double?]] = openTruth.map { i in
            openHyps.map { j in iou[i][j] >= matchThreshold ? 1 - iou[i][j] : nil }
        }
        for pair in AssignmentSolver.solve(costs: costs) {
            truthMatched[openTruth[pair.row]] = openHyps[pair.column]
            hypothesisTaken[openHyps[pair.column]] = true
        }

        var nextMatch: [Int: Int] = [:]
        for (i, t) in truth.enumerated() {
            guard let j = truthMatched[i] else { scores.misses += 1; continue }
            let hid = hyps[j].id
            scores.matches += 1
            scores.totalMatchedIoU += iou[i][j]
            if let previous = lastMatch[t.id], previous != hid { scores.idSwitches += 1 }
            lastMatch[t.id] = hid
            nextMatch[t.id] = hid
        }
        scores.falsePositives += hypothesisTaken.filter { !$0 }.count
        currentMatch = nextMatch
    }

    /// The figures so far (the identity matching is solved on each call).
    public var result: TrackingScores {
        var final = scores
        let truthIDs = groundTruthIDs.sorted(), hypIDs = hypothesisIDs.sorted()
        // Every pair is allowed (non-overlapping pairs weigh 0), so the minimum cost is the
        // maximum total overlap rather than the largest number of pairs.
        let costs: [[Double?]] = truthIDs.map { t in
            hypIDs.map { h in -Double(overlapFrames[IdentityPair(truth: t, hypothesis: h)] ?? 0) }
        }
        final.identityTruePositives = AssignmentSolver.solve(costs: costs).reduce(0) { sum, pair in
            sum + (overlapFrames[IdentityPair(truth: truthIDs[pair.row], hypothesis: hypIDs[pair.column])] ?? 0)
        }
        return final
    }

    private static func unique(_ boxes: [IdentifiedBox]) -> [IdentifiedBox] {
        var seen = Set<Int>()
        return boxes.filter { seen.insert($0.id).inserted }
    }
}
