/// What was found in one video frame, as `litevision track --json` prints it (one line per
/// frame): `{"frame": n, "objects": [...]}`.
public struct FrameDetectionRecord: Codable, Sendable, Equatable {
    /// The frame's position in the stream, from 0.
    public var frame: Int
    /// The objects, in the detector's order.
    public var objects: [DetectedObjectRecord]

    /// Creates a record from finished object records.
    public init(frame: Int, objects: [DetectedObjectRecord]) {
        self.frame = frame; self.objects = objects
    }

    /// The record of `objects` found in frame `frame`.
    public init(frame: Int, objects: [DetectedObject]) {
        self.init(frame: frame, objects: objects.map(DetectedObjectRecord.init))
    }
}
