/// One BlazeFace-style model as its MediaPipe graph configures it: the anchor layout
/// (`SsdAnchorsCalculator`) and the score a detection needs (`TensorsToDetectionsCalculator`'s
/// `min_score_thresh`), which MediaPipe sets per model.
public struct AnchorSSDModel: Sendable, Equatable {
    /// The anchors; they also identify the model (input size and anchor count).
    public var anchors: SSDAnchorOptions
    /// Score threshold used when the caller gives none.
    public var scoreThreshold: Float

    /// Pairs an anchor layout with its default score threshold.
    public init(anchors: SSDAnchorOptions, scoreThreshold: Float) {
        self.anchors = anchors; self.scoreThreshold = scoreThreshold
    }

    /// Short range (128×128): `face_detection_short_range_common.pbtxt`, threshold 0.5.
    public static let faceShortRange = AnchorSSDModel(anchors: .faceShortRange, scoreThreshold: 0.5)
    /// Full range (192×192): `face_detection_full_range_common.pbtxt`, threshold 0.6.
    public static let faceFullRange = AnchorSSDModel(anchors: .faceFullRange, scoreThreshold: 0.6)
    /// Back camera (256×256): `face_detection_back_desktop_live.pbtxt`, threshold 0.65.
    public static let faceBackCamera = AnchorSSDModel(anchors: .faceBackCamera, scoreThreshold: 0.65)
}
