/// Processes a live stream of frames one at a time, dropping the frames that arrive while a
/// frame is being processed (the camera pipeline's `alwaysDiscardsLateVideoFrames`): results
/// stay current instead of falling behind.
public struct FrameStreamProcessor<Frame: Sendable, Result: Sendable>: Sendable {
    /// Counts of one run.
    public struct Statistics: Sendable, Equatable {
        /// Frames processed.
        public var processed = 0
        /// Frames dropped because the processor was busy.
        public var dropped = 0
        /// Creates counts.
        public init(processed: Int = 0, dropped: Int = 0) { self.processed = processed; self.dropped = dropped }
    }

    private let process: @Sendable (Frame) throws -> Result

    /// A processor that calls `process` synchronously for each frame it takes.
    public init(process: @escaping @Sendable (Frame) throws -> Result) {
        self.process = process
    }

    /// Consumes `frames` until it ends, handing each processed frame's result to `onResult`.
    /// Only the newest waiting frame is kept; older waiting frames are dropped and counted.
    /// Rethrows the first processing error.
    public func run<Frames: AsyncSequence & Sendable>(
        _ frames: Frames, onResult: (Frame, Result) async throws -> Void
    ) async throws -> Statistics where Frames.Element == Frame {
        let (latest, continuation) = AsyncStream.makeStream(of: Frame.self, bufferingPolicy: .bufferingNewest(1))
        let feeder = Task<Int, any Error> {
            var dropped = 0
            for try await frame in frames {
                if case .dropped = continuation.yield(frame) { dropped += 1 }
            }
            continuation.finish()
            return dropped
        }
        var statistics = Statistics()
        do {
            for await frame in latest {
                let result = try process(frame)
                statistics.processed += 1
                try await onResult(frame, result)
            }
        } catch {
            feeder.cancel()
            continuation.finish()
            throw error
        }
        statistics.dropped = try await feeder.value
        return statistics
    }
}
