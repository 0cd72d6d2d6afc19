/// How the camera moved between two frames: an affine map from the previous frame's pixel
/// coordinates to the current frame's, `x' = a·x + b·y + tx`, `y' = c·x + d·y + ty`.
///
/// The tracker moves every track by it before association (camera-motion compensation, as in
/// BoT-SORT), so a pan does not look like every object jumping. A translation is what a
/// panning or shaking camera mostly produces; ``GlobalMotionEstimator`` measures one.
public struct CameraMotion: Hashable, Sendable {
    public var a: Double, b: Double, tx: Double
    public var c: Double, d: Double, ty: Double

    /// An affine map from its six coefficients.
    public init(a: Double, b: Double, tx: Double, c: Double, d: Double, ty: Double) {
        self.a = a; self.b = b; self.tx = tx; self.c = c; self.d = d; self.ty = ty
    }

    /// A pure translation by `(dx, dy)` pixels.
    public static func translation(dx: Double, dy: Double) -> CameraMotion {
        CameraMotion(a: 1, b: 0, tx: dx, c: 0, d: 1, ty: dy)
    }

    /// No motion.
    public static let identity = CameraMotion.translation(dx: 0, dy: 0)

    /// True when every coefficient is finite.
    public var isFinite: Bool { [a, b, tx, c, d, ty].allSatisfy(\.isFinite) }

    /// Where the point `(x, y)` of the previous frame is now.
    public func apply(x: Double, y: Double) -> (x: Double, y: Double) {
        (a * x + b * y + tx, c * x + d * y + ty)
    }

    /// A velocity (or any difference vector) of the previous frame in the current one.
    public func applyToVector(dx: Double, dy: Double) -> (dx: Double, dy: Double) {
        (a * dx + b * dy, c * dx + d * dy)
    }

    /// Horizontal and vertical scale factors (lengths of the transformed unit vectors).
    public var scale: (x: Double, y: Double) {
        ((a * a + c * c).squareRoot(), (b * b + d * d).squareRoot())
    }

    /// The axis-aligned box around where `box` is now: its centre mapped, its size scaled.
    public func apply(to box: BoundingBox) -> BoundingBox {
        let center = apply(x: box.centerX, y: box.centerY)
        let s = scale
        return BoundingBox(centerX: center.x, centerY: center.y, width: box.width * s.x, height: box.height * s.y)
    }
}
