extension Interpreter {
    /// Options for creating an interpreter.
    public struct Options: Equatable, Hashable, Sendable {
        /// Threads kernels may use (the calling thread included); nil means every active core.
        public var threadCount: Int?
        /// Measure the time of every operator at invoke (see ``Interpreter/operatorProfile``).
        public var isProfilingEnabled = false

        /// Default options: all cores.
        public init() {}

        /// Options with an explicit thread count.
        public init(threadCount: Int?) { self.threadCount = threadCount }
    }
}
