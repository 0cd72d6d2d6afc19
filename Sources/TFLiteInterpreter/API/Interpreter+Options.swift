import TFLiteSchema

extension Interpreter {
    /// Options for creating an interpreter.
    public struct Options: Equatable, Hashable, Sendable {
        /// Threads kernels may use (the calling thread included); nil means every active core.
        public var threadCount: Int?
        /// Measure the time of every operator at invoke (see ``Interpreter/operatorProfile``).
        public var isProfilingEnabled = false
        /// Ceilings on what the model may make the interpreter allocate (per tensor, and in
        /// total: derived constants, values computed at prepare, the arena, variables), checked
        /// at load and at ``Interpreter/allocateTensors()`` before allocating. Applies to the
        /// model too when the interpreter loads it (``Interpreter/init(modelPath:options:)``).
        public var resourceLimits = ResourceLimits.default
        /// Whether float convolutions may use fused multiply-adds (``FloatArithmetic``; by
        /// default they do unless the model quantizes float activations).
        public var floatArithmetic = FloatArithmetic.automatic
        /// TensorFlowLiteSwift's switch for its XNNPACK delegate, accepted so ported code
        /// compiles; **ignored**: this engine always runs its own kernels (generated for the
        /// CPU found), with or without it, and gives the same results either way.
        public var isXNNPackEnabled = false
        /// Indices (in the main subgraph) of intermediate tensors whose values stay readable
        /// after ``Interpreter/invoke()`` through ``Interpreter/preservedTensor(at:)``: the arena
        /// keeps them live for the whole run, as it does graph outputs, and node fusions never
        /// skip them. Empty by default (intermediate memory is reused).
        public var preservedTensorIndices: Set<Int> = []

        /// Default options: all cores.
        public init() {}

        /// Options with an explicit thread count.
        public init(threadCount: Int?) { self.threadCount = threadCount }

        /// Options with an explicit thread count and resource limits.
        public init(threadCount: Int?, resourceLimits: ResourceLimits) {
            self.threadCount = threadCount
            self.resourceLimits = resourceLimits
        }
    }
}
