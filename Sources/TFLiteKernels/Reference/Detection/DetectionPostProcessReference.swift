#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Settings of the `TFLite_Detection_PostProcess` custom operator (its FlexBuffer options).
public struct DetectionPostProcessParameters: Equatable, Sendable {
    /// Most boxes in the output.
    public var maxDetections: Int
    /// Classes reported per box by the fast (class-agnostic) NMS.
    public var maxClassesPerDetection: Int
    /// Boxes kept per class by the regular NMS (default 100).
    public var detectionsPerClass: Int
    /// Scores below this never become detections (compared with `>=`).
    public var scoreThreshold: Float
    /// Boxes overlapping a kept box by more than this IoU are suppressed (`>`). Must be in (0, 1].
    public var iouThreshold: Float
    /// Classes without the background class.
    public var numClasses: Int
    /// Box-coder scales for y, x, h, w.
    public var yScale: Float, xScale: Float, hScale: Float, wScale: Float
    /// Class-aware NMS per class (true) or the fast class-agnostic NMS (false, default).
    public var useRegularNMS: Bool

    /// Creates parameters; the defaults are the reference's for absent keys.
    public init(maxDetections: Int, maxClassesPerDetection: Int, detectionsPerClass: Int = 100,
                scoreThreshold: Float, iouThreshold: Float, numClasses: Int,
                yScale: Float, xScale: Float, hScale: Float, wScale: Float, useRegularNMS: Bool = false) {
        self.maxDetections = maxDetections; self.maxClassesPerDetection = maxClassesPerDetection
        self.detectionsPerClass = detectionsPerClass; self.scoreThreshold = scoreThreshold
        self.iouThreshold = iouThreshold; self.numClasses = numClasses
        self.yScale = yScale; self.xScale = xScale; self.hScale = hScale; self.wScale = wScale
        self.useRegularNMS = useRegularNMS
    }

    /// Boxes in each output: `maxDetections * maxClassesPerDetection`.
    public var outputBoxCount: Int { maxDetections * maxClassesPerDetection }
}

/// Why a detection post-process could not run (the reference fails invoke in the same cases).
public enum DetectionPostProcessError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Parameters or shapes the operator cannot work with.
    case invalidArgument(String)
    /// A decoded box has `ymin > ymax` or `xmin > xmax`.
    case invalidDecodedBox(index: Int)

    /// A readable message.
    public var description: String {
        switch self {
        case let .invalidArgument(message): return "TFLite_Detection_PostProcess: \(message)"
        case let .invalidDecodedBox(index):
            return "TFLite_Detection_PostProcess: decoded box \(index) has min > max (bad box encodings or anchors)"
        }
    }
}

