/// A one-dimensional Kalman filter with a constant-velocity motion model.
///
/// State: position and velocity (per second). Process noise is continuous white
/// acceleration with spectral density `accelerationVariance`; measurements observe the
/// position with variance supplied per update, so callers can scale noise with box size.
struct ConstantVelocityFilter: Sendable {
    /// Estimated position.
    private(set) var position: Double
    /// Estimated velocity in units per second.
    private(set) var velocity: Double
    // Covariance [[pp, pv], [pv, vv]].
    private var pp: Double
    private var pv: Double
    private var vv: Double

    /// Starts at `position` with zero velocity and the given variances.
    init(position: Double, positionVariance: Double, velocityVariance: Double) {
        self.position = position
        velocity = 0
        pp = positionVariance
        pv = 0
        vv = velocityVariance
    }

    /// Variance of the position estimate.
    var positionVariance: Double { pp }

    /// Advances the state by `dt` seconds (`dt <= 0` leaves it unchanged).
    mutating func predict(dt: Double, accelerationVariance q: Double) {
        guard dt > 0, dt.isFinite else { return }
        position = velocity * dt + position
        let dt2 = dt * dt, dt3 = dt2 * dt
        pp = pp + 2 * dt * pv + dt2 * vv + q * dt3 / 3
        pv = pv + dt * vv + q * dt2 / 2
        vv = vv + q * dt
    }

    /// Folds in a position measurement `z` with variance `r`.
    mutating func update(measurement z: Double, variance r: Double) {
        guard z.isFinite, r > 0, r.isFinite else { return }
        let s = pp + r
        let gainPosition = pp / s
        let gainVelocity = pv / s
        let innovation = z - position
        position = gainPosition * innovation + position
        velocity = gainVelocity * innovation + velocity
        let newPV = pv * (1 - gainPosition)
        vv = vv - gainVelocity * pv
        pp = pp * (1 - gainPosition)
        pv = newPV
    }

    /// Re-expresses the state in a moved coordinate frame: `position' = scale · position + offset`
    /// (velocity and covariance scale with it). Used for camera-motion compensation.
    mutating func transform(scale: Double, offset: Double) {
        guard scale.isFinite, scale > 0, offset.isFinite else { return }
        position = scale * position + offset
        velocity *= scale
        pp *= scale * scale
        pv *= scale * scale
        vv *= scale * scale
    }

    /// Replaces the velocity estimate (covariance unchanged).
    mutating func setVelocity(_ v: Double) {
        if v.isFinite { velocity = v }
    }
}
