/// Scratch memory of ``DetectionPostProcessReference``: typed views of one block of caller
/// memory (the interpreter's arena scratch), laid out by ``byteCount(boxCount:parameters:)``,
/// so a run allocates nothing.
///
/// A run writes every element it reads before reading it: the block may hold anything when a
/// run starts (the arena gives the bytes to other nodes between invokes), and nothing a run
/// leaves in it is needed by the next.
public struct DetectionPostProcessWorkspace {
    /// Alignment the block's start must have: that of its widest element (`Int`).
    public static let alignment = MemoryLayout<Int>.alignment

    /// Decoded boxes, 4 floats (ymin, xmin, ymax, xmax) per anchor.
    public let decodedBoxes: UnsafeMutableBufferPointer<Float>
    /// One score per anchor: the column of the class being suppressed (regular NMS) or each
    /// anchor's best class score (fast NMS).
    let anchorScores: UnsafeMutableBufferPointer<Float>
    /// Scores that pass the threshold and their anchors (single-class NMS).
    let keepScores: UnsafeMutableBufferPointer<Float>
    let keepIndices: UnsafeMutableBufferPointer<Int>
    /// Positions in `keepScores`, sorted by descending score.
    let sortedIndices: UnsafeMutableBufferPointer<Int>
    /// Whether a sorted candidate is still unsuppressed.
    let active: UnsafeMutableBufferPointer<Bool>
    /// Anchors the single-class NMS selected, in selection order.
    let selected: UnsafeMutableBufferPointer<Int>
    /// The regular NMS's running top detections (flat score index, score), `maxDetections` each.
    let mergedIndices: UnsafeMutableBufferPointer<Int>
    let mergedScores: UnsafeMutableBufferPointer<Float>
    /// The merge of the running top with one class's selections, `2 × maxDetections` each.
    let mergeOrder: UnsafeMutableBufferPointer<Int>
    let mergeScores: UnsafeMutableBufferPointer<Float>
    /// The fast NMS's best classes per anchor, `min(maxClassesPerDetection, numClasses)` a row.
    let rankedClasses: UnsafeMutableBufferPointer<Int>
    /// One row's class positions while they are ranked, `numClasses`.
    let rowOrder: UnsafeMutableBufferPointer<Int>

    /// Classes ranked per anchor by the fast NMS: `min(maxClassesPerDetection, numClasses)`, at least 0.
    static func classesPerAnchor(_ p: DetectionPostProcessParameters) -> Int {
        max(0, min(p.maxClassesPerDetection, p.numClasses))
    }

    /// Bytes of the block ``init(memory:boxCount:parameters:)`` lays out for `boxCount` anchors
    /// and `parameters` (negative values count as 0), each view aligned to its element;
    /// saturating at `Int.max` instead of overflowing: callers count it against their memory
    /// policy first.
    public static func byteCount(boxCount: Int, parameters p: DetectionPostProcessParameters) -> Int {
        var layout = Layout(base: nil)
        _ = Self(&layout, boxCount: boxCount, parameters: p)
        return layout.byteCount
    }

    /// The views of `memory` for `boxCount` anchors and `parameters`.
    /// - Parameter memory: at least ``byteCount(boxCount:parameters:)`` bytes starting at a
    ///   multiple of ``alignment``, which the workspace's views rebind; any contents.
    /// - Throws: ``DetectionPostProcessError/invalidArgument(_:)`` when `memory` is smaller or
    ///   misaligned.
    public init(memory: UnsafeMutableRawBufferPointer, boxCount: Int, parameters p: DetectionPostProcessParameters) throws {
        let bytes = Self.byteCount(boxCount: boxCount, parameters: p)
        guard memory.count >= bytes, Int(bitPattern: memory.baseAddress) % Self.alignment == 0 else {
            throw DetectionPostProcessError.invalidArgument(
                "workspace memory of \(memory.count) bytes at \(String(describing: memory.baseAddress)) is smaller than "
                + "\(bytes) bytes or not \(Self.alignment)-byte aligned")
        }
        var layout = Layout(base: bytes > 0 ? memory.baseAddress : nil)
        self.init(&layout, boxCount: boxCount, parameters: p)
    }

