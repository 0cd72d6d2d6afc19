// RANGE: `start, start + delta, …` up to (excluding) `limit`.

/// Reference RANGE kernel.
public enum ArithmeticRange {
    /// Number of elements, as the reference computes it; nil when `delta` is zero or points
    /// away from `limit`.
    public static func count(start: Double, limit: Double, delta: Double, integral: Bool) -> Int? {
        guard delta != 0, !(start > limit && delta > 0), !(start < limit && delta < 0) else { return nil }
        let n: Double
        if integral {
            n = ((abs(limit - start) + abs(delta) - 1) / abs(delta)).rounded(.towardZero)
        } else {
            n = abs((limit - start) / delta).rounded(.up)
        }
        guard n.isFinite, n >= 0, n < Double(Int32.max) else { return nil }
        return Int(n)
    }

    /// Writes `count` values starting at `start`, accumulating `delta` as the reference does.
    /// - Precondition: `count ≥ 0`; every pointer holds at least `count` elements.
    ///   Checked under `LITEVISION_INTERNAL_CHECKS` as far as the arguments show it.
    @inlinable
    public static func run<Element: Numeric>(start: Element, delta: Element, count: Int, output: UnsafeMutablePointer<Element>) {
        KernelPrecondition.validCount(count)
        var value = start
        for i in 0..<count {
            output[i] = value
            if i + 1 < count { value += delta }
        }
    }
}
