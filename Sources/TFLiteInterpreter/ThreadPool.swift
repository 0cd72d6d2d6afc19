import Foundation

/// A persistent pool of worker threads for kernels that split work.
/// CONTRACT: `parallelFor` — in its two forms, the body taking a range, or a range and a worker
/// index — is the only API operators use.
///
/// The workers are created once, when the pool is created: invoking a model never creates
/// threads. Between jobs a worker first polls for new work for a short while (an invoke issues
/// one job per operator, microseconds apart, and waking a sleeping thread costs more than many
/// small operators take), then sleeps on a condition variable; its lock spins before it blocks
/// (``SpinningCondition``), as the threads take it often and briefly. The calling thread always takes
/// part in the work, so a pool of `n` threads owns `n - 1` workers. Work is split into a few
/// chunks per thread, claimed one at a time, so a thread the system preempts delays the job by
/// one small chunk rather than by its whole share. Each thread claims the chunks of its own
/// contiguous share first (``ChunkShares``), so it mostly reads what it wrote into its own
/// core's caches one operator before. A `parallelFor` issued from inside another
/// `parallelFor` body (or while the pool is busy with another caller) runs serially on the
/// calling thread instead of deadlocking.
///
/// Worker indices (the second form): every thread that takes part has a fixed index in
/// `0..<threadCount` — the calling thread 0, the pool's workers `1..<threadCount` — and a body
/// runs with the index of the thread running it, so at any moment no two running bodies hold
/// the same index: a kernel may give each index memory of its own (per-thread scratch placed
/// at prepare) and use it without locks. A serial run (one chunk, a one-thread pool) is
/// worker 0. A call nested in a body runs serially with that body's index (the outer body is
/// suspended meanwhile, so it must not hold index-keyed memory across the nested call). A call
/// of the indexed form from another thread while a job runs waits for that job to finish (it
/// cannot take an index the job's threads hold; the job never waits for it, so this cannot
/// deadlock), where the plain form runs serially at once — on pools of more than one thread (a
/// one-thread pool runs every call at once on its caller, see the indexed form).
final class ThreadPool: @unchecked Sendable {
    /// Number of threads that take part (the caller included).
    let threadCount: Int
    private let state: ThreadPoolState

    /// Chunks per thread a job is split into (when its size allows).
    static let chunksPerThread = 4

    /// Creates a pool with `threadCount` threads (at least 1); starts `threadCount - 1` workers.
    init(threadCount: Int) {
        self.threadCount = max(1, threadCount)
        state = ThreadPoolState(threadCount: self.threadCount)
        for worker in 1..<self.threadCount {
            let state = self.state
            let thread = Thread { state.workerLoop(worker: worker) }
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
        let chunkCount = chunkCount(count, minChunk: minChunk)
        if chunkCount <= 1 { body(0..<count); return }
        withoutActuallyEscaping(body) { escapable in
            guard case .started(let job) = state.start(count: count, chunkCount: chunkCount, body: .plain(escapable)) else {
                body(0..<count); return
            }
            // The caller works too, then waits for the chunks the workers took.
            while let chunk = state.takeChunk(of: job, worker: 0) { job.run(chunk, worker: 0); state.finish(chunk: job) }
            state.waitUntilDone(job)
        }
    }

    /// As `parallelFor(_:minChunk:_:)`, with each chunk's body also given the index of the
    /// thread running it, `worker` in `0..<threadCount`: no two bodies running at the same
    /// moment have the same index (see the type's notes for serial, nested and concurrent
    /// calls), so `body` may use memory kept per index — e.g. one scratch buffer per worker,
    /// requested at prepare for `threadCount` workers — without locks. A one-chunk call runs
    /// on the calling thread as worker 0 (or as the enclosing body's worker when nested).
    ///
    /// A one-thread pool runs the call at once on the calling thread as worker 0, as the plain
    /// form does, without publishing a job (no allocation, no lock: most layers of a 1-thread
    /// interpreter take this path). Its one index is then not guarded against a second outside
    /// thread calling the same pool at the same moment; an interpreter's pool is its own and its
    /// invokes are serialised, so its per-index memory is never used twice at once.
    func parallelFor(_ count: Int, minChunk: Int = 1, _ body: (Range<Int>, _ worker: Int) -> Void) {
        guard count > 0 else { return }
        if threadCount == 1 { body(0..<count, 0); return }
        let chunkCount = chunkCount(count, minChunk: minChunk)
        if chunkCount <= 1 {
            // One chunk: run it here without publishing a job (the workers never see it), as
            // worker 0, or nested with the enclosing body's index; other outside callers wait.
            if let worker = state.beginInline() { body(0..<count, worker); return }
            body(0..<count, 0)
            state.endInline()
            return
        }
        withoutActuallyEscaping(body) { escapable in
            switch state.start(count: count, chunkCount: chunkCount, body: .indexed(escapable)) {
            case .started(let job):
                // Chunk 0 was claimed for the caller as the job started (so a one-chunk job is
                // never handed to a worker); then it takes chunks like any thread.
                job.run(0, worker: 0)
                state.finish(chunk: job)
                while let chunk = state.takeChunk(of: job, worker: 0) { job.run(chunk, worker: 0); state.finish(chunk: job) }
                state.waitUntilDone(job)
            case .nested(let worker): body(0..<count, worker)
            case .busy: preconditionFailure("an indexed parallelFor waits for the pool instead")
            }
        }
    }

    /// Chunks `count` units split into with at least `minChunk` per chunk (1 on a one-thread pool).
    private func chunkCount(_ count: Int, minChunk: Int) -> Int {
        threadCount == 1 ? 1 : min(threadCount * Self.chunksPerThread, max(1, count / max(1, minChunk)))
    }
}

/// The body of a `parallelFor` call, in either form.
private enum ThreadPoolBody {
    case plain((Range<Int>) -> Void)
    case indexed((Range<Int>, Int) -> Void)
}

/// The `parallelFor` call in progress: its range, its split, its body. A pool has one, which
/// every multi-chunk call reuses (one call runs at a time), so the pool allocates nothing per
/// call. A job object per call and the claim arrays of its shares were 4 of the 5 heap
/// allocations each multi-chunk call made (yolov8n_int8_640 at 2 threads: 675 per invoke, 135
/// now; the one left is the calling operator's closure context).
private final class ThreadPoolJob: @unchecked Sendable {
    private(set) var count = 0
    private(set) var chunkCount = 0
    var unfinishedChunks = 0
    /// Which thread claims which chunk (used under the pool's lock).
    var shares: ChunkShares
    /// The thread that published the job (worker 0).
    private(set) var caller: pthread_t?
    /// The call's body; nil between calls (the caller's `withoutActuallyEscaping` requires it
    /// released when the call returns).
    private var body: ThreadPoolBody?

