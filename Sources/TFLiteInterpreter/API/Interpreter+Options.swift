extension Interpreter {
    /// Options for creating an interpreter.
    public struct Options: Equatable, Hashable, Sendable {
        /// Threads kernels may use (the calling thread included); nil means every active core.
        public var threadCount: Int?

        /// Default options: all cores.
        public init() {}

        /// Options with an explicit thread count.
        public init(threadCount: Int?) { self.threadCount = threadCount }
    }
}
