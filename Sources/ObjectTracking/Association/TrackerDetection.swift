/// One detector output handed to the tracker for a frame.
public struct TrackerDetection: Hashable, Sendable {
    /// The detected box in pixel coordinates.
    public var box: BoundingBox
    /// Detector confidence in [0, 1].
    public var score: Double
    /// Class or category index, if the detector labels objects. With
    /// ``TrackerConfiguration/isClassAware`` a track only matches detections of its own class.
    public var classIndex: Int?
    /// Optional appearance cue (color histogram, embedding) for association and re-identification.
    public var appearance: AppearanceDescriptor?

    /// Creates a detection.
    public init(box: BoundingBox, score: Double = 1, classIndex: Int? = nil, appearance: AppearanceDescriptor? = nil) {
        self.box = box; self.score = score; self.classIndex = classIndex; self.appearance = appearance
    }
}
