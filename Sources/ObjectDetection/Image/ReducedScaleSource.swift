/// The full-size photo a ``VisionImage`` was decoded from at a reduced scale (a JPEG decoded
/// at 1/2, 1/4 or 1/8 because the models need far fewer pixels than the photo has).
///
/// ``ObjectDetector`` reports results in the source photo's upright pixel coordinates: each
/// box is multiplied by ``scale`` and clipped to the source's upright size, so a caller sees
/// the same coordinates whether or not the photo was decoded reduced.
public struct ReducedScaleSource: Sendable, Equatable, Hashable {
    /// Width of the full-size photo, in the stored (not upright) orientation.
    public let width: Int
    /// Height of the full-size photo, in the stored (not upright) orientation.
    public let height: Int
    /// Source pixels per pixel of the decoded image along each axis (2, 4 or 8 for JPEG's
    /// reduced scales): decoded pixel `i` covers source pixels `i·scale ..< (i+1)·scale`.
    public let scale: Double

    /// Describes a `width` × `height` source decoded at `1/scale`.
    /// - Precondition: `width`, `height` > 0 and `scale` ≥ 1 and finite.
    public init(width: Int, height: Int, scale: Double) {
        precondition(width > 0 && height > 0 && scale.isFinite && scale >= 1, "invalid reduced-scale source")
        self.width = width; self.height = height; self.scale = scale
    }

    /// `rect` (upright coordinates of the reduced image whose orientation is `orientation`)
    /// in the upright coordinates of the source photo: scaled, then clipped to the source.
    public func sourceRect(_ rect: ImageRect, orientation: ImageOrientation) -> ImageRect {
        let uprightWidth = Double(orientation.swapsDimensions ? height : width)
        let uprightHeight = Double(orientation.swapsDimensions ? width : height)
        let scaled = ImageRect(x: rect.x * scale, y: rect.y * scale, width: rect.width * scale, height: rect.height * scale)
        return scaled.intersection(ImageRect(x: 0, y: 0, width: uprightWidth, height: uprightHeight))
    }
}
