/// Tunable behaviour of ``ObjectTracker``.
public struct TrackerConfiguration: Hashable, Sendable {
    /// Smallest IoU between a track's predicted box and a confident detection for them to match.
    public var minimumIoU: Double
    /// Detections scoring at least this are *confident*: they are associated first and may
    /// start tracks. Lower-scoring ones (an object partly hidden, blurred) are associated in a
    /// second stage with the tracks still unmatched, on IoU alone (≥ ``lowScoreMinimumIoU``),
    /// as in ByteTrack; they never start a track and never update a track's appearance.
    /// 0 makes every detection confident.
    public var confidentScore: Double
    /// Smallest IoU for the second-stage (low-score) association.
    public var lowScoreMinimumIoU: Double
    /// Weight of appearance similarity in the matching score when both sides carry an
    /// ``AppearanceDescriptor`` (0 = IoU only, 1 = appearance only). IoU gating still applies.
    public var appearanceWeight: Double
    /// The re-identification threshold: smallest appearance similarity (cosine) for giving a
    /// lost track back its ID when its object reappears away from where it was lost.
    public var minimumAppearanceSimilarity: Double
    /// How much more a reappearing object must look like the lost track than like any other
    /// track of its class (confirmed or lost) to be re-identified. Keeps two objects of the
    /// same class from swapping IDs; when in doubt the object gets a new ID.
    public var reidentificationMargin: Double
    /// Evidence (the sum of its detections' scores) a track needs before it can be re-identified
    /// away from where it was lost, or veto another track's re-identification: a flickering
    /// false positive (a few weak detections) is not remembered across the frame.
    public var minimumReidentificationEvidence: Double
    /// Largest ratio between the areas of a lost track's box and a detection for re-identification.
    public var maximumReidentificationAreaRatio: Double
    /// Matched frames before a track is confirmed and reported (1 = report at once).
    public var minimumHitsToConfirm: Int
    /// The lost-track window in frames: a confirmed track that goes unmatched (state `lost`) is
    /// kept, and can be re-identified, while it has missed at most this many frames **or** has
    /// been unseen for at most ``lostTrackWindow`` seconds (whichever keeps it longer).
    public var maximumMissedFrames: Int
    /// The lost-track window in seconds (see ``maximumMissedFrames``). Default 2 s.
    public var lostTrackWindow: Double
    /// Class-aware matching: a track is re-identified only by a detection of a class the
    /// detector has often given it (at least a quarter of its score-weighted class votes), and
    /// where it is, a detection of another class counts half. Nil classes match anything.
    public var isClassAware: Bool
    /// How tracks and detections are paired in each stage: greedy (default: best match score
    /// first) or optimal (maximum total match score, Hungarian method). On the tracking
    /// benchmark greedy makes fewer ID switches in crowds, because a maximum-weight matching
    /// will trade one strong pair for two mediocre ones.
    public var assignment: AssignmentStrategy
    /// Report the motion model's filtered box instead of the raw detection box.
    public var reportsFilteredBoxes: Bool
    /// How fast a track's appearance follows new observations (0...1).
    public var appearanceUpdateRate: Float
    /// A detection whose box is covered by other detections by more than this fraction of its
    /// area is partly hidden: it updates its track's position but not its appearance (the
    /// pixels are partly someone else's).
    public var occludedAppearanceOverlap: Double
    /// A matched detection whose box is smaller than this fraction of the box the track's
    /// appearance was last taken from is a *partial view* (the object suddenly partly hidden,
    /// only its head seen above an occluder): it moves the track but does not update the
    /// track's appearance, which keeps describing the whole object for re-identification. A
    /// shrink this abrupt is not an object moving away at video rates; an object that did shrink
    /// while unseen gets a new reference when it is re-identified. 0 disables it.
    public var partialViewArea: Double
    /// A detection at least this fraction of whose box lies inside a larger detection's box of
    /// the same class is a *part* of that object (a person's head above an occluder, a
    /// motorcycle's wheel), which the detector's non-maximum suppression keeps because a part's
    /// IoU with the whole is small. Parts are treated as low-score detections whatever their
    /// score: they may continue a track seen in the previous frame in the second association
    /// stage (where the whole, when it is there too, wins on IoU), but neither take a track's
    /// place in the first stage, start a track, re-identify a lost track nor update appearance.
    /// Only detections that both carry a class are compared; values above 1 disable it. A
    /// new object that first appears wholly inside a larger one of its class gets its track once
    /// it shows outside that box.
    public var partContainment: Double
    /// Noise levels of the motion model.
    public var motion: MotionModelParameters

    /// Defaults tuned on the tracking benchmarks in `Tests/ObjectTrackingTests` and `Tests/ObjectDetectionTests`.
    public init(minimumIoU: Double = 0.3, confidentScore: Double = 0.5, lowScoreMinimumIoU: Double = 0.5,
                appearanceWeight: Double = 0.5, minimumAppearanceSimilarity: Double = 0.9,
                reidentificationMargin: Double = 0.05, minimumReidentificationEvidence: Double = 3,
                maximumReidentificationAreaRatio: Double = 4, minimumHitsToConfirm: Int = 2,
                maximumMissedFrames: Int = 30, lostTrackWindow: Double = 2,
                isClassAware: Bool = true, assignment: AssignmentStrategy = .greedy,
                reportsFilteredBoxes: Bool = false, appearanceUpdateRate: Float = 0.2,
                occludedAppearanceOverlap: Double = 0.2, partContainment: Double = 0.8, partialViewArea: Double = 0.5,
                motion: MotionModelParameters = MotionModelParameters()) {
        self.minimumIoU = minimumIoU
        self.confidentScore = confidentScore
        self.lowScoreMinimumIoU = lowScoreMinimumIoU
        self.appearanceWeight = appearanceWeight
        self.minimumAppearanceSimilarity = minimumAppearanceSimilarity
        self.reidentificationMargin = reidentificationMargin
        self.minimumReidentificationEvidence = minimumReidentificationEvidence
        self.maximumReidentificationAreaRatio = maximumReidentificationAreaRatio
        self.minimumHitsToConfirm = minimumHitsToConfirm
        self.maximumMissedFrames = maximumMissedFrames
        self.lostTrackWindow = lostTrackWindow
        self.isClassAware = isClassAware
        self.assignment = assignment
        self.reportsFilteredBoxes = reportsFilteredBoxes
        self.appearanceUpdateRate = appearanceUpdateRate
        self.occludedAppearanceOverlap = occludedAppearanceOverlap
        self.partContainment = partContainment
        self.partialViewArea = partialViewArea
        self.motion = motion
    }
}
