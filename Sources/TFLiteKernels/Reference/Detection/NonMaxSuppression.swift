#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `NON_MAX_SUPPRESSION_V4` (hard) and `NON_MAX_SUPPRESSION_V5` (soft, Gaussian) on float
/// boxes, as the reference kernel (`reference_ops::NonMaxSuppression`) computes them.
///
/// Boxes are `[y1, x1, y2, x2]` with corners in any order. Candidates with
/// `score > scoreThreshold` enter a priority queue (ties resolved by the reference's
/// `std::priority_queue` moves, see ``ReferenceHeapOrder``). A candidate is dropped when its
/// IoU with a selected box is `>= iouThreshold`; with `softNMSSigma > 0` its score is
/// multiplied by `exp(-0.5 / sigma * iou²)` for each earlier selection, and it is selected
/// only when its score was not decayed since it was queued (otherwise it is re-queued while
/// the decayed score stays `> scoreThreshold`).
///
/// Reference quirk, reproduced on purpose: a selected candidate is queued again; normally it
/// then suppresses itself (IoU 1), but a zero-area box has IoU 0 with everything and is
/// selected repeatedly until `maxOutputSize` is reached (the `nms_v4` golden case shows it).
public enum NonMaxSuppressionReference {
    private struct Candidate {
        var index: Int
        var score: Float
        var suppressBeginIndex: Int
    }

    /// Bytes of the candidate queue per box: ``run(boxes:scores:boxCount:maxOutputSize:iouThreshold:scoreThreshold:softNMSSigma:selectedIndices:selectedScores:queue:)``
    /// takes `boxCount` times this, 8-byte aligned, from its caller.
    public static var scratchBytesPerBox: Int { MemoryLayout<Candidate>.stride }

    /// IoU of boxes `i` and `j` of `boxes` (4 floats each), in float, reference operation order.
    static func intersectionOverUnion(_ boxes: UnsafeBufferPointer<Float>, _ i: Int, _ j: Int) -> Float {
        let a = i * 4, b = j * 4
        let ay0 = min(boxes[a], boxes[a + 2]), ay1 = max(boxes[a], boxes[a + 2])
        let ax0 = min(boxes[a + 1], boxes[a + 3]), ax1 = max(boxes[a + 1], boxes[a + 3])
        let by0 = min(boxes[b], boxes[b + 2]), by1 = max(boxes[b], boxes[b + 2])
        let bx0 = min(boxes[b + 1], boxes[b + 3]), bx1 = max(boxes[b + 1], boxes[b + 3])
        let areaA = (ay1 - ay0) * (ax1 - ax0)
        let areaB = (by1 - by0) * (bx1 - bx0)
        if areaA <= 0 || areaB <= 0 { return 0 }
        let intersection = max(min(ay1, by1) - max(ay0, by0), 0) * max(min(ax1, bx1) - max(ax0, bx0), 0)
        let union = areaA + areaB - intersection
        if union == 0 { return 0 }
        return intersection / union
    }

    /// Runs NMS.
    ///
    /// - Parameters:
    ///   - boxes: `boxCount * 4` floats.
    ///   - scores: `boxCount` floats.
    ///   - maxOutputSize: most selections (≥ 0).
    ///   - selectedIndices: receives the selected box indices (at least `maxOutputSize` long);
    ///     slots after the last selection are set to 0.
    ///   - selectedScores: when given, receives the (possibly decayed) scores; unused slots 0.
    ///   - queue: the candidate queue's memory, `boxCount × scratchBytesPerBox` bytes, 8-byte
    ///     aligned (the caller's scratch; the kernel allocates nothing).
    /// - Returns: the number of selected boxes.
    /// - Precondition: `boxCount ≥ 0`, checked under `LITEVISION_INTERNAL_CHECKS`. Buffers
    ///   shorter than stated are not a precondition: the kernel then selects nothing, and writes
    ///   at most as many selections as the output buffers hold.
    public static func run(boxes: UnsafeBufferPointer<Float>, scores: UnsafeBufferPointer<Float>, boxCount: Int,
                           maxOutputSize: Int, iouThreshold: Float, scoreThreshold: Float, softNMSSigma: Float,
                           selectedIndices: UnsafeMutableBufferPointer<Int32>,
                           selectedScores: UnsafeMutableBufferPointer<Float>?, queue memory: UnsafeMutableRawBufferPointer) -> Int {
        KernelPrecondition.validCount(boxCount, "box count")
        let limit = max(0, min(maxOutputSize, selectedIndices.count, selectedScores?.count ?? Int.max))
        guard boxes.count >= boxCount * 4, scores.count >= boxCount,
              memory.count >= boxCount * scratchBytesPerBox,
              Int(bitPattern: memory.baseAddress) % MemoryLayout<Candidate>.alignment == 0 else { return 0 }
        let storage = UnsafeMutableBufferPointer(
            start: memory.baseAddress?.bindMemory(to: Candidate.self, capacity: boxCount), count: boxCount)
        // Every pop precedes a push again, so the queue never holds more than the first pushes.
        var queue = ReferencePriorityQueue<Candidate>(precedes: { $0.score < $1.score }, storage: storage)
        for i in 0..<boxCount where scores[i] > scoreThreshold {
            queue.push(Candidate(index: i, score: scores[i], suppressBeginIndex: 0))
        }
        var selected = 0
        let outputs = min(queue.count, limit)
        let scale: Float = softNMSSigma > 0 ? -0.5 / softNMSSigma : 0
        while selected < outputs, var candidate = queue.top {
            let original = candidate.score
            queue.pop()
            var hardSuppress = false
            var j = selected - 1
            while j >= candidate.suppressBeginIndex {
                let iou = intersectionOverUnion(boxes, candidate.index, Int(selectedIndices[j]))
                if iou >= iouThreshold { hardSuppress = true; break }
                if softNMSSigma > 0 { candidate.score = candidate.score * expf(scale * iou * iou) }
                if candidate.score <= scoreThreshold { break }
                j -= 1
            }
            candidate.suppressBeginIndex = selected
            if !hardSuppress {
                if candidate.score == original {
                    selectedIndices[selected] = Int32(truncatingIfNeeded: candidate.index)
                    selectedScores?[selected] = candidate.score
                    selected += 1
                }
                if candidate.score > scoreThreshold { queue.push(candidate) }
            }
        }
        for k in selected..<max(selected, limit) {
            selectedIndices[k] = 0
            selectedScores?[k] = 0
        }
        return selected
    }
}
