/// An axis-aligned rectangle in pixel coordinates.
///
/// Coordinates are continuous: pixel `(i, j)` covers the square `[i, i+1) × [j, j+1)`,
/// so a rectangle covering a whole `W × H` image is `ImageRect(x: 0, y: 0, width: W, height: H)`.
public struct ImageRect: Sendable, Hashable, CustomStringConvertible {
    /// Left edge.
    public var x: Double
    /// Top edge.
    public var y: Double
    /// Horizontal extent (non-negative for a well-formed rectangle).
    public var width: Double
    /// Vertical extent (non-negative for a well-formed rectangle).
    public var height: Double

    /// Creates a rectangle from its origin and size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Creates the rectangle spanning two corner points given in any order.
    public init(corners x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        self.init(x: min(x0, x1), y: min(y0, y1), width: abs(x1 - x0), height: abs(y1 - y0))
    }

    /// Right edge, `x + width`.
    public var maxX: Double { x + width }
    /// Bottom edge, `y + height`.
    public var maxY: Double { y + height }
    /// Horizontal center.
    public var midX: Double { x + width / 2 }
    /// Vertical center.
    public var midY: Double { y + height / 2 }
    /// `width × height` (zero for degenerate rectangles).
    public var area: Double { max(0, width) * max(0, height) }
    /// True when the rectangle has no area.
    public var isEmpty: Bool { !(width > 0 && height > 0) }

    /// The overlap of two rectangles (an empty rectangle at the origin when they do not overlap).
    public func intersection(_ other: ImageRect) -> ImageRect {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return ImageRect(x: 0, y: 0, width: 0, height: 0) }
        return ImageRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// This rectangle clamped to `[0, width] × [0, height]`.
    public func clamped(width limitWidth: Int, height limitHeight: Int) -> ImageRect {
        intersection(ImageRect(x: 0, y: 0, width: Double(limitWidth), height: Double(limitHeight)))
    }

    /// `"(x, y, width, height)"`.
    public var description: String { "(\(x), \(y), \(width), \(height))" }
}
