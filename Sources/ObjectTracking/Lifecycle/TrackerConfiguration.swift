/// Tunable behaviour of ``ObjectTracker``.
public struct TrackerConfiguration: Hashable, Sendable {
    /// Smallest IoU between a track's predicted box and a detection for them to match.
    public var minimumIoU: Double
    /// Weight of appearance similarity in the matching score when both sides carry an
    /// ``AppearanceDescriptor`` (0 = IoU only, 1 = appearance only). IoU gating still applies.
    public var appearanceWeight: Double
    /// Smallest appearance similarity (cosine) for re-identifying a lost track away from its
    /// predicted position, and for any appearance-weighted match.
    public var minimumAppearanceSimilarity: Double
    /// Largest ratio between the areas of a lost track's box and a detection for re-identification.
    public var maximumReidentificationAreaRatio: Double
    /// Matched frames before a track is confirmed and reported (1 = report at once).
    public var minimumHitsToConfirm: Int
    /// Frames a confirmed track may go unmatched (state `lost`) before it is deleted.
    public var maximumMissedFrames: Int
    /// Detections scoring below this never start a track (they may still update one).
    public var minimumScoreToStartTrack: Double
    /// When true, a track only matches detections with the same `classIndex` (nil matches anything).
    public var isClassAware: Bool
    /// How tracks and detections are paired in each stage: greedy (default: best match score
    /// first) or optimal (maximum total match score, Hungarian method). On the tracking
    /// benchmark greedy makes fewer ID switches in crowds (1 vs 11 on the crowd scenario),
    /// because a maximum-weight matching will trade one strong pair for two mediocre ones.
    public var assignment: AssignmentStrategy
    /// Report the motion model's filtered box instead of the raw detection box.
    public var reportsFilteredBoxes: Bool
    /// How fast a track's appearance follows new observations (0...1).
    public var appearanceUpdateRate: Float
    /// Noise levels of the motion model.
    public var motion: MotionModelParameters

    /// Defaults tuned on the tracking benchmark in `Tests/ObjectTrackingTests`.
    public init(minimumIoU: Double = 0.3, appearanceWeight: Double = 0.5, minimumAppearanceSimilarity: Double = 0.9,
                maximumReidentificationAreaRatio: Double = 4, minimumHitsToConfirm: Int = 2,
                maximumMissedFrames: Int = 30, minimumScoreToStartTrack: Double = 0,
                isClassAware: Bool = true, assignment: AssignmentStrategy = .greedy,
                reportsFilteredBoxes: Bool = false, appearanceUpdateRate: Float = 0.2,
                motion: MotionModelParameters = MotionModelParameters()) {
        self.minimumIoU = minimumIoU
        self.appearanceWeight = appearanceWeight
        self.minimumAppearanceSimilarity = minimumAppearanceSimilarity
        self.maximumReidentificationAreaRatio = maximumReidentificationAreaRatio
        self.minimumHitsToConfirm = minimumHitsToConfirm
        self.maximumMissedFrames = maximumMissedFrames
        self.minimumScoreToStartTrack = minimumScoreToStartTrack
        self.isClassAware = isClassAware
        self.assignment = assignment
        self.reportsFilteredBoxes = reportsFilteredBoxes
        self.appearanceUpdateRate = appearanceUpdateRate
        self.motion = motion
    }
}
