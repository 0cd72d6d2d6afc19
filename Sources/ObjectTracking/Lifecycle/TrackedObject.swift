/// A confirmed object the tracker reports for a frame.
public struct TrackedObject: Hashable, Sendable {
    /// Stable identifier: the same object keeps the same ID across frames (IDs start at 1
    /// and are never reused by one tracker).
    public var trackingID: Int
    /// The box for this frame: the matched detection's box, or the filtered estimate when
    /// ``TrackerConfiguration/reportsFilteredBoxes`` is set.
    public var box: BoundingBox
    /// The motion model's estimate after this frame's update.
    public var filteredBox: BoundingBox
    /// Estimated center velocity in pixels per second.
    public var velocityX: Double
    /// Estimated center velocity in pixels per second.
    public var velocityY: Double
    /// Score of the matched detection.
    public var score: Double
    /// Class index of the matched detection, if any.
    public var classIndex: Int?
    /// Index of the matched detection in the array given to ``ObjectTracker/update(with:at:)``.
    public var detectionIndex: Int
    /// Number of frames this track has been matched in.
    public var hits: Int
    /// Seconds since the track was created.
    public var age: Double
}
