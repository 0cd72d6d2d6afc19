import Dispatch
import Foundation
import ObjectTracking

/// Runs classification jobs away from the caller's thread.
protocol ClassificationExecutor: Sendable {
    /// Runs `job` some time later.
    func submit(_ job: @escaping @Sendable () -> Void)
}

/// One serial background queue: jobs run in order, one at a time, at utility priority.
struct SerialClassificationExecutor: ClassificationExecutor {
    private let queue = DispatchQueue(label: "litevision.stream-classification", qos: .utility)
    func submit(_ job: @escaping @Sendable () -> Void) { queue.async(execute: job) }
}

/// Stream mode's labels: each tracked object keeps the labels of its last classification,
/// and re-classification runs off the critical path — a frame's boxes are returned at once
/// with the labels known so far, while the classifier runs in the background and its labels
/// attach to the tracking ID when done. A new track is classified on its first frame
/// (``Policy/classifyNewTracksImmediately``, default) so still photos and first frames get
/// labels; with that off, a track's first frames have none, as the SDK allows.
///
/// A track is classified again when ``Policy/reclassifyEveryFrames`` frames or
/// ``Policy/maxLabelAge`` seconds (by the detector's clock) have passed since its last
/// classification, or when its box moved so that the IoU with the classified box fell below
/// ``Policy/reclassifyBelowIoU``. At most one classification per track is in flight, and a
/// background classification whose track has ended (or was forgotten by ``reset()``) before
/// the job starts is skipped: after a scene change the new tracks' classifications do not wait
/// behind the old ones', and no core is spent on labels nobody will read.
final class TrackLabelCache: @unchecked Sendable {
    /// When a track's labels are refreshed.
    struct Policy: Sendable {
        /// Frames after which a track is classified again.
        var reclassifyEveryFrames = 15
        /// Seconds after which a track is classified again.
        var maxLabelAge = 1.0
        /// A box whose IoU with the classified box is lower is classified again.
        var reclassifyBelowIoU: Float = 0.5
        /// Classify a new track before returning its first frame.
        var classifyNewTracksImmediately = true
    }

    private struct Entry {
        var labels: [ObjectLabel] = []
        var classifiedBox: ImageRect?
        var classifiedFrame = 0
        var classifiedAt = 0.0
        var pending = false
        /// Identifies this track's entry: a job whose entry was replaced (the track ended, or
        /// ``reset()``) neither runs nor writes its labels.
        var generation = 0
    }

    private let lock = NSLock()
    /// Serializes classifier runs (the classifier is not reentrant).
    private let classifierLock = NSLock()
    private var entries: [Int: Entry] = [:]
    private var frame = 0
    /// The last entry generation handed out.
    private var generations = 0
    private let policy: Policy
    private let classify: @Sendable (RGBImage, ImageRect) throws -> [ObjectLabel]
    private let executor: any ClassificationExecutor
    private let clock: any TrackingClock

    init(policy: Policy = Policy(), clock: any TrackingClock, executor: any ClassificationExecutor = SerialClassificationExecutor(),
         classify: @escaping @Sendable (RGBImage, ImageRect) throws -> [ObjectLabel]) {
        self.policy = policy; self.clock = clock; self.executor = executor; self.classify = classify
    }

    /// The labels known for each tracked object of this frame (empty until its first
    /// classification finishes); schedules the classifications the policy asks for. Tracks
    /// that are not in `objects` are forgotten.
    /// - Throws: the classifier's error for a new track classified at once (background
    ///   failures leave the track unlabelled until its next classification).
    func labels(for objects: [(trackingID: Int, rect: ImageRect)], in image: RGBImage) throws -> [[ObjectLabel]] {
        let now = clock.now()
        var jobs: [(id: Int, rect: ImageRect, generation: Int)] = [], immediate: [(index: Int, id: Int, rect: ImageRect)] = []
        var result: [[ObjectLabel]] = lock.withLock {
            frame += 1
            let live = Set(objects.map(\.trackingID))
            entries = entries.filter { live.contains($0.key) }
            return objects.enumerated().map { index, object in
                var entry = entries[object.trackingID] ?? newEntry()
                if !entry.pending && needsClassification(entry, box: object.rect, now: now) {
                    if entry.classifiedBox == nil && policy.classifyNewTracksImmediately {
                        immediate.append((index, object.trackingID, object.rect))
                    } else {
                        entry.pending = true
                        jobs.append((object.trackingID, object.rect, entry.generation))
                    }
                    entry.classifiedBox = object.rect
                    entry.classifiedFrame = frame
                    entry.classifiedAt = now
                }
                entries[object.trackingID] = entry
                return entry.labels
            }
        }
        for job in immediate {
            let labels = try classifierLock.withLock { try classify(image, job.rect) }
            result[job.index] = labels
            lock.withLock { entries[job.id]?.labels = labels }
        }
        for (id, rect, generation) in jobs {
            executor.submit { [self] in
                let labels: [ObjectLabel]? = classifierLock.withLock {
                    // The track ended while the job waited: skip it.
                    guard isCurrent(id, generation) else { return nil }
                    return (try? classify(image, rect)) ?? []
                }
                lock.withLock {
                    guard let labels, entries[id]?.generation == generation else { return }   // the track ended meanwhile
                    entries[id]?.labels = labels
                    entries[id]?.pending = false
                }
            }
        }
        return result
    }

    /// Forgets every track (start of a new stream).
    func reset() {
        lock.withLock { entries.removeAll(); frame = 0 }
    }

    /// A fresh entry with its own generation (call with `lock` held).
    private func newEntry() -> Entry {
        generations += 1
        var entry = Entry()
        entry.generation = generations
        return entry
    }

    /// True while the entry of `id` that a job was queued for is still the track's.
    private func isCurrent(_ id: Int, _ generation: Int) -> Bool {
        lock.withLock { entries[id]?.generation == generation }
    }

    private func needsClassification(_ entry: Entry, box: ImageRect, now: Double) -> Bool {
        guard let classified = entry.classifiedBox else { return true }
        return frame - entry.classifiedFrame >= policy.reclassifyEveryFrames
            || now - entry.classifiedAt >= policy.maxLabelAge
            || box.intersectionOverUnion(classified) < policy.reclassifyBelowIoU
    }
}
