/// A source of timestamps in seconds for the tracker's motion model.
///
/// Inject ``ManualTrackingClock`` in tests to make time deterministic; use
/// ``SystemTrackingClock`` (monotonic) in live pipelines, or pass explicit frame
/// timestamps to ``ObjectTracker/update(with:at:)`` for video.
public protocol TrackingClock: AnyObject {
    /// The current time in seconds. Must never decrease.
    func now() -> Double
}

/// A monotonic wall clock: seconds elapsed since the clock was created.
public final class SystemTrackingClock: TrackingClock, @unchecked Sendable {
    // Immutable after init, so sharing across threads is safe.
    private let origin: ContinuousClock.Instant
    private let clock = ContinuousClock()

    /// A clock whose time starts at 0 now.
    public init() { origin = clock.now }

    /// Seconds since creation.
    public func now() -> Double {
        let elapsed = clock.now - origin
        let parts = elapsed.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }
}

/// A clock that only moves when told to: deterministic time for tests and offline replays.
public final class ManualTrackingClock: TrackingClock {
    private var current: Double

    /// A clock that reads `start` seconds until advanced.
    public init(start: Double = 0) { current = start }

    /// The current time in seconds.
    public func now() -> Double { current }

    /// Moves the clock forward by `seconds` (negative values are ignored: time never runs back).
    public func advance(by seconds: Double) {
        if seconds > 0, seconds.isFinite { current += seconds }
    }
}
