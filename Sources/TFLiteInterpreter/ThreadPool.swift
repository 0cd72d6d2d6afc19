import Foundation

/// A persistent pool of worker threads for kernels that split work.
/// CONTRACT: `parallelFor` is the only API operators use.
///
/// The workers are created once, when the pool is created: invoking a model never creates
/// threads. Between jobs a worker first polls for new work for a short while (an invoke issues
/// one job per operator, microseconds apart, and waking a sleeping thread costs more than many
/// small operators take), then sleeps on a condition variable. The calling thread always takes
/// part in the work, so a pool of `n` threads owns `n - 1` workers. Work is split into a few
/// chunks per thread, claimed one at a time, so a thread the system preempts delays the job by
/// one small chunk rather than by its whole share. A `parallelFor` issued from inside another
/// `parallelFor` body (or while the pool is busy with another caller) runs serially on the
/// calling thread instead of deadlocking.
final class ThreadPool: @unchecked Sendable {
    /// Number of threads that take part (the caller included).
    let threadCount: Int
    private let state: ThreadPoolState

    /// Chunks per thread a job is split into (when its size allows).
    static let chunksPerThread = 4

    /// Creates a pool with `threadCount` threads (at least 1); starts `threadCount - 1` workers.
    init(threadCount: Int) {
        self.threadCount = max(1, threadCount)
        state = ThreadPoolState()
        for _ in 1..<self.threadCount {
            let state = self.state
            let thread = Thread { state.workerLoop() }
            thread.name = "litevision.worker"
            thread.start()
        }
    }

    deinit { state.shutDown() }

    /// The number of threads to use when the caller does not say: every active core.
    static var defaultThreadCount: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// Splits `0..<count` into contiguous chunks of at least `minChunk` (at most
    /// `chunksPerThread · threadCount` of them) and runs `body` on each, returning when all are
    /// done. Chunks run concurrently on the workers and the calling thread; `body` must only
    /// write to disjoint memory per chunk.
    func parallelFor(_ count: Int, minChunk: Int = 1, _ body: (Range<Int>) -> Void) {
        guard count > 0 else { return }
        let chunkCount = threadCount == 1 ? 1
            : min(threadCount * Self.chunksPerThread, max(1, count / max(1, minChunk)))
        if chunkCount <= 1 { body(0..<count); return }
        withoutActuallyEscaping(body) { escapable in
            let job = ThreadPoolJob(count: count, chunkCount: chunkCount, body: escapable)
            guard state.start(job) else { body(0..<count); return }
            // The caller works too, then waits for the chunks the workers took.
            while let chunk = state.takeChunk(of: job) { job.run(chunk); state.finish(chunk: job) }
            state.waitUntilDone(job)
        }
    }
}

/// One `parallelFor` call: the range, its split and the body.
private final class ThreadPoolJob: @unchecked Sendable {
    let count: Int
    let chunkCount: Int
    let body: (Range<Int>) -> Void
    var nextChunk = 0
    var unfinishedChunks: Int

    init(count: Int, chunkCount: Int, body: @escaping (Range<Int>) -> Void) {
        self.count = count; self.chunkCount = chunkCount; self.body = body
        unfinishedChunks = chunkCount
    }

    /// Runs chunk `k`: an even split, the first `count % chunkCount` chunks one longer.
    func run(_ k: Int) {
        let base = count / chunkCount, extra = count % chunkCount
        let start = k * base + min(k, extra)
        let end = start + base + (k < extra ? 1 : 0)
        body(start..<end)
    }
}

/// Shared state of the pool and its workers (kept apart so the workers do not keep the pool alive).
/// Every field is read and written under `condition`'s lock; polling takes the lock briefly.
private final class ThreadPoolState: @unchecked Sendable {
    private let condition = NSCondition()
    private var job: ThreadPoolJob?
    private var isShutDown = false
    /// Workers blocked in `condition.wait()` (the publisher only signals when there are any).
    private var sleepingWorkers = 0

    /// How long an idle thread polls before it blocks. Measured on 2 quiet cores: polling took
    /// the 2-thread speedup from 1.3× to 1.8× (yolov8n_int8_640, deeplabv3); 30–200 µs all did,
    /// and the shorter the poll, the less a busy machine's other processes are delayed.
    private static let pollNanoseconds: UInt64 = 50_000

    /// Publishes `job`; false when another job is running (nested or concurrent use).
    func start(_ job: ThreadPoolJob) -> Bool {
        condition.lock(); defer { condition.unlock() }
        guard self.job == nil else { return false }
        self.job = job
        if sleepingWorkers > 0 { condition.broadcast() }
        return true
    }

    /// The next unclaimed chunk of `job`, or nil.
    func takeChunk(of job: ThreadPoolJob) -> Int? {
        condition.lock(); defer { condition.unlock() }
        guard job.nextChunk < job.chunkCount else { return nil }
        job.nextChunk += 1
        return job.nextChunk - 1
    }

    /// Records that one chunk of `job` is done.
    func finish(chunk job: ThreadPoolJob) {
        condition.lock(); defer { condition.unlock() }
        job.unfinishedChunks -= 1
        if job.unfinishedChunks == 0 { condition.broadcast() }
    }

    /// Blocks until every chunk of `job` is done (polling first: the last chunks are usually
    /// microseconds from done), then retires the job.
    func waitUntilDone(_ job: ThreadPoolJob) {
        condition.lock(); defer { condition.unlock() }
        if job.unfinishedChunks > 0 {
            _ = poll(until: { job.unfinishedChunks == 0 })
        }
        while job.unfinishedChunks > 0 { condition.wait() }
        self.job = nil
    }

    /// Wakes the workers and lets them exit.
    func shutDown() {
        condition.lock(); defer { condition.unlock() }
        isShutDown = true
        condition.broadcast()
    }

    /// With the lock held: releases and re-takes it repeatedly until `ready()` holds or the
    /// poll time has passed; returns whether `ready()` holds.
    private func poll(until ready: () -> Bool) -> Bool {
        let deadline = DispatchTime.now().uptimeNanoseconds + Self.pollNanoseconds
        var spins = 0
        while !ready() {
            condition.unlock()
            Self.pause()
            spins += 1
            if spins & 3 == 0, DispatchTime.now().uptimeNanoseconds > deadline {
                condition.lock()
                return ready()
            }
            condition.lock()
        }
        return true
    }

    /// Lets the other threads take the lock for a moment (a few hundred cycles) between polls:
    /// a few clock reads, which the optimizer cannot remove.
    @inline(__always)
    private static func pause() {
        for _ in 0..<8 { _ = DispatchTime.now() }
    }

    /// True when the worker has something to do: shut down, or a chunk to take.
    private var hasWork: Bool {
        isShutDown || (job.map { $0.nextChunk < $0.chunkCount } ?? false)
    }

    /// A worker: polls, then sleeps, until a job has unclaimed chunks; runs them; repeats until
    /// shut down.
    func workerLoop() {
        condition.lock()
        while true {
            if isShutDown { condition.unlock(); return }
            if let job, job.nextChunk < job.chunkCount {
                let chunk = job.nextChunk
                job.nextChunk += 1
                condition.unlock()
                job.run(chunk)
                condition.lock()
                job.unfinishedChunks -= 1
                if job.unfinishedChunks == 0 { condition.broadcast() }
            } else if !poll(until: { hasWork }) {
                sleepingWorkers += 1
                condition.wait()
                sleepingWorkers -= 1
            }
        }
    }
}
