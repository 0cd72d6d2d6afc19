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

/// Distinct, saturated colors for boxes, chosen by tracking ID so one object keeps its color
/// across frames.
public enum AnnotationPalette {
    /// Twelve colors that stay distinguishable on photos.
    public static let colors: [RGBColor] = [
        RGBColor(red: 230, green: 25, blue: 75), RGBColor(red: 60, green: 180, blue: 75),
        RGBColor(red: 255, green: 225, blue: 25), RGBColor(red: 0, green: 130, blue: 200),
        RGBColor(red: 245, green: 130, blue: 48), RGBColor(red: 145, green: 30, blue: 180),
        RGBColor(red: 70, green: 240, blue: 240), RGBColor(red: 240, green: 50, blue: 230),
        RGBColor(red: 210, green: 245, blue: 60), RGBColor(red: 250, green: 190, blue: 212),
        RGBColor(red: 0, green: 128, blue: 128), RGBColor(red: 170, green: 110, blue: 40),
    ]

    /// The color for a tracking ID (negative IDs allowed); objects without an ID get the first color.
    public static func color(forTrackingID id: Int?) -> RGBColor {
        guard let id else { return colors[0] }
        let count = colors.count
        return colors[((id % count) + count) % count]
    }
}

extension RGBImage {
    /// Returns a copy with every annotation drawn in one pass: all boxes first, then all labels
    /// (so labels stay readable where boxes overlap).
    ///
    /// - Parameters:
    ///   - thickness: box line width; default scales with the image (1 px per 250 px of the
    ///     shorter side, at least 2).
    ///   - textScale: font pixel size; default is the shorter side / 320, rounded (at least 1).
    public func annotated(with annotations: [ImageAnnotation], thickness: Int? = nil,
                          textScale: Int? = nil) -> RGBImage {
        let shorter = min(width, height)
        let lineWidth = thickness ?? max(2, shorter / 250)
        let scale = textScale ?? max(1, Int((Double(shorter) / 320).rounded()))
        var canvas = self
        for annotation in annotations {
            let color = annotation.color ?? AnnotationPalette.color(forTrackingID: annotation.trackingID)
            canvas.drawRectangle(annotation.frame, color: color, thickness: lineWidth)
        }
        for annotation in annotations where !annotation.caption.isEmpty {
            let color = annotation.color ?? AnnotationPalette.color(forTrackingID: annotation.trackingID)
            canvas.drawLabel(annotation.caption, for: annotation.frame, background: color, scale: scale)
        }
        return canvas
    }
}
