/// Exact coordinate maps between a stored buffer and its upright image.
///
/// Points use continuous pixel coordinates (pixel `(i, j)` covers `[i, i+1) × [j, j+1)`), so
/// rectangles map exactly in both directions; integer pixel indices map with
/// ``storedPixel(uprightX:uprightY:)``.
public struct OrientationTransform: Sendable, Hashable {
    /// The orientation of the stored buffer.
    public let orientation: ImageOrientation
    /// Width of the stored buffer.
    public let storedWidth: Int
    /// Height of the stored buffer.
    public let storedHeight: Int

    /// Creates the transform for a stored `storedWidth × storedHeight` buffer.
    public init(orientation: ImageOrientation, storedWidth: Int, storedHeight: Int) {
        self.orientation = orientation
        self.storedWidth = storedWidth
        self.storedHeight = storedHeight
    }

    /// Width of the upright image.
    public var uprightWidth: Int { orientation.swapsDimensions ? storedHeight : storedWidth }
    /// Height of the upright image.
    public var uprightHeight: Int { orientation.swapsDimensions ? storedWidth : storedHeight }

    /// Maps a point of the upright image to the stored buffer.
    public func storedPoint(uprightX x: Double, uprightY y: Double) -> (x: Double, y: Double) {
        let m = orientation.uprightToStoredCoefficients
        let sx = Double(m.a) * x + Double(m.b) * y + (m.flipX ? Double(storedWidth) : 0)
        let sy = Double(m.c) * x + Double(m.d) * y + (m.flipY ? Double(storedHeight) : 0)
        return (sx, sy)
    }

    /// Maps a point of the stored buffer to the upright image (inverse of ``storedPoint(uprightX:uprightY:)``).
    public func uprightPoint(storedX x: Double, storedY y: Double) -> (x: Double, y: Double) {
        let m = orientation.uprightToStoredCoefficients
        let tx = x - (m.flipX ? Double(storedWidth) : 0)
        let ty = y - (m.flipY ? Double(storedHeight) : 0)
        // The linear part is a signed permutation matrix, so its inverse is its transpose.
        return (Double(m.a) * tx + Double(m.c) * ty, Double(m.b) * tx + Double(m.d) * ty)
    }

    /// Maps a rectangle of the upright image to the stored buffer.
    public func storedRect(fromUpright rect: ImageRect) -> ImageRect {
        let p0 = storedPoint(uprightX: rect.x, uprightY: rect.y)
        let p1 = storedPoint(uprightX: rect.maxX, uprightY: rect.maxY)
        return ImageRect(corners: p0.x, p0.y, p1.x, p1.y)
    }

    /// Maps a rectangle of the stored buffer to the upright image.
    public func uprightRect(fromStored rect: ImageRect) -> ImageRect {
        let p0 = uprightPoint(storedX: rect.x, storedY: rect.y)
        let p1 = uprightPoint(storedX: rect.maxX, storedY: rect.maxY)
        return ImageRect(corners: p0.x, p0.y, p1.x, p1.y)
    }

    /// The stored pixel index shown at upright pixel `(x, y)`; both must be in range.
    public func storedPixel(uprightX x: Int, uprightY y: Int) -> (x: Int, y: Int) {
        let m = orientation.uprightToStoredCoefficients
        let sx = m.a * x + m.b * y + (m.flipX ? storedWidth - 1 : 0)
        let sy = m.c * x + m.d * y + (m.flipY ? storedHeight - 1 : 0)
        return (sx, sy)
    }
}