/// `TFLite_Detection_PostProcess`: SSD box decoding against anchors, then class-aware
/// ("regular") or class-agnostic ("fast") non-maximum suppression, exactly as the reference
/// kernel (`tensorflow/lite/kernels/detection_postprocess.cc`) computes it:
/// - decoding in double precision, rounded to float; boxes are (ymin, xmin, ymax, xmax);
/// - scores kept when `score >= scoreThreshold`; candidates sorted by a stable descending
///   sort; a box is suppressed when its IoU with a kept box is `> iouThreshold`; the IoU of a
///   box with non-positive area is 0;
/// - the regular NMS keeps `min(detectionsPerClass, maxDetections)` boxes per class and merges
///   classes stably (earlier class first on equal scores); the fast NMS ranks each box's
///   classes with the reference's unstable `std::partial_sort`, reproduced tie for tie
///   (``ReferenceHeapOrder``), or its first maximum for one class per box;
/// - unused output slots are zero (the reference leaves them unwritten in the fast variant).
///
/// The reference runtime splits the regular NMS's classes over its threads when it has more
/// than one, which changes the order of equal scores from different classes; this kernel
/// matches its single-threaded order (the one the golden cases are generated with).
public enum DetectionPostProcessReference {
    /// Decodes center-size encodings against anchors into corner boxes in `workspace.decodedBoxes`.
    ///
    /// - Parameters:
    ///   - encodings: `boxCount` rows of `encodingLength` (≥ 4) values: y, x, h, w, (keypoints...).
    ///   - anchors: `boxCount` rows of 4 values: y, x, h, w.
    ///   - workspace: made for at least `boxCount` anchors; its other views are left alone.
    /// - Precondition: `boxCount ≥ 0`, checked under `LITEVISION_INTERNAL_CHECKS`. Short buffers
    ///   (the workspace's included) and encodings of fewer than 4 values are not preconditions:
    ///   they throw ``DetectionPostProcessError/invalidArgument(_:)``.
    public static func decodeBoxes(encodings: UnsafeBufferPointer<Float>, encodingLength: Int,
                                   anchors: UnsafeBufferPointer<Float>, boxCount: Int,
                                   parameters p: DetectionPostProcessParameters,
                                   into workspace: DetectionPostProcessWorkspace) throws {
        KernelPrecondition.validCount(boxCount, "box count")
        guard encodingLength >= 4 else { throw DetectionPostProcessError.invalidArgument("box encodings need at least 4 values per box") }
        let decoded = workspace.decodedBoxes
        guard encodings.count >= boxCount * encodingLength, anchors.count >= boxCount * 4, decoded.count >= boxCount * 4 else {
            throw DetectionPostProcessError.invalidArgument("box encodings or anchors are smaller than \(boxCount) boxes")
        }
        let ys = Double(p.yScale), xs = Double(p.xScale), hs = Double(p.hScale), ws = Double(p.wScale)
        for i in 0..<boxCount {
            let e = i * encodingLength, a = i * 4
            let ay = Double(anchors[a]), ax = Double(anchors[a + 1]), ah = Double(anchors[a + 2]), aw = Double(anchors[a + 3])
            let yCenter = Float(Double(encodings[e]) / ys * ah + ay)
            let xCenter = Float(Double(encodings[e + 1]) / xs * aw + ax)
            let halfH = Float(0.5 * exp(Double(encodings[e + 2]) / hs) * ah)
            let halfW = Float(0.5 * exp(Double(encodings[e + 3]) / ws) * aw)
            decoded[i * 4] = yCenter - halfH
            decoded[i * 4 + 1] = xCenter - halfW
            decoded[i * 4 + 2] = yCenter + halfH
            decoded[i * 4 + 3] = xCenter + halfW
        }
    }

