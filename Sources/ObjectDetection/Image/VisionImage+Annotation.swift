import Foundation

extension ImageAnnotation {
    /// The annotation of a detected object: its box, its best label's caption and its
    /// tracking ID (which picks the color).
    public init(_ object: DetectedObject) {
        self.init(frame: ImageRect(x: Double(object.frame.minX), y: Double(object.frame.minY),
                                   width: Double(object.frame.width), height: Double(object.frame.height)),
                  label: object.labels.first?.caption, trackingID: object.trackingID)
    }
}

extension VisionImage {
    /// The upright image with every object's box, best label and tracking ID drawn in one
    /// pass (``RGBImage/annotated(with:thickness:textScale:)``), as `litevision detect
    /// --annotate` writes it. `objects` must be in this image's upright pixel coordinates.
    public func annotated(with objects: [DetectedObject]) -> RGBImage {
        uprightRGB().annotated(with: objects.map(ImageAnnotation.init))
    }
}
