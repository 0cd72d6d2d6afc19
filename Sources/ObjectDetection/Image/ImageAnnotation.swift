/// One box to draw on an annotated image, with an optional label and tracking ID.
public struct ImageAnnotation: Sendable, Hashable {
    /// The box in upright image coordinates.
    public var frame: ImageRect
    /// Label text (e.g. `"Food 0.87"`); the tracking ID is prepended as `#ID`.
    public var label: String?
    /// Tracking ID; selects the color.
    public var trackingID: Int?
    /// Explicit color; default is ``AnnotationPalette/color(forTrackingID:)``.
    public var color: RGBColor?

    /// Creates an annotation.
    public init(frame: ImageRect, label: String? = nil, trackingID: Int? = nil, color: RGBColor? = nil) {
        self.frame = frame
        self.label = label
        self.trackingID = trackingID
        self.color = color
    }

    /// The text drawn in the label box: `"#ID label"`, either part optional.
    public var caption: String {
        [trackingID.map { "#\($0)" }, label].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
    }
}
