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

/// Scratch memory for ``DetectionPostProcessReference``, sized once so a run allocates nothing.
public struct DetectionPostProcessWorkspace: Sendable {
    /// Decoded boxes, 4 floats (ymin, xmin, ymax, xmax) per anchor.
    public var decodedBoxes: [Float]
    /// Float scores, `boxCount * classesWithBackground` (dequantized when the input is quantized).
    public var scores: [Float]
    /// Float box encodings / anchors when the inputs are quantized.
    public var encodings: [Float]
    public var anchors: [Float]
    var classScores: [Float]
    var keepScores: [Float]
    var keepIndices: [Int]
    var sortedIndices: [Int]
    var active: [Bool]
    var selected: [Int]
    var mergedIndices: [Int]
    var mergedScores: [Float]
    var mergeOrder: [Int]
    var sortedValues: [Float]
    var maxScores: [Float]
    var sortedClassIndices: [Int]
    var rowOrder: [Int]

    /// The bytes ``init(boxCount:encodingLength:classesWithBackground:parameters:)`` allocates
    /// for the same arguments (element storage, not the arrays' headers), saturating at
    /// `Int.max` instead of overflowing: callers count it against their memory policy first.
    public static func byteCount(boxCount: Int, encodingLength: Int, classesWithBackground: Int,
                                 parameters p: DetectionPostProcessParameters) -> Int {
        let n = max(0, boxCount), k = max(0, classesWithBackground), maxDet = max(0, p.maxDetections)
        let float = MemoryLayout<Float>.stride, int = MemoryLayout<Int>.stride, bool = MemoryLayout<Bool>.stride
        // (element count, element size) of every array the initializer sizes.
        let parts: [(Int, Int, Int)] = [
            (n, 4, float), (n, k, float), (n, max(4, encodingLength), float), (n, 4, float), (n, 1, float),
            (n, 1, float), (n, 1, int), (n, 1, int), (n, 1, bool), (n, 1, int),
            (maxDet, 1, int), (maxDet, 1, float), (maxDet, 2, int), (maxDet, 2, float), (n, 1, float),
            (n, max(0, p.numClasses), int), (max(0, p.numClasses), 1, int),
        ]
        var total = 0
        for (a, b, size) in parts {
            let (count, o1) = a.multipliedReportingOverflow(by: b)
            let (bytes, o2) = count.multipliedReportingOverflow(by: size)
            let (sum, o3) = total.addingReportingOverflow(bytes)
            guard !o1, !o2, !o3 else { return Int.max }
            total = sum
        }
        return total
    }

    /// The contract between a workspace and a run of
    /// ``DetectionPostProcessReference/suppress(boxCount:classesWithBackground:parameters:workspace:boxes:classes:scores:)``:
    /// the internal arrays the suppression indexes without further checks hold what `boxCount`
    /// anchors with `classesWithBackground` score columns and `p` need — as the initializer with
    /// the same arguments (or larger ones) sizes them.
    /// - Returns: nil when the workspace fits, else what is too small.
    func violation(boxCount: Int, classesWithBackground: Int, parameters p: DetectionPostProcessParameters) -> String? {
        let n = max(0, boxCount), classes = max(0, p.numClasses), maxDet = max(0, p.maxDetections)
        if decodedBoxes.count < 4 * n || scores.count < n * max(0, classesWithBackground) || classScores.count < n
            || maxScores.count < n || sortedClassIndices.count < n * classes || rowOrder.count < classes {
            return "detection workspace smaller than \(boxCount) anchors of \(classesWithBackground) columns, \(p.numClasses) classes"
        }
        if mergedIndices.count < maxDet || mergedScores.count < maxDet || mergeOrder.count < 2 * maxDet
            || sortedValues.count < 2 * maxDet {
            return "detection workspace smaller than \(p.maxDetections) detections"
        }
        return nil
    }