    init(threadCount: Int) { shares = ChunkShares(chunkCount: 0, threadCount: threadCount) }

    /// Sets the job up for a call of `count` units in `chunkCount` chunks, published by `caller`
    /// (under the pool's lock, with no call in progress).
    func begin(count: Int, chunkCount: Int, body: ThreadPoolBody, caller: pthread_t) {
        self.count = count; self.chunkCount = chunkCount
        unfinishedChunks = chunkCount
        shares.reset(chunkCount: chunkCount)
        self.body = body
        self.caller = caller
    }

    /// Forgets the call (under the pool's lock, after its last chunk).
    func end() { body = nil; caller = nil }

    /// Chunk `k`: an even split, the first `count % chunkCount` chunks one longer.
    @inline(__always)
    func chunk(_ k: Int) -> Range<Int> {
        let base = count / chunkCount, extra = count % chunkCount
        let start = k * base + min(k, extra)
        return start..<(start + base + (k < extra ? 1 : 0))
    }

    /// Runs chunk `k` as `worker`.
    func run(_ k: Int, worker: Int) {
        switch body {
        case .plain(let body): body(chunk(k))
        case .indexed(let body): body(chunk(k), worker)
        case nil: preconditionFailure("a chunk of a finished call")
        }
    }
}

/// How `ThreadPoolState.start` answered.
private enum ThreadPoolEntry {
    /// The job is published (an indexed one with its chunk 0 claimed for the caller).
    case started(ThreadPoolJob)
    /// The caller runs a body of the running job as `worker`: run serially as that worker.
    case nested(worker: Int)
    /// Another thread's job is running (only when outside callers do not wait): run serially.
    case busy
}

/// Shared state of the pool and its workers (kept apart so the workers do not keep the pool alive).
/// Every field is read and written under `condition`'s lock; polling takes the lock briefly.
private final class ThreadPoolState: @unchecked Sendable {
    private let condition = SpinningCondition()
    /// The call in progress (`reusableJob` while one runs), nil between calls.
    private var job: ThreadPoolJob?
    /// The job every call of this pool sets up and publishes in turn.
    private let reusableJob: ThreadPoolJob
    private var isShutDown = false
    /// Workers blocked in `condition.wait()` (the publisher only signals when there are any).
    private var sleepingWorkers = 0
    /// Outside callers blocked in `start` until the running job retires.
    private var waitingCallers = 0
    /// The thread running a one-chunk indexed call in place (as worker 0, no job published), or
    /// nil: the pool is busy as with a job, for every other caller.
    private var inlineCaller: pthread_t?
    /// The thread of worker `k` at index `k` (index 0, the caller's, stays nil), set as each
    /// worker starts: before it can run any chunk.
    private var workerThreads: [pthread_t?]

    init(threadCount: Int) {
        workerThreads = Array(repeating: nil, count: threadCount)
        reusableJob = ThreadPoolJob(threadCount: threadCount)
    }

    /// How long an idle thread polls before it blocks. Measured on 2 quiet cores: polling took
    /// the 2-thread speedup from 1.3× to 1.8× (yolov8n_int8_640, deeplabv3); 30–200 µs all did,
    /// and the shorter the poll, the less a busy machine's other processes are delayed.
    private static let pollNanoseconds: UInt64 = 50_000

