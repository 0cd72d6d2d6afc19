/// Tunable noise levels of the constant-velocity box motion model.
///
/// Noise is relative to the box size (width for x and width, height for y and height),
/// so the same settings work for small and large objects.
public struct MotionModelParameters: Hashable, Sendable {
    /// Standard deviation of a detector's box edges, as a fraction of the box size.
    public var measurementNoise: Double
    /// Standard deviation of the random acceleration, as a fraction of the box size per second².
    public var accelerationNoise: Double
    /// Standard deviation of the unknown initial velocity, as a fraction of the box size per second.
    public var initialVelocityNoise: Double

    /// Defaults suited to detections at video rates (tens of frames per second).
    public init(measurementNoise: Double = 0.05, accelerationNoise: Double = 2,
                initialVelocityNoise: Double = 2) {
        self.measurementNoise = measurementNoise
        self.accelerationNoise = accelerationNoise
        self.initialVelocityNoise = initialVelocityNoise
    }
}

/// A constant-velocity Kalman filter over a box's center and size.
///
/// The four coordinates (center x, center y, width, height) are filtered independently,
/// which equals a joint filter whose covariance is block diagonal, as in SORT/DeepSORT.
struct BoxMotionModel: Sendable {
    private var centerX: ConstantVelocityFilter
    private var centerY: ConstantVelocityFilter
    private var width: ConstantVelocityFilter
    private var height: ConstantVelocityFilter
    private let parameters: MotionModelParameters
    /// Smallest width and height the model will report, in pixels.
    private static let minimumSize = 1e-3

    /// Starts at `box`, at rest.
    init(box: BoundingBox, parameters: MotionModelParameters) {
        self.parameters = parameters
        let w = max(box.width, Self.minimumSize), h = max(box.height, Self.minimumSize)
        let rw = Self.square(parameters.measurementNoise * w), rh = Self.square(parameters.measurementNoise * h)
        let vw = Self.square(parameters.initialVelocityNoise * w), vh = Self.square(parameters.initialVelocityNoise * h)
        centerX = ConstantVelocityFilter(position: box.centerX, positionVariance: rw, velocityVariance: vw)
        centerY = ConstantVelocityFilter(position: box.centerY, positionVariance: rh, velocityVariance: vh)
        width = ConstantVelocityFilter(position: w, positionVariance: rw, velocityVariance: vw)
        height = ConstantVelocityFilter(position: h, positionVariance: rh, velocityVariance: vh)
    }

    /// The current estimate.
    var box: BoundingBox {
        BoundingBox(centerX: centerX.position, centerY: centerY.position,
                    width: max(width.position, Self.minimumSize), height: max(height.position, Self.minimumSize))
    }

    /// Estimated velocity of the center in pixels per second.
    var centerVelocity: (dx: Double, dy: Double) { (centerX.velocity, centerY.velocity) }

    /// Moves the estimate `dt` seconds forward.
    mutating func predict(dt: Double) {
        let current = box
        let qw = Self.square(parameters.accelerationNoise * current.width)
        let qh = Self.square(parameters.accelerationNoise * current.height)
        centerX.predict(dt: dt, accelerationVariance: qw)
        width.predict(dt: dt, accelerationVariance: qw)
        centerY.predict(dt: dt, accelerationVariance: qh)
        height.predict(dt: dt, accelerationVariance: qh)
    }

    /// Corrects the estimate with an observed box (ignored when the box is invalid).
    mutating func update(with observed: BoundingBox) {
        guard observed.isValid else { return }
        let rw = Self.square(parameters.measurementNoise * observed.width)
        let rh = Self.square(parameters.measurementNoise * observed.height)
        centerX.update(measurement: observed.centerX, variance: rw)
        width.update(measurement: observed.width, variance: rw)
        centerY.update(measurement: observed.centerY, variance: rh)
        height.update(measurement: observed.height, variance: rh)
    }

    /// Moves the estimate into the current frame's coordinates after the camera moved
    /// (centre mapped by `motion`, size and velocities scaled).
    mutating func compensate(_ motion: CameraMotion) {
        guard motion.isFinite else { return }
        let center = motion.apply(x: centerX.position, y: centerY.position)
        let s = motion.scale
        guard s.x > 0, s.y > 0 else { return }
        let velocity = motion.applyToVector(dx: centerX.velocity, dy: centerY.velocity)
        centerX.transform(scale: s.x, offset: center.x - s.x * centerX.position)
        centerY.transform(scale: s.y, offset: center.y - s.y * centerY.position)
        // A rotation turns the velocity; the scaled filters above only stretched it.
        centerX.setVelocity(velocity.dx)
        centerY.setVelocity(velocity.dy)
        width.transform(scale: s.x, offset: 0)
        height.transform(scale: s.y, offset: 0)
    }

    private static func square(_ v: Double) -> Double { v * v }
}
