import Foundation

/// A persistent pool of worker threads for kernels that split work.
/// CONTRACT: `parallelFor` is the only API operators use.
///
/// The workers are created once, when the pool is created, and sleep on a condition
/// variable between jobs: invoking a model never creates threads. The calling thread
/// always takes part in the work, so a pool of `n` threads owns `n - 1` workers.
/// A `parallelFor` issued from inside another `parallelFor` body (or while the pool is busy
/// with another caller) runs serially on the calling thread instead of deadlocking.
final class ThreadPool: @unchecked Sendable {
    /// Number of threads that take part (the caller included).
    let threadCount: Int
    private let state: ThreadPoolState

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

    /// Splits `0..<count` into at most `threadCount` contiguous chunks of at least `minChunk`
    /// and runs `body` on each, returning when all are done. Chunks run concurrently on the
    /// workers and the calling thread; `body` must only write to disjoint memory per chunk.
    func parallelFor(_ count: Int, minChunk: Int = 1, _ body: (Range<Int>) -> Void) {
        guard count > 0 else { return }
        let chunkCount = min(threadCount, max(1, count / max(1, minChunk)))
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
private final class ThreadPoolState: @unchecked Sendable {
    private let condition = NSCondition()
    private var job: ThreadPoolJob?
    private var isShutDown = false

    /// Publishes `job`; false when another job is running (nested or concurrent use).
    func start(_ job: ThreadPoolJob) -> Bool {
        condition.lock(); defer { condition.unlock() }
        guard self.job == nil else { return false }
        self.job = job
        condition.broadcast()
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

    /// Blocks until every chunk of `job` is done, then retires the job.
    func waitUntilDone(_ job: ThreadPoolJob) {
        condition.lock(); defer { condition.unlock() }
        while job.unfinishedChunks > 0 { condition.wait() }
        self.job = nil
    }

    /// Wakes the workers and lets them exit.
    func shutDown() {
        condition.lock(); defer { condition.unlock() }
        isShutDown = true
        condition.broadcast()
    }

    /// A worker: sleeps until a job has unclaimed chunks, runs them, repeats until shut down.
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
            } else {
                condition.wait()
            }
        }
    }
}