    /// Runs NMS on `workspace.decodedBoxes` (written by ``decodeBoxes(encodings:encodingLength:anchors:boxCount:parameters:into:)``)
    /// and `classScores`, and writes the outputs.
    ///
    /// - Parameters:
    ///   - classScores: `boxCount` rows of `classesWithBackground` float scores (the input,
    ///     dequantized when it is quantized).
    ///   - boxCount: anchors.
    ///   - classesWithBackground: score columns per anchor (`numClasses` or `numClasses + 1`;
    ///     with one extra column, column 0 is the background and is skipped).
    ///   - workspace: the decoded boxes and the scratch of the suppression, whose other views
    ///     may hold anything (they are written before they are read).
    ///   - boxes: `outputBoxCount * 4` floats; `classes`, `scores`: `outputBoxCount` floats.
    /// - Returns: the number of detections (also the value of the fourth output).
    /// - Precondition: `boxCount ≥ 0`, and `workspace` made for at least `boxCount` anchors
    ///   and these parameters (``DetectionPostProcessWorkspace/init(memory:boxCount:parameters:)``);
    ///   both checked under `LITEVISION_INTERNAL_CHECKS`, the workspace once the arguments passed
    ///   the checks that throw (`DetectionPostProcessWorkspace.violation`). Parameters the operator cannot work
    ///   with and short score, output or decoded-box buffers are not preconditions: they throw
    ///   ``DetectionPostProcessError/invalidArgument(_:)``.
    public static func suppress(classScores: UnsafeBufferPointer<Float>, boxCount: Int, classesWithBackground: Int,
                                parameters p: DetectionPostProcessParameters, workspace w: DetectionPostProcessWorkspace,
                                boxes: UnsafeMutableBufferPointer<Float>, classes: UnsafeMutableBufferPointer<Float>,
                                scores: UnsafeMutableBufferPointer<Float>) throws -> Int {
        KernelPrecondition.validCount(boxCount, "box count")
        let labelOffset = classesWithBackground - p.numClasses
        guard p.numClasses >= 0, labelOffset >= 0, labelOffset <= 1 else {
            throw DetectionPostProcessError.invalidArgument(
                "num_classes \(p.numClasses) does not fit \(classesWithBackground) score columns")
        }
        guard p.maxDetections >= 0, p.maxClassesPerDetection >= 0 else {
            throw DetectionPostProcessError.invalidArgument("max_detections and max_classes_per_detection must not be negative")
        }
        let outputCount = p.outputBoxCount
        guard boxes.count >= outputCount * 4, classes.count >= outputCount, scores.count >= outputCount,
              classScores.count >= boxCount * classesWithBackground, w.decodedBoxes.count >= boxCount * 4 else {
            throw DetectionPostProcessError.invalidArgument("score, output or scratch buffers are too small")
        }
        KernelPrecondition.holds(w.violation(boxCount: boxCount, parameters: p))
        for i in 0..<outputCount * 4 { boxes[i] = 0 }
        for i in 0..<outputCount { classes[i] = 0; scores[i] = 0 }
        if p.useRegularNMS {
            return try regular(classScores, boxCount: boxCount, columns: classesWithBackground, labelOffset: labelOffset, p,
                               w, boxes, classes, scores)
        }
        return try fast(classScores, boxCount: boxCount, columns: classesWithBackground, labelOffset: labelOffset, p,
                        w, boxes, classes, scores)
    }

    // MARK: - NMS

    /// IoU of decoded boxes `i` and `j`, in float, in the reference's operation order.
    static func intersectionOverUnion(_ b: UnsafeMutableBufferPointer<Float>, _ i: Int, _ j: Int) -> Float {
        let iy0 = b[i * 4], ix0 = b[i * 4 + 1], iy1 = b[i * 4 + 2], ix1 = b[i * 4 + 3]
        let jy0 = b[j * 4], jx0 = b[j * 4 + 1], jy1 = b[j * 4 + 2], jx1 = b[j * 4 + 3]
        let areaI = (iy1 - iy0) * (ix1 - ix0)
        let areaJ = (jy1 - jy0) * (jx1 - jx0)
        if areaI <= 0 || areaJ <= 0 { return 0 }
        let top = max(iy0, jy0), left = max(ix0, jx0)
        let bottom = min(iy1, jy1), right = min(ix1, jx1)
        let intersection = max(bottom - top, 0) * max(right - left, 0)
        return intersection / (areaI + areaJ - intersection)
    }

    /// Single-class NMS over `w.anchorScores` (one score per anchor).
    /// - Returns: how many anchors it selected, which are `w.selected[0 ..< count]`.
    static func suppressSingleClass(boxCount: Int, maxDetections: Int, _ p: DetectionPostProcessParameters,
                                    _ w: DetectionPostProcessWorkspace) throws -> Int {
        guard maxDetections >= 0 else { throw DetectionPostProcessError.invalidArgument("max detections must not be negative") }
        guard p.iouThreshold > 0, p.iouThreshold <= 1 else {
            throw DetectionPostProcessError.invalidArgument("nms_iou_threshold \(p.iouThreshold) is outside (0, 1]")
        }
        let boxes = w.decodedBoxes, values = w.anchorScores
        for i in 0..<boxCount where boxes[i * 4] > boxes[i * 4 + 2] || boxes[i * 4 + 1] > boxes[i * 4 + 3] {
            throw DetectionPostProcessError.invalidDecodedBox(index: i)
        }
        var kept = 0
        for i in 0..<boxCount where values[i] >= p.scoreThreshold {
            w.keepScores[kept] = values[i]
            w.keepIndices[kept] = i
            kept += 1
        }
        for i in 0..<kept { w.sortedIndices[i] = i }
        sortDescending(w.sortedIndices, count: kept, by: w.keepScores)

        let outputSize = min(kept, maxDetections)
        var selected = 0
        for i in 0..<kept { w.active[i] = true }
        var activeCount = kept
        for i in 0..<kept {
            if activeCount == 0 || selected >= outputSize { break }
            guard w.active[i] else { continue }
            let anchor = w.keepIndices[w.sortedIndices[i]]
            w.selected[selected] = anchor
            selected += 1
            w.active[i] = false
            activeCount -= 1
            for j in (i + 1)..<max(i + 1, kept) where w.active[j] {
                let iou = intersectionOverUnion(boxes, anchor, w.keepIndices[w.sortedIndices[j]])
                if iou > p.iouThreshold {
                    w.active[j] = false
                    activeCount -= 1
                }
            }
        }
        return selected
    }

