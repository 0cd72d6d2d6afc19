/// An axis-aligned rectangle in pixel coordinates: `x`, `y` is the top-left corner.
///
/// A box with a non-positive or non-finite width or height is *empty*: its area is 0 and
/// its intersection-over-union with any box is 0.
public struct BoundingBox: Hashable, Sendable, CustomStringConvertible {
    /// Left edge in pixels.
    public var x: Double
    /// Top edge in pixels.
    public var y: Double
    /// Width in pixels.
    public var width: Double
    /// Height in pixels.
    public var height: Double

    /// A box from its top-left corner and size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// A box from its center and size.
    public init(centerX: Double, centerY: Double, width: Double, height: Double) {
        self.init(x: centerX - width / 2, y: centerY - height / 2, width: width, height: height)
    }

    /// Horizontal center.
    public var centerX: Double { x + width / 2 }
    /// Vertical center.
    public var centerY: Double { y + height / 2 }
    /// Right edge.
    public var maxX: Double { x + width }
    /// Bottom edge.
    public var maxY: Double { y + height }

    /// True when the box has finite coordinates and a positive width and height.
    public var isValid: Bool {
        x.isFinite && y.isFinite && width.isFinite && height.isFinite && width > 0 && height > 0
    }

    /// Area in square pixels; 0 for an empty box.
    public var area: Double { isValid ? width * height : 0 }

    /// Intersection over union with `other`, in [0, 1]; 0 when either box is empty.
    public func intersectionOverUnion(_ other: BoundingBox) -> Double {
        guard isValid, other.isValid else { return 0 }
        let left = max(x, other.x), right = min(maxX, other.maxX)
        let top = max(y, other.y), bottom = min(maxY, other.maxY)
        guard right > left, bottom > top else { return 0 }
        let intersection = (right - left) * (bottom - top)
        let union = area + other.area - intersection
        return union > 0 ? intersection / union : 0
    }

    /// `"(x, y, width x height)"`.
    public var description: String { "(\(x), \(y), \(width) x \(height))" }
}
