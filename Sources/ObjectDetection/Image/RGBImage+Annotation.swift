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