    /// Sorts `indices[0 ..< count]` by `values[index]`, larger first, equal values in ascending
    /// index order: the order of the reference's `std::stable_sort` of ascending indices.
    /// The order is total (the indices differ, and the values passed the score threshold, so
    /// none is NaN), so any correct sort gives it; the in-place heap sort needs no memory.
    static func sortDescending(_ indices: UnsafeMutableBufferPointer<Int>, count: Int, by values: UnsafeMutableBufferPointer<Float>) {
        var indices = indices
        ReferenceHeapOrder.partialSort(&indices, middle: count, count: count) { a, b in
            let va = values[a], vb = values[b]
            if va > vb { return true }
            if vb > va { return false }
            return a < b
        }
    }

    /// `DecreasingPartialArgSort`: `order[base ..< base + toSort]` become the indices of the
    /// largest `values[0..<count]`, in the reference's order (first maximum for one entry).
    /// - Precondition: `1 ≤ toSort ≤ count ≤ values.count`, `scratch.count ≥ count`, `base ≥ 0`,
    ///   and `order` holds `base + toSort` entries. Checked under `LITEVISION_INTERNAL_CHECKS`
    ///   (tuned builds drop the buffers' own bounds checks).
    static func decreasingPartialArgSort(_ values: UnsafeBufferPointer<Float>, count: Int, toSort: Int,
                                         order: UnsafeMutableBufferPointer<Int>, base: Int,
                                         scratch: UnsafeMutableBufferPointer<Int>) {
        KernelPrecondition.check(toSort >= 1 && toSort <= count && count <= values.count && scratch.count >= count
                                 && base >= 0 && order.count >= base + toSort,
                                 "arg sort of \(toSort) of \(count) values (\(values.count)) into \(order.count) at \(base), scratch \(scratch.count)")
        if toSort == 1 {
            var best = 0
            for i in 1..<max(1, count) where values[i] > values[best] { best = i }
            order[base] = best
            return
        }
        var scratch = scratch
        for i in 0..<count { scratch[i] = i }
        ReferenceHeapOrder.partialSort(&scratch, middle: toSort, count: count) { values[$0] > values[$1] }
        for i in 0..<toSort { order[base + i] = scratch[i] }
    }