    /// The one list of views, in block order: measured (`layout.base` nil) or carved.
    private init(_ layout: inout Layout, boxCount: Int, parameters p: DetectionPostProcessParameters) {
        let n = max(0, boxCount), maxDetections = max(0, p.maxDetections), classes = max(0, p.numClasses)
        decodedBoxes = layout.take(Float.self, n, 4)
        anchorScores = layout.take(Float.self, n, 1)
        keepScores = layout.take(Float.self, n, 1)
        keepIndices = layout.take(Int.self, n, 1)
        sortedIndices = layout.take(Int.self, n, 1)
        selected = layout.take(Int.self, n, 1)
        mergedIndices = layout.take(Int.self, maxDetections, 1)
        mergedScores = layout.take(Float.self, maxDetections, 1)
        mergeOrder = layout.take(Int.self, maxDetections, 2)
        mergeScores = layout.take(Float.self, maxDetections, 2)
        rankedClasses = layout.take(Int.self, n, Self.classesPerAnchor(p))
        rowOrder = layout.take(Int.self, classes, 1)
        active = layout.take(Bool.self, n, 1)
    }

    /// The contract between a workspace and a run of
    /// ``DetectionPostProcessReference/suppress(classScores:boxCount:classesWithBackground:parameters:workspace:boxes:classes:scores:)``:
    /// the views the suppression indexes without further checks hold what `boxCount` anchors
    /// and `p` need, as a workspace made for the same arguments (or larger ones) does.
    /// - Returns: nil when the workspace fits, else what is too small.
    func violation(boxCount: Int, parameters p: DetectionPostProcessParameters) -> String? {
        let n = max(0, boxCount), classes = max(0, p.numClasses), maxDetections = max(0, p.maxDetections)
        if decodedBoxes.count < 4 * n || anchorScores.count < n || keepScores.count < n || keepIndices.count < n
            || sortedIndices.count < n || active.count < n || selected.count < n
            || rankedClasses.count < n * Self.classesPerAnchor(p) || rowOrder.count < classes {
            return "detection workspace smaller than \(boxCount) anchors of \(p.numClasses) classes "
                + "(\(Self.classesPerAnchor(p)) ranked per anchor)"
        }
        if mergedIndices.count < maxDetections || mergedScores.count < maxDetections || mergeOrder.count < 2 * maxDetections
            || mergeScores.count < 2 * maxDetections {
            return "detection workspace smaller than \(p.maxDetections) detections"
        }
        return nil
    }

    /// Consecutive views of one block, each starting at a multiple of its element's alignment.
    private struct Layout {
        /// The block's start; nil while only measuring (views are then empty).
        let base: UnsafeMutableRawPointer?
        /// Bytes laid out so far; `Int.max` once a size overflowed.
        private(set) var byteCount = 0

        init(base: UnsafeMutableRawPointer?) { self.base = base }

        /// The next `rows × columns` elements of `T`.
        mutating func take<T>(_ type: T.Type, _ rows: Int, _ columns: Int) -> UnsafeMutableBufferPointer<T> {
            let (count, o1) = rows.multipliedReportingOverflow(by: columns)
            let (bytes, o2) = count.multipliedReportingOverflow(by: MemoryLayout<T>.stride)
            let alignment = MemoryLayout<T>.alignment
            let (padded, o3) = byteCount.addingReportingOverflow(alignment - 1)
            let start = padded / alignment * alignment
            let (end, o4) = start.addingReportingOverflow(bytes)
            guard !o1, !o2, !o3, !o4 else {
                byteCount = Int.max
                return UnsafeMutableBufferPointer(start: nil, count: 0)
            }
            byteCount = end
            guard let base, count > 0 else { return UnsafeMutableBufferPointer(start: nil, count: 0) }
            return UnsafeMutableBufferPointer(start: (base + start).bindMemory(to: T.self, capacity: count), count: count)
        }
    }
}