    /// Scratch for `boxCount` anchors with `encodingLength` values each and `classesWithBackground` scores.
    public init(boxCount: Int, encodingLength: Int, classesWithBackground: Int, parameters p: DetectionPostProcessParameters) {
        let n = max(0, boxCount), k = max(0, classesWithBackground), maxDet = max(0, p.maxDetections)
        decodedBoxes = [Float](repeating: 0, count: n * 4)
        scores = [Float](repeating: 0, count: n * k)
        encodings = [Float](repeating: 0, count: n * max(4, encodingLength))
        anchors = [Float](repeating: 0, count: n * 4)
        classScores = [Float](repeating: 0, count: n)
        keepScores = []; keepScores.reserveCapacity(n)
        keepIndices = []; keepIndices.reserveCapacity(n)
        sortedIndices = []; sortedIndices.reserveCapacity(n)
        active = []; active.reserveCapacity(n)
        selected = []; selected.reserveCapacity(n)
        mergedIndices = [Int](repeating: 0, count: maxDet)
        mergedScores = [Float](repeating: 0, count: maxDet)
        mergeOrder = [Int](repeating: 0, count: 2 * maxDet)
        sortedValues = [Float](repeating: 0, count: 2 * maxDet)
        maxScores = [Float](repeating: 0, count: n)
        sortedClassIndices = [Int](repeating: 0, count: n * max(0, p.numClasses))
        rowOrder = [Int](repeating: 0, count: max(0, p.numClasses))
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
    /// - Precondition: `boxCount ≥ 0`, checked under `LITEVISION_INTERNAL_CHECKS`. Short buffers
    ///   and encodings of fewer than 4 values are not preconditions: they throw
    ///   ``DetectionPostProcessError/invalidArgument(_:)``.
    public static func decodeBoxes(encodings: UnsafeBufferPointer<Float>, encodingLength: Int,
                                   anchors: UnsafeBufferPointer<Float>, boxCount: Int,
                                   parameters p: DetectionPostProcessParameters,
                                   into workspace: inout DetectionPostProcessWorkspace) throws {
        KernelPrecondition.validCount(boxCount, "box count")
        guard encodingLength >= 4 else { throw DetectionPostProcessError.invalidArgument("box encodings need at least 4 values per box") }
        guard encodings.count >= boxCount * encodingLength, anchors.count >= boxCount * 4,
              workspace.decodedBoxes.count >= boxCount * 4 else {
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
            workspace.decodedBoxes[i * 4] = yCenter - halfH
            workspace.decodedBoxes[i * 4 + 1] = xCenter - halfW
            workspace.decodedBoxes[i * 4 + 2] = yCenter + halfH
            workspace.decodedBoxes[i * 4 + 3] = xCenter + halfW
        }
    }

    /// Runs NMS on `workspace.decodedBoxes` and `workspace.scores` and writes the outputs.
    ///
    /// - Parameters:
    ///   - boxCount: anchors.
    ///   - classesWithBackground: score columns per anchor (`numClasses` or `numClasses + 1`;
    ///     with one extra column, column 0 is the background and is skipped).
    ///   - boxes: `outputBoxCount * 4` floats; `classes`, `scores`: `outputBoxCount` floats.
    /// - Returns: the number of detections (also the value of the fourth output).
    /// - Precondition: `boxCount ≥ 0`, and `workspace` made for at least `boxCount` anchors with
    ///   these `classesWithBackground` and parameters
    ///   (``DetectionPostProcessWorkspace/init(boxCount:encodingLength:classesWithBackground:parameters:)``);
    ///   both checked under `LITEVISION_INTERNAL_CHECKS`, the workspace once the arguments passed
    ///   the checks that throw (`DetectionPostProcessWorkspace.violation`). Parameters the operator cannot work
    ///   with and short output buffers are not preconditions: they throw
    ///   ``DetectionPostProcessError/invalidArgument(_:)``.
    public static func suppress(boxCount: Int, classesWithBackground: Int, parameters p: DetectionPostProcessParameters,
                                workspace w: inout DetectionPostProcessWorkspace,
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
              w.scores.count >= boxCount * classesWithBackground, w.decodedBoxes.count >= boxCount * 4 else {
            throw DetectionPostProcessError.invalidArgument("output or scratch buffers are too small")
        }
        KernelPrecondition.holds(w.violation(boxCount: boxCount, classesWithBackground: classesWithBackground, parameters: p))
        for i in 0..<outputCount * 4 { boxes[i] = 0 }
        for i in 0..<outputCount { classes[i] = 0; scores[i] = 0 }
        if p.useRegularNMS {
            return try regular(boxCount: boxCount, columns: classesWithBackground, labelOffset: labelOffset, p,
                               &w, boxes, classes, scores)
        }
        return try fast(boxCount: boxCount, columns: classesWithBackground, labelOffset: labelOffset, p,
                        &w, boxes, classes, scores)
    }

    // MARK: - NMS

    /// IoU of decoded boxes `i` and `j`, in float, in the reference's operation order.
    static func intersectionOverUnion(_ b: [Float], _ i: Int, _ j: Int) -> Float {
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

    /// Single-class NMS over `values` (one score per anchor); selected anchors go to `w.selected`.
    static func suppressSingleClass(values: [Float], boxCount: Int, maxDetections: Int,
                                    _ p: DetectionPostProcessParameters, _ w: inout DetectionPostProcessWorkspace) throws {
        guard maxDetections >= 0 else { throw DetectionPostProcessError.invalidArgument("max detections must not be negative") }
        guard p.iouThreshold > 0, p.iouThreshold <= 1 else {
            throw DetectionPostProcessError.invalidArgument("nms_iou_threshold \(p.iouThreshold) is outside (0, 1]")
        }
        for i in 0..<boxCount where w.decodedBoxes[i * 4] > w.decodedBoxes[i * 4 + 2] || w.decodedBoxes[i * 4 + 1] > w.decodedBoxes[i * 4 + 3] {
            throw DetectionPostProcessError.invalidDecodedBox(index: i)
        }
        w.keepScores.removeAll(keepingCapacity: true)
        w.keepIndices.removeAll(keepingCapacity: true)
        for i in 0..<boxCount where values[i] >= p.scoreThreshold {
            w.keepScores.append(values[i])
            w.keepIndices.append(i)
        }
        // Stable descending sort of the kept scores (ties keep anchor order).
        w.sortedIndices.removeAll(keepingCapacity: true)
        for i in 0..<w.keepScores.count { w.sortedIndices.append(i) }
        let keepScores = w.keepScores
        stableSortDescending(&w.sortedIndices, by: keepScores)

        let kept = w.keepScores.count
        let outputSize = min(kept, maxDetections)
        w.selected.removeAll(keepingCapacity: true)
        w.active.removeAll(keepingCapacity: true)
        for _ in 0..<kept { w.active.append(true) }
        var activeCount = kept
        for i in 0..<kept {
            if activeCount == 0 || w.selected.count >= outputSize { break }
            guard w.active[i] else { continue }
            let anchor = w.keepIndices[w.sortedIndices[i]]
            w.selected.append(anchor)
            w.active[i] = false
            activeCount -= 1
            for j in (i + 1)..<max(i + 1, kept) where w.active[j] {
                let iou = intersectionOverUnion(w.decodedBoxes, anchor, w.keepIndices[w.sortedIndices[j]])
                if iou > p.iouThreshold {
                    w.active[j] = false
                    activeCount -= 1
                }
            }
        }
    }

    /// Stable sort of `indices` by `values[index]`, larger first (`std::stable_sort`): equal
    /// values keep their positions' order.
    static func stableSortDescending(_ indices: inout [Int], by values: [Float]) {
        // Swift's sort is not guaranteed stable; ordering by (value desc, index asc) is
        // equivalent because the indices start out ascending.
        indices.sort { a, b in
            let va = values[a], vb = values[b]
            if va > vb { return true }
            if vb > va { return false }
            return a < b
        }
    }

    /// `DecreasingPartialArgSort`: the first `toSort` entries of `order` become the indices of
    /// the largest `values[0..<count]`, in the reference's order (first maximum for one entry).
    /// - Precondition: `1 ≤ toSort ≤ count ≤ values.count`, `scratch.count ≥ count`, `base ≥ 0`,
    ///   and `order` holds `base + count` entries (`base + 1` for one entry). Checked under
    ///   `LITEVISION_INTERNAL_CHECKS` (tuned builds drop the arrays' own bounds checks).
    static func decreasingPartialArgSort(_ values: UnsafeBufferPointer<Float>, count: Int, toSort: Int, order: inout [Int],
                                         base: Int, scratch: inout [Int]) {
        KernelPrecondition.check(toSort >= 1 && toSort <= count && count <= values.count && scratch.count >= count
                                 && base >= 0 && order.count >= base + (toSort == 1 ? 1 : count),
                                 "arg sort of \(toSort) of \(count) values (\(values.count)) into \(order.count) at \(base), scratch \(scratch.count)")
        if toSort == 1 {
            var best = 0
            for i in 1..<max(1, count) where values[i] > values[best] { best = i }
            order[base] = best
            return
        }
        for i in 0..<count { scratch[i] = i }
        ReferenceHeapOrder.partialSort(&scratch, middle: toSort, count: count) { values[$0] > values[$1] }
        for i in 0..<count { order[base + i] = scratch[i] }
    }

    /// Regular NMS: per class, single-class NMS keeping at most
    /// `min(detectionsPerClass, maxDetections)` boxes, stably merged (earlier classes first
    /// among equal scores, like `std::inplace_merge`) into the running top `maxDetections`.
    private static func regular(boxCount: Int, columns: Int, labelOffset: Int, _ p: DetectionPostProcessParameters,
                                _ w: inout DetectionPostProcessWorkspace, _ boxes: UnsafeMutableBufferPointer<Float>,
                                _ classes: UnsafeMutableBufferPointer<Float>, _ scores: UnsafeMutableBufferPointer<Float>) throws -> Int {
        let perClass = min(p.detectionsPerClass, p.maxDetections)
        guard perClass > 0 else {
            throw DetectionPostProcessError.invalidArgument("min(detections_per_class, max_detections) must be positive")
        }
        var sortedCount = 0
        for column in 0..<p.numClasses {
            for row in 0..<boxCount { w.classScores[row] = w.scores[row * columns + column + labelOffset] }
            try suppressSingleClass(values: w.classScores, boxCount: boxCount, maxDetections: perClass, p, &w)
            if w.selected.isEmpty { continue }
            // Stable merge of the kept list [0, sortedCount) with this class's selections
            // (already in descending score order).
            var a = 0, b = 0, out = 0
            let newCount = w.selected.count
            while a < sortedCount || b < newCount {
                let takeNew: Bool
                if a == sortedCount { takeNew = true } else if b == newCount { takeNew = false } else {
                    takeNew = w.classScores[w.selected[b]] > w.mergedScores[a]
                }
                if takeNew {
                    let anchor = w.selected[b]
                    w.mergeOrder[out] = anchor * columns + column + labelOffset
                    w.sortedValues[out] = w.classScores[anchor]
                    b += 1
                } else {
                    w.mergeOrder[out] = w.mergedIndices[a]
                    w.sortedValues[out] = w.mergedScores[a]
                    a += 1
                }
                out += 1
            }
            sortedCount = min(out, p.maxDetections)
            for k in 0..<sortedCount {
                w.mergedIndices[k] = w.mergeOrder[k]
                w.mergedScores[k] = w.sortedValues[k]
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

    private static func fast(boxCount: Int, columns: Int, labelOffset: Int, _ p: DetectionPostProcessParameters,
                             _ w: inout DetectionPostProcessWorkspace, _ boxes: UnsafeMutableBufferPointer<Float>,
                             _ classes: UnsafeMutableBufferPointer<Float>, _ scores: UnsafeMutableBufferPointer<Float>) throws -> Int {
        guard p.maxClassesPerDetection > 0 else {
            throw DetectionPostProcessError.invalidArgument("max_classes_per_detection must be positive")
        }
        guard p.numClasses > 0 else { throw DetectionPostProcessError.invalidArgument("num_classes must be positive") }
        let perAnchor = min(p.maxClassesPerDetection, p.numClasses)
        w.scores.withUnsafeBufferPointer { all in
            for row in 0..<boxCount {
                let rowScores = UnsafeBufferPointer(rebasing: all[(row * columns + labelOffset)..<(row * columns + labelOffset + p.numClasses)])
                decreasingPartialArgSort(rowScores, count: p.numClasses, toSort: perAnchor,
                                         order: &w.sortedClassIndices, base: row * p.numClasses, scratch: &w.rowOrder)
                w.maxScores[row] = rowScores[w.sortedClassIndices[row * p.numClasses]]
            }
        }
        try suppressSingleClass(values: w.maxScores, boxCount: boxCount, maxDetections: p.maxDetections, p, &w)
        var outputBox = 0
        for anchor in w.selected {
            for column in 0..<perAnchor {
                let slot = p.maxClassesPerDetection * outputBox + column
                let classIndex = w.sortedClassIndices[anchor * p.numClasses + column]
                for c in 0..<4 { boxes[slot * 4 + c] = w.decodedBoxes[anchor * 4 + c] }
                classes[slot] = Float(classIndex)
                scores[slot] = w.scores[anchor * columns + labelOffset + classIndex]
            }
            outputBox += 1
        }
        return outputBox
    }
}
