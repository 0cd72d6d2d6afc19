import Foundation
import ObjectDetection

/// The result of one work item, in input order: detections or an item error.
public struct BatchOutcome: Sendable {
    /// Position of the item in the input list, from 0.
    public var ordinal: Int
    /// The id the record echoes.
    public var id: WorkItemID
    /// The image path (nil when the line was not a valid item).
    public var path: String?
    /// Detections with the upright image size, or why there are none.
    public var result: Result<Detections, BatchItemError>

    /// What was found in one image.
    public struct Detections: Sendable {
        /// Upright image width in pixels.
        public var width: Int
        /// Upright image height in pixels.
        public var height: Int
        /// The detected objects.
        public var objects: [DetectedObject]
    }
}

/// Counters of one batch run.
public struct BatchStatistics: Sendable {
    /// Items processed (records emitted).
    public var items = 0
    /// Of those, error records.
    public var errors = 0
    /// Items this shard owns in total, when the input could be counted ahead.
    public var expectedItems: Int?
    /// Time spent reading and decoding images (on the decode-ahead thread when prefetching).
    public var decodeSeconds = 0.0
    /// Time spent in detection.
    public var detectSeconds = 0.0
    /// Time the detection loop waited for the next decoded item: all of the decoding without
    /// decode-ahead, only the part that did not overlap detection with it.
    public var waitSeconds = 0.0
    /// Wall-clock time since the run started.
    public var wallSeconds = 0.0
}

/// Runs a detector over a stream of work items: the items of one shard are read and decoded
/// ahead on a background thread (at most `prefetch` decoded images waiting), detected one at a
/// time with one detector whose models were loaded once, and handed to `emit` in input order.
///
/// Items are independent photos: each is detected as the first frame of a fresh stream
/// (tracking reset, IDs from 1 in stream mode), so an item's record does not depend on which
/// items came before it, and any split of the list gives the same records.
public final class BatchRunner {
    private let detector: ObjectDetector
    private let loader: ImageFileLoader
    private let shard: Shard
    private let prefetch: Int

    /// Creates a runner. `prefetch` is the decode-ahead depth (0: decode inline, no overlap).
    public init(detector: ObjectDetector, loader: ImageFileLoader = ImageFileLoader(), shard: Shard = .all, prefetch: Int = 2) {
        self.detector = detector
        self.loader = loader
        self.shard = shard
        self.prefetch = max(0, prefetch)
    }

    /// Processes every item of `reader` that belongs to the shard.
    /// - Parameters:
    ///   - emit: receives each outcome in input order; a thrown error stops the run.
    ///   - progress: called after each item with the counters so far.
    /// - Throws: the reader's ``BatchRunError/inputUnavailable(_:)`` or whatever `emit` throws.
    @discardableResult
    public func run(_ reader: WorkItemReader, expectedItems: Int? = nil,
                    emit: (BatchOutcome) throws -> Void,
                    progress: ((BatchStatistics) -> Void)? = nil) throws -> BatchStatistics {
        let started = Date()
        let decodeTime = TimeAccumulator()
        let queue = DecodeAheadQueue<Decoded>(capacity: prefetch) { [shard, loader] in
            while let entry = try reader.next() {
                guard shard.owns(ordinal: entry.ordinal) else { continue }
                switch entry.item {
                case .failure(let failure):
                    return Decoded(ordinal: entry.ordinal, id: failure.id, path: nil, image: .failure(failure.error))
                case .success(let item):
                    let t0 = Date()
                    let image = loader.load(item.path)
                    decodeTime.add(Date().timeIntervalSince(t0))
                    return Decoded(ordinal: entry.ordinal, id: item.id, path: item.path, image: image)
                }
            }
            return nil
        }
        defer { queue.cancel() }
        var statistics = BatchStatistics()
        statistics.expectedItems = expectedItems
        while true {
            let waitStart = Date()
            guard let decoded = try queue.next() else { break }
            statistics.waitSeconds += Date().timeIntervalSince(waitStart)
            let t0 = Date()
            let result = decoded.image.flatMap { image in detect(image) }
            statistics.detectSeconds += Date().timeIntervalSince(t0)
            statistics.items += 1
            if case .failure = result { statistics.errors += 1 }
            try emit(BatchOutcome(ordinal: decoded.ordinal, id: decoded.id, path: decoded.path, result: result))
            statistics.decodeSeconds = decodeTime.total
            statistics.wallSeconds = Date().timeIntervalSince(started)
            progress?(statistics)
        }
        statistics.decodeSeconds = decodeTime.total
        statistics.wallSeconds = Date().timeIntervalSince(started)
        return statistics
    }

    private func detect(_ image: VisionImage) -> Result<BatchOutcome.Detections, BatchItemError> {
        do {
            let objects = try detector.results(inIndependentImage: image)
            return .success(BatchOutcome.Detections(width: image.sourceUprightWidth, height: image.sourceUprightHeight,
                                                              objects: objects))
        } catch {
            return .failure(BatchItemError(.detectionFailed, "\(error)"))
        }
    }

    /// One item after reading and decoding.
    private struct Decoded: Sendable {
        var ordinal: Int
        var id: WorkItemID
        var path: String?
        var image: Result<VisionImage, BatchItemError>
    }
}

/// A total of seconds added from one thread and read from another.
private final class TimeAccumulator: @unchecked Sendable {
    private let lock = NSLock()
    private var seconds = 0.0
    func add(_ value: Double) { lock.withLock { seconds += value } }
    var total: Double { lock.withLock { seconds } }
}
