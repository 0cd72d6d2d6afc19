/// A persistent pool of worker threads for kernels that split work.
/// CONTRACT: `parallelFor` is the only API operators use.
final class ThreadPool: @unchecked Sendable {
    /// Number of threads that take part (the caller included).
    let threadCount: Int

    /// Creates a pool with `threadCount` threads (at least 1).
    init(threadCount: Int) { self.threadCount = max(1, threadCount) }

    /// Splits `0..<count` into at most `threadCount` contiguous chunks of at least `minChunk`
    /// and runs `body` on each, returning when all are done. Serial for now.
    func parallelFor(_ count: Int, minChunk: Int = 1, _ body: (Range<Int>) -> Void) {
        if count > 0 { body(0..<count) }
    }
}
