import ObjectTracking

extension ImageRect {
    /// The same rectangle as a tracker ``BoundingBox``.
    public var boundingBox: BoundingBox { BoundingBox(x: x, y: y, width: width, height: height) }

    /// Creates a rectangle from a tracker ``BoundingBox``.
    public init(_ box: BoundingBox) {
        self.init(x: box.x, y: box.y, width: box.width, height: box.height)
    }
}
