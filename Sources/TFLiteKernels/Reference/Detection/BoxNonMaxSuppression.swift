#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A scored, classed axis-aligned box for non-maximum suppression outside a model graph
/// (YOLO raw outputs, BlazeFace anchors). Coordinates may be pixels or normalized; corners
/// given in either order are normalized by ``BoxNonMaxSuppression/intersectionOverUnion(_:_:)``.
public struct ScoredBox: Hashable, Sendable {
    /// Left edge.
    public var minX: Float
    /// Top edge.
    public var minY: Float
    /// Right edge.
    public var maxX: Float
    /// Bottom edge.
    public var maxY: Float
    /// Confidence.
    public var score: Float
    /// Class index (ignored by class-agnostic suppression).
    public var classIndex: Int

    /// Creates a box from its corners.
    public init(minX: Float, minY: Float, maxX: Float, maxY: Float, score: Float, classIndex: Int = 0) {
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
        self.score = score; self.classIndex = classIndex
    }

    /// Creates a box from its center and size (YOLO's `cx, cy, w, h`).
    public init(centerX: Float, centerY: Float, width: Float, height: Float, score: Float, classIndex: Int = 0) {
        self.init(minX: centerX - width / 2, minY: centerY - height / 2, maxX: centerX + width / 2,
                  maxY: centerY + height / 2, score: score, classIndex: classIndex)
    }
}

/// How soft NMS decays the scores of boxes that overlap a selected box.
public enum SoftSuppressionMethod: Hashable, Sendable {
    /// `score *= exp(-iou² / sigma)` for every overlap (Bodla et al. 2017).
    case gaussian(sigma: Float)
    /// `score *= 1 - iou` when `iou > threshold`, unchanged otherwise.
    case linear(threshold: Float)
}

/// One box kept by soft NMS, with its decayed score.
public struct SoftSuppressionSelection: Hashable, Sendable {
    /// Index into the input array.
    public var index: Int
    /// Score after decay.
    public var score: Float
}

/// Non-maximum suppression on ``ScoredBox`` arrays: hard (greedy) and soft, class-aware or
/// class-agnostic. Pure functions; deterministic (equal scores: lower input index first).
/// Boxes with a non-finite score or coordinates never survive.
public enum BoxNonMaxSuppression {
    /// IoU in [0, 1]; 0 when either box has no area.
    public static func intersectionOverUnion(_ a: ScoredBox, _ b: ScoredBox) -> Float {
        let ax0 = min(a.minX, a.maxX), ax1 = max(a.minX, a.maxX), ay0 = min(a.minY, a.maxY), ay1 = max(a.minY, a.maxY)
        let bx0 = min(b.minX, b.maxX), bx1 = max(b.minX, b.maxX), by0 = min(b.minY, b.maxY), by1 = max(b.minY, b.maxY)
        let areaA = (ax1 - ax0) * (ay1 - ay0), areaB = (bx1 - bx0) * (by1 - by0)
        guard areaA > 0, areaB > 0 else { return 0 }
        let intersection = max(min(ax1, bx1) - max(ax0, bx0), 0) * max(min(ay1, by1) - max(ay0, by0), 0)
        let union = areaA + areaB - intersection
        return union > 0 ? intersection / union : 0
    }

    private static func isUsable(_ box: ScoredBox, scoreThreshold: Float) -> Bool {
        box.score.isFinite && box.minX.isFinite && box.minY.isFinite && box.maxX.isFinite && box.maxY.isFinite
            && box.score >= scoreThreshold
    }

    /// Greedy hard NMS.
    ///
    /// Boxes scoring at least `scoreThreshold` are visited from the highest score down; a box is
    /// kept unless its IoU with an already kept box (of the same class, when `classAware`) is
    /// greater than `iouThreshold`.
    /// - Returns: indices of the kept boxes, highest score first, at most `maxOutputs`.
    /// - Precondition: none. Every argument value is defined (`maxOutputs ≤ 0` keeps nothing,
    ///   any threshold compares as stated, non-finite boxes are dropped) and the function only
    ///   indexes `boxes` by its own indices, so there is nothing to check.
    /// - Complexity: O(n log n + n·k) for n candidates and k kept boxes.
    public static func hard(_ boxes: [ScoredBox], iouThreshold: Float, scoreThreshold: Float = -.infinity,
                            maxOutputs: Int = .max, classAware: Bool = true) -> [Int] {
        guard maxOutputs > 0 else { return [] }
        let order = boxes.indices.filter { isUsable(boxes[$0], scoreThreshold: scoreThreshold) }.sorted { a, b in
            boxes[a].score != boxes[b].score ? boxes[a].score > boxes[b].score : a < b
        }
        var kept: [Int] = []
        for candidate in order {
            let box = boxes[candidate]
            let suppressed = kept.contains { k in
                (!classAware || boxes[k].classIndex == box.classIndex) && intersectionOverUnion(boxes[k], box) > iouThreshold
            }
            if !suppressed {
                kept.append(candidate)
                if kept.count == maxOutputs { break }
            }
        }
        return kept
    }

    /// Soft NMS: repeatedly keeps the highest-scoring remaining box and decays the scores of
    /// the remaining boxes (of the same class, when `classAware`) that overlap it; boxes whose
    /// score falls below `scoreThreshold` are dropped.
    /// - Returns: kept boxes in selection order (non-increasing decayed score), at most `maxOutputs`.
    /// - Precondition: none, as for ``hard(_:iouThreshold:scoreThreshold:maxOutputs:classAware:)``
    ///   (a Gaussian `sigma ≤ 0` sets the score of every overlapping box to 0 instead of dividing by it).
    /// - Complexity: O(n²).
    public static func soft(_ boxes: [ScoredBox], method: SoftSuppressionMethod, scoreThreshold: Float = 0.001,
                            maxOutputs: Int = .max, classAware: Bool = true) -> [SoftSuppressionSelection] {
        var remaining = boxes.indices.filter { isUsable(boxes[$0], scoreThreshold: scoreThreshold) }
        var scores = boxes.map(\.score)
        var kept: [SoftSuppressionSelection] = []
        while !remaining.isEmpty && kept.count < maxOutputs {
            var bestPosition = 0
            for p in 1..<max(1, remaining.count) {
                let s = scores[remaining[p]], best = scores[remaining[bestPosition]]
                if s > best || (s == best && remaining[p] < remaining[bestPosition]) { bestPosition = p }
            }
            let chosen = remaining.remove(at: bestPosition)
            kept.append(SoftSuppressionSelection(index: chosen, score: scores[chosen]))
            remaining.removeAll { other in
                if classAware && boxes[other].classIndex != boxes[chosen].classIndex { return false }
                let iou = intersectionOverUnion(boxes[chosen], boxes[other])
                switch method {
                case let .gaussian(sigma):
                    if sigma > 0 { scores[other] *= expf(-(iou * iou) / sigma) } else if iou > 0 { scores[other] = 0 }
                case let .linear(threshold):
                    if iou > threshold { scores[other] *= 1 - iou }
                }
                return !(scores[other] >= scoreThreshold)
            }
        }
        return kept
    }
}
