/// Per-channel requantization tables for the optimized epilogues: the multipliers and shifts
/// of `QuantizedConvolutionParameters` as separate raw arrays (padded to a multiple of 16), so
/// a tile of 16 accumulators is requantized without bounds checks or array traffic, with
/// exactly the arithmetic of `multiplyByQuantizedMultiplier` (the reference's double rounding).
/// Built once at prepare; immutable afterwards.
public final class ConvRequantizer: @unchecked Sendable {
    /// Q31 multipliers per channel (0 in the padding lanes).
    let multipliers: UnsafeMutablePointer<Int32>
    /// Left shifts (`max(shift, 0)`) per channel.
    let leftShifts: UnsafeMutablePointer<Int32>
    /// Right shifts (`max(-shift, 0)`) per channel.
    let rightShifts: UnsafeMutablePointer<Int32>
    /// The scalar parameters (offsets, clamp) and the per-channel multipliers.
    public let parameters: QuantizedConvolutionParameters

    /// Lays out `parameters` for the epilogues.
    public init(_ parameters: QuantizedConvolutionParameters) {
        self.parameters = parameters
        let n = (parameters.outputMultipliers.count + 15) / 16 * 16
        multipliers = .allocate(capacity: max(16, n)); multipliers.initialize(repeating: 0, count: max(16, n))
        leftShifts = .allocate(capacity: max(16, n)); leftShifts.initialize(repeating: 0, count: max(16, n))
        rightShifts = .allocate(capacity: max(16, n)); rightShifts.initialize(repeating: 0, count: max(16, n))
        for (c, m) in parameters.outputMultipliers.enumerated() {
            multipliers[c] = m.multiplier
            leftShifts[c] = Int32(max(m.shift, 0))
            rightShifts[c] = Int32(max(-m.shift, 0))
        }
    }

    deinit {
        multipliers.deallocate(); leftShifts.deallocate(); rightShifts.deallocate()
    }

    /// Requantizes the first `lanes` accumulators of channels `channel ..< channel + lanes` and
    /// stores them as `Element`. Scalar 64-bit arithmetic per lane (the same steps as
    /// `multiplyByQuantizedMultiplier`), reading the per-channel tables directly: on x86-64
    /// without AVX-512 this beats vector 64-bit emulation by far.
    @inline(__always)
    func store<Element: FixedWidthInteger>(_ acc: SIMD16<Int32>, channel: Int, lanes: Int,
                                           to dst: UnsafeMutablePointer<Element>) {
        let offset = parameters.outputOffset, lo = parameters.activationMin, hi = parameters.activationMax
        withUnsafeBytes(of: acc) { raw in
            let a = raw.baseAddress!.assumingMemoryBound(to: Int32.self)
            for l in 0..<lanes {
                let c = channel + l
                let x = a[l] &<< leftShifts[c]
                let ab = Int64(x) &* Int64(multipliers[c])
                let v = ab &+ (ab >= 0 ? 1 << 30 : 1 - (1 << 30))
                var h = Int32(truncatingIfNeeded: (v >= 0 ? v : v &+ ((1 << 31) - 1)) >> 31)
                let e = rightShifts[c]
                let mask = (Int32(1) &<< e) &- 1
                let remainder = h & mask
                let threshold = (mask >> 1) &+ (h < 0 ? 1 : 0)
                h = (h >> e) &+ (remainder > threshold ? 1 : 0)
                h = min(max(h &+ offset, lo), hi)
                dst[l] = Element(truncatingIfNeeded: h)
            }
        }
    }
}