    /// Sets up and publishes the pool's job for `body` over `count` units in `chunkCount` chunks,
    /// unless a call is running: then a thread running one of its bodies gets `.nested` with its
    /// index, and another thread `.busy` (plain form) or, indexed, waits until the pool is free.
    /// An indexed job starts with its chunk 0 claimed for the caller.
    func start(count: Int, chunkCount: Int, body: ThreadPoolBody) -> ThreadPoolEntry {
        condition.lock(); defer { condition.unlock() }
        let me = pthread_self()
        let indexed: Bool
        if case .indexed = body { indexed = true } else { indexed = false }
        switch waitUntilFree(me, waits: indexed) {
        case .nested(let worker): return .nested(worker: worker)
        case .busy: return .busy
        case .free: break
        }
        let job = reusableJob
        job.begin(count: count, chunkCount: chunkCount, body: body, caller: me)
        // An indexed job's chunk 0 goes to the caller (always worker 0's first claim).
        if indexed { _ = job.shares.claim(worker: 0) }
        self.job = job
        if chunkCount > 1, sleepingWorkers > 0 { condition.broadcast() }
        return .started(job)
    }

    /// Before a one-chunk indexed call: nil when the calling thread now runs it in place as
    /// worker 0 (it then calls ``endInline()``), after waiting while another caller's job or
    /// in-place call runs; or the index to run it with, nested in a body that thread is running.
    /// Takes the lock once and publishes nothing, so the polling workers do not contend for it.
    func beginInline() -> Int? {
        condition.lock(); defer { condition.unlock() }
        let me = pthread_self()
        switch waitUntilFree(me, waits: true) {
        case .nested(let worker): return worker
        case .busy, .free: break  // `.busy` only when not waiting
        }
        inlineCaller = me
        return nil
    }

    /// How ``waitUntilFree(_:waits:)`` left the pool.
    private enum Availability {
        /// No call runs: the caller may start one (the lock is still held).
        case free
        /// `thread` takes part in the running call, as `worker`.
        case nested(worker: Int)
        /// Another thread's call runs and the caller does not wait.
        case busy
    }

    /// With the lock held: `.nested` when `thread` takes part in the running call (a job or an
    /// in-place call), else, while another thread's call runs, `.busy` when `waits` is false or
    /// a wait (releasing the lock) until it retires; then `.free`. No reference to the running
    /// job is held across the wait (its caller's `withoutActuallyEscaping` requires the job's
    /// body released when it returns).
    private func waitUntilFree(_ thread: pthread_t, waits: Bool) -> Availability {
        while job != nil || inlineCaller != nil {
            if let worker = runningJobWorker(thread) { return .nested(worker: worker) }
            guard waits else { return .busy }
            waitingCallers += 1
            condition.wait()
            waitingCallers -= 1
        }
        return .free
    }

    /// Ends the in-place call ``beginInline()`` started.
    func endInline() {
        condition.lock(); defer { condition.unlock() }
        inlineCaller = nil
        if waitingCallers > 0 { condition.broadcast() }
    }

    /// With the lock held and a job or an in-place call running: the worker index `thread` has
    /// in it (0 for the thread that published it or runs in place), nil when `thread` takes no
    /// part in it.
    private func runningJobWorker(_ thread: pthread_t) -> Int? {
        if let inlineCaller, pthread_equal(inlineCaller, thread) != 0 { return 0 }
        if let caller = job?.caller, pthread_equal(caller, thread) != 0 { return 0 }
        return workerThreads.firstIndex { $0.map { pthread_equal($0, thread) != 0 } ?? false }
    }

    /// A chunk of `job` for `worker` (see ``ChunkShares/claim(worker:)``), or nil.
    func takeChunk(of job: ThreadPoolJob, worker: Int) -> Int? {
        condition.lock(); defer { condition.unlock() }
        return job.shares.claim(worker: worker)
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
        job.end()
        self.job = nil
        if waitingCallers > 0 { condition.broadcast() }
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
            SpinningCondition.pause()
            spins += 1
            if spins & 3 == 0, DispatchTime.now().uptimeNanoseconds > deadline {
                condition.lock()
                return ready()
            }
            condition.lock()
        }
        return true
    }

    /// True when the worker has something to do: shut down, or a chunk to take.
    private var hasWork: Bool {
        isShutDown || (job?.shares.hasUnclaimedChunk ?? false)
    }

    /// Worker `worker`: polls, then sleeps, until a job has unclaimed chunks; runs them as
    /// `worker`; repeats until shut down.
    func workerLoop(worker: Int) {
        condition.lock()
        workerThreads[worker] = pthread_self()
        while true {
            if isShutDown { condition.unlock(); return }
            if let job, let chunk = job.shares.claim(worker: worker) {
                condition.unlock()
                job.run(chunk, worker: worker)
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
