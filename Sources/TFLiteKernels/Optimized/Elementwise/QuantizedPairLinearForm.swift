/// One rounding that reproduces an 8-bit pair table exactly: `clamp((a·A + b·B + C) >> k)` for
/// every pair of codes `a`, `b`, in 32-bit lanes (`QuantizedPairLinear16AVX`).
///
/// Quantized ADD rounds three times (each input onto the common scale, then the sum onto the
/// output's), so no fixed formula with one rounding is exact for every model. But its table is
/// nearly linear in `a` and `b`, and over the 65,536 pairs of one layer a single rounding with
/// fine enough slopes usually lands on the same codes: `fit` searches such a form and proves it
/// against every entry of the layer's own table, which stays the ground truth. Where no form is
/// exact (one ADD in fifteen on the project's models), the table is used.
public struct QuantizedPairLinearForm: Sendable, Equatable {
    /// `A`, `B`: the slopes of the first and second code, scaled by `2^shift`.
    public let multiplierA: Int32
    public let multiplierB: Int32
    /// `C`: the offset, scaled by `2^shift`.
    public let addend: Int32
    /// `k`, the arithmetic right shift.
    public let shift: Int32
    /// The clamp applied after the shift (the table's activation range, as codes).
    public let minimum: Int32
    public let maximum: Int32

    /// The form's output code for codes `a`, `b` (the generated kernel's arithmetic, wrapping as 32-bit lanes do).
    @inline(__always)
    public func code(_ a: Int32, _ b: Int32) -> Int32 {
        let sum = a &* multiplierA &+ b &* multiplierB &+ addend
        return Swift.min(Swift.max(sum &>> shift, minimum), maximum)
    }

    /// Candidate shifts tried per table, from the finest whose products stay in 32 bits down.
    static let shiftsTried = 4

    /// A form equal to `table` (entries indexed `(UInt8(a) << 8) | UInt8(b)`, codes int8 when
    /// `signed`, else uint8) on all 65,536 pairs, or nil. `slopes` are the real output codes per
    /// input code (for ADD: each input's rescaling times the output's, signed for SUB); `range`
    /// is the clamp. Each candidate's offset is the intersection, over all pairs, of the offsets
    /// that give the pair's entry: an interval that the pair table's codes bound from both sides,
    /// and from one side where the entry is clamped.
    /// - Complexity: O(65,536) per candidate, at most `shiftsTried` candidates (at a model's
    ///   prepare, where the table is built).
    public static func fit(table: UnsafePointer<UInt8>, signed: Bool, slopes: (Double, Double),
                           range: ClosedRange<Int32>) -> QuantizedPairLinearForm? {
        guard range.lowerBound < range.upperBound, slopes.0.isFinite, slopes.1.isFinite,
              slopes.0 != 0 || slopes.1 != 0 else { return nil }
        let codes = UnsafeMutablePointer<Int64>.allocate(capacity: 256)    // by byte
        defer { codes.deallocate() }
        for byte in 0..<256 { codes[byte] = signed ? Int64(Int8(truncatingIfNeeded: byte)) : Int64(byte) }
        // The largest |code| is 128 (int8) or 255 (uint8); |a·A| + |b·B| stays under 2^31 (the
        // candidate check bounds the whole sum, offset included).
        let largest = signed ? 128.0 : 255.0
        let scale = largest * (abs(slopes.0) + abs(slopes.1))
        var top = 0
        while top < 30, scale * Double(Int64(1) << (top + 1)) < Double(Int64(1) << 31) { top += 1 }
        let shifts = Array(stride(from: top, to: Swift.max(top - shiftsTried, -1), by: -1))
        // The rounded slopes at each shift: they find a form for 14 of the 15 ADDs of the
        // project's int8 models and 59 of 60 random layers (the tests); the 15th has none with
        // the neighbouring integer slopes either. A table without a form costs its prepare
        // these few passes only.
        for k in shifts {
            let a = (slopes.0 * Double(Int64(1) << k)).rounded(), b = (slopes.1 * Double(Int64(1) << k)).rounded()
            if let form = candidate(table, codes: codes, A: Int64(a), B: Int64(b), shift: k, range: range) { return form }
        }
        return nil
    }

    /// The form with slopes `A`, `B` and shift `k` if some offset makes it equal to `table`.
    private static func candidate(_ table: UnsafePointer<UInt8>, codes: UnsafePointer<Int64>, A: Int64, B: Int64, shift k: Int,
                                  range: ClosedRange<Int32>) -> QuantizedPairLinearForm? {
        let lo = Int64(range.lowerBound), hi = Int64(range.upperBound), step = Int64(1) << k
        // Per entry byte, the ends of its offsets before the pair's sum is taken off:
        // `e·2^k ... (e + 1)·2^k − 1`, a far sentinel on the side where `e` is clamped (far enough
        // that taking off any sum cannot cross the other sentinel or overflow).
        let far = Int64(1) << 62
        let scratch = UnsafeMutablePointer<Int64>.allocate(capacity: 3 * 256)
        defer { scratch.deallocate() }
        let lowEnds = scratch, highEnds = scratch + 256, secondTerms = scratch + 512
        var smallest = Int64.max, largest = Int64.min
        for byte in 0..<256 {
            let e = codes[byte]
            lowEnds[byte] = e > lo ? e &* step : -far
            highEnds[byte] = e < hi ? (e &+ 1) &* step &- 1 : far
            secondTerms[byte] = e &* B
            (smallest, largest) = (Swift.min(smallest, e), Swift.max(largest, e))
        }
        var lowest = -far, highest = far      // the offsets that work so far
        for hiByte in 0..<256 {
            let row = table + (hiByte << 8)
            // Two interleaved chains of maxima and minima, then the row's first-code term.
            var (low0, low1, high0, high1) = (-far, -far, far, far)
            var b = 0
            while b < 256 {
                let e0 = Int(row[b]), e1 = Int(row[b &+ 1])
                low0 = Swift.max(low0, lowEnds[e0] &- secondTerms[b])
                high0 = Swift.min(high0, highEnds[e0] &- secondTerms[b])
                low1 = Swift.max(low1, lowEnds[e1] &- secondTerms[b &+ 1])
                high1 = Swift.min(high1, highEnds[e1] &- secondTerms[b &+ 1])
                b &+= 2
            }
            let firstTerm = codes[hiByte] &* A
            lowest = Swift.max(lowest, Swift.max(low0, low1) &- firstTerm)
            highest = Swift.min(highest, Swift.min(high0, high1) &- firstTerm)
            if lowest > highest { return nil }
        }
        // Sentinels on both sides mean every entry is clamped to both ends: impossible with lo < hi.
        let c = lowest > -far / 2 ? lowest : highest
        // Every sum before the shift must be a 32-bit value, as the kernel's lanes hold it.
        let firstTerms = [smallest &* A, largest &* A], secondRange = [smallest &* B, largest &* B]
        let extremes = [firstTerms.min()! &+ secondRange.min()! &+ c, firstTerms.max()! &+ secondRange.max()! &+ c]
        guard extremes.allSatisfy({ $0 >= Int64(Int32.min) && $0 <= Int64(Int32.max) }),
              let addend = Int32(exactly: c), let multiplierA = Int32(exactly: A), let multiplierB = Int32(exactly: B)
        else { return nil }
        return QuantizedPairLinearForm(multiplierA: multiplierA, multiplierB: multiplierB, addend: addend,
                                       shift: Int32(k), minimum: range.lowerBound, maximum: range.upperBound)
    }
}
