/// A box with an identity: a ground-truth object or a tracker output in one frame.
public struct IdentifiedBox: Hashable, Sendable {
    /// Object or track identity.
    public var id: Int
    /// The box.
    public var box: BoundingBox
    /// Creates an identified box.
    public init(id: Int, box: BoundingBox) { self.id = id; self.box = box }
}

/// Scores a tracker against ground truth with the CLEAR-MOT metrics (MOTA, MOTP, ID switches;
/// Bernardin & Stiefelhagen, "Evaluating Multiple Object Tracking Performance: The CLEAR MOT
/// Metrics", EURASIP JIVP 2008), the identity metrics (IDF1, IDP, IDR; Ristani et al.,
/// "Performance Measures and a Data Set for Multi-Target, Multi-Camera Tracking", ECCV 2016
/// workshops) and HOTA (Luiten et al., "HOTA: A Higher Order Metric for Evaluating
/// Multi-Object Tracking", IJCV 2021), as the MOTChallenge evaluation code (TrackEval) defines them.
///
/// Per frame, a ground-truth box and a tracker box may match when their IoU is at least
/// ``matchThreshold``. CLEAR-MOT: correspondences from earlier frames are kept while they
/// stay valid; the rest are paired by a minimum-cost assignment (cost 1 - IoU) that
/// maximises the number of matches. An ID switch is counted when a ground-truth object is
/// matched to a tracker ID other than the one at its previous match.
/// IDF1: ground-truth and tracker identities are paired once for the whole sequence by a
/// maximum-weight bipartite matching whose weight is the number of frames the pair overlaps.
/// HOTA: for each localisation threshold α = 0.05, 0.10, …, 0.95, per frame a maximum-score
/// matching on IoU × global alignment score; DetA = TP / (TP + FN + FP),
/// AssA = mean over true positives of TPA / (TPA + FNA + FPA), HOTA(α) = √(DetA · AssA),
/// HOTA = the mean over α.
///
/// Ground-truth boxes given as `ignored` (objects barely visible, as MOTChallenge's
/// low-visibility and distractor boxes) are neither required nor counted against the tracker:
/// a tracker box matched to one (IoU ≥ threshold) is dropped before scoring.
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
    /// Each frame's identities and IoU matrix, for HOTA.
    private var records: [FrameRecord] = []

    private struct FrameRecord: Sendable { let truth: [Int]; let hypotheses: [Int]; let iou: [[Double]] }

    private struct IdentityPair: Hashable, Sendable { let truth: Int; let hypothesis: Int }

    /// An evaluator with the usual IoU threshold of 0.5.
    public init(matchThreshold: Double = 0.5) { self.matchThreshold = matchThreshold }

    /// Adds one frame. Repeated IDs within a frame after the first are ignored.
    /// - Parameter ignored: ground-truth boxes that are neither required nor false positives.
    public mutating func addFrame(groundTruth: [IdentifiedBox], hypotheses: [IdentifiedBox],
                                  ignored: [BoundingBox] = []) {
        let truth = Self.unique(groundTruth)
        var hyps = Self.unique(hypotheses)
        if !ignored.isEmpty {
            // Pair tracker boxes with all ground truth, then drop those paired with an ignored box.
            let all = truth.map(\.box) + ignored
            let costs: [[Double?]] = all.map { t in
                hyps.map { h in let v = t.intersectionOverUnion(h.box); return v >= matchThreshold ? 1 - v : nil }
            }
            let dropped = Set(AssignmentSolver.solve(costs: costs).filter { $0.row >= truth.count }.map(\.column))
            hyps = hyps.indices.filter { !dropped.contains($0) }.map { hyps[$0] }
        }
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
        records.append(FrameRecord(truth: truth.map(\.id), hypotheses: hyps.map(\.id), iou: iou))
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
        (final.hota, final.detectionAccuracy, final.associationAccuracy) = hota()
        return final
    }

    /// HOTA, DetA and AssA, each averaged over α = 0.05...0.95 (TrackEval's `hota.py` algorithm).
    private func hota() -> (Double, Double, Double) {
        let alphas = (1...19).map { Double($0) * 0.05 }
        var truthFrames = [Int: Double](), hypothesisFrames = [Int: Double]()
        var potential = [IdentityPair: Double]()
        for r in records {
            for t in r.truth { truthFrames[t, default: 0] += 1 }
            for h in r.hypotheses { hypothesisFrames[h, default: 0] += 1 }
            let rowSums = r.iou.map { $0.reduce(0, +) }
            let columnSums = r.hypotheses.indices.map { j in r.iou.reduce(0) { $0 + $1[j] } }
            for (i, t) in r.truth.enumerated() {
                for (j, h) in r.hypotheses.enumerated() where r.iou[i][j] > 0 {
                    potential[IdentityPair(truth: t, hypothesis: h), default: 0] +=
                        r.iou[i][j] / (rowSums[i] + columnSums[j] - r.iou[i][j])
                }
            }
        }
        func alignment(_ t: Int, _ h: Int) -> Double {
            guard let p = potential[IdentityPair(truth: t, hypothesis: h)] else { return 0 }
            return p / ((truthFrames[t] ?? 0) + (hypothesisFrames[h] ?? 0) - p)
        }
        var truePositives = [Double](repeating: 0, count: alphas.count)
        var matchCounts = [[IdentityPair: Double]](repeating: [:], count: alphas.count)
        for r in records where !r.truth.isEmpty && !r.hypotheses.isEmpty {
            let weights: [[Double?]] = r.truth.indices.map { i in
                r.hypotheses.indices.map { j in alignment(r.truth[i], r.hypotheses[j]) * r.iou[i][j] }
            }
            for pair in AssignmentSolver.solve(weights: weights, strategy: .optimal) {
                let similarity = r.iou[pair.row][pair.column]
                for (a, alpha) in alphas.enumerated() where similarity >= alpha - 1e-12 {
                    truePositives[a] += 1
                    matchCounts[a][IdentityPair(truth: r.truth[pair.row], hypothesis: r.hypotheses[pair.column]), default: 0] += 1
                }
            }
        }
        let truthTotal = Double(truthFrames.values.reduce(0, +)), hypothesisTotal = Double(hypothesisFrames.values.reduce(0, +))
        var hota = 0.0, detA = 0.0, assA = 0.0
        for a in alphas.indices {
            let tp = truePositives[a]
            let det = tp / max(1, truthTotal + hypothesisTotal - tp)
            var ass = 0.0
            // Summed in a fixed order so the result does not depend on hashing.
            let pairs = matchCounts[a].sorted { ($0.key.truth, $0.key.hypothesis) < ($1.key.truth, $1.key.hypothesis) }
            for (pair, count) in pairs {
                ass += count * count / ((truthFrames[pair.truth] ?? 0) + (hypothesisFrames[pair.hypothesis] ?? 0) - count)
            }
            ass /= max(1, tp)
            detA += det; assA += ass; hota += (det * ass).squareRoot()
        }
        let n = Double(alphas.count)
        return (hota / n, detA / n, assA / n)
    }

    private static func unique(_ boxes: [IdentifiedBox]) -> [IdentifiedBox] {
        var seen = Set<Int>()
        return boxes.filter { seen.insert($0.id).inserted }
    }
}
