// Float → integer conversions used by the quantizing data-movement kernels.

/// Rounding conversions that never trap on NaN or out-of-range values.
public enum SaturatingRound {
    /// `x` rounded half away from zero (C `round`), saturated to Int32; NaN gives 0.
    @inlinable @inline(__always)
    public static func toInt32(_ x: Float) -> Int32 {
        let r = x.rounded(.toNearestOrAwayFromZero)
        if r.isNaN { return 0 }
        if r >= 2147483648 { return Int32.max }
        if r < -2147483648 { return Int32.min }
        return Int32(r)
    }

    /// `x` truncated toward zero (C cast), saturated to Int32; NaN gives 0.
    @inlinable @inline(__always)
    public static func truncatingToInt32(_ x: Float) -> Int32 {
        if x.isNaN { return 0 }
        if x >= 2147483648 { return Int32.max }
        if x < -2147483648 { return Int32.min }
        return Int32(x)
    }

    /// Clamps `x` to `lo...hi`.
    @inlinable @inline(__always)
    public static func clamp(_ x: Int32, _ lo: Int32, _ hi: Int32) -> Int32 { min(hi, max(lo, x)) }
}