    /// Regular NMS: per class, single-class NMS keeping at most
    /// `min(detectionsPerClass, maxDetections)` boxes, stably merged (earlier classes first
    /// among equal scores, like `std::inplace_merge`) into the running top `maxDetections`.
    private static func regular(_ all: UnsafeBufferPointer<Float>, boxCount: Int, columns: Int, labelOffset: Int,
                                _ p: DetectionPostProcessParameters, _ w: DetectionPostProcessWorkspace,
                                _ boxes: UnsafeMutableBufferPointer<Float>, _ classes: UnsafeMutableBufferPointer<Float>,
                                _ scores: UnsafeMutableBufferPointer<Float>) throws -> Int {
        let perClass = min(p.detectionsPerClass, p.maxDetections)
        guard perClass > 0 else {
            throw DetectionPostProcessError.invalidArgument("min(detections_per_class, max_detections) must be positive")
        }
        let classScores = w.anchorScores
        var sortedCount = 0
        for column in 0..<p.numClasses {
            for row in 0..<boxCount { classScores[row] = all[row * columns + column + labelOffset] }
            let newCount = try suppressSingleClass(boxCount: boxCount, maxDetections: perClass, p, w)
            if newCount == 0 { continue }
            // Stable merge of the kept list [0, sortedCount) with this class's selections
            // (already in descending score order).
            var a = 0, b = 0, out = 0
            while a < sortedCount || b < newCount {
                let takeNew: Bool
                if a == sortedCount { takeNew = true } else if b == newCount { takeNew = false } else {
                    takeNew = classScores[w.selected[b]] > w.mergedScores[a]
                }
                if takeNew {
                    let anchor = w.selected[b]
                    w.mergeOrder[out] = anchor * columns + column + labelOffset
                    w.mergeScores[out] = classScores[anchor]
                    b += 1
                } else {
                    w.mergeOrder[out] = w.mergedIndices[a]
                    w.mergeScores[out] = w.mergedScores[a]
                    a += 1
                }
                out += 1
            }
            sortedCount = min(out, p.maxDetections)
            for k in 0..<sortedCount {
                w.mergedIndices[k] = w.mergeOrder[k]
                w.mergedScores[k] = w.mergeScores[k]
            }
        }
        for k in 0..<sortedCount {
            let flat = w.mergedIndices[k]
            let anchor = flat / columns
            let classIndex = flat - anchor * columns - labelOffset
            for c in 0..<4 { boxes[k * 4 + c] = w.decodedBoxes[anchor * 4 + c] }
            classes[k] = Float(classIndex)
            scores[k] = w.mergedScores[k]
        }
        return sortedCount
    }

    /// Fast NMS: each anchor's best classes ranked, one single-class NMS over each anchor's
    /// best score, then every selected anchor reported with its ranked classes.
    private static func fast(_ all: UnsafeBufferPointer<Float>, boxCount: Int, columns: Int, labelOffset: Int,
                             _ p: DetectionPostProcessParameters, _ w: DetectionPostProcessWorkspace,
                             _ boxes: UnsafeMutableBufferPointer<Float>, _ classes: UnsafeMutableBufferPointer<Float>,
                             _ scores: UnsafeMutableBufferPointer<Float>) throws -> Int {
        guard p.maxClassesPerDetection > 0 else {
            throw DetectionPostProcessError.invalidArgument("max_classes_per_detection must be positive")
        }
        guard p.numClasses > 0 else { throw DetectionPostProcessError.invalidArgument("num_classes must be positive") }
        let perAnchor = DetectionPostProcessWorkspace.classesPerAnchor(p)
        for row in 0..<boxCount {
            let rowScores = UnsafeBufferPointer(rebasing: all[(row * columns + labelOffset)..<(row * columns + labelOffset + p.numClasses)])
            decreasingPartialArgSort(rowScores, count: p.numClasses, toSort: perAnchor,
                                     order: w.rankedClasses, base: row * perAnchor, scratch: w.rowOrder)
            w.anchorScores[row] = rowScores[w.rankedClasses[row * perAnchor]]
        }
        let selected = try suppressSingleClass(boxCount: boxCount, maxDetections: p.maxDetections, p, w)
        for outputBox in 0..<selected {
            let anchor = w.selected[outputBox]
            for column in 0..<perAnchor {
                let slot = p.maxClassesPerDetection * outputBox + column
                let classIndex = w.rankedClasses[anchor * perAnchor + column]
                for c in 0..<4 { boxes[slot * 4 + c] = w.decodedBoxes[anchor * 4 + c] }
                classes[slot] = Float(classIndex)
                scores[slot] = all[anchor * columns + labelOffset + classIndex]
            }
        }
        return selected
    }
}
