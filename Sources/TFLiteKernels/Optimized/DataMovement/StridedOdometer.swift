/// The mixed-radix counter the optimized copies (`RowCopyOptimized.stridedRuns`, the blocked transpose)
/// step with: digits `index[0 ... last]`, digit `d` running over `0 ..< counts[d]` (digit `last`
/// fastest), and `offset` kept equal to `base + Σ index[d] · steps[d]` as it counts.
/// The reference `StridedCopyReference` does not use it (a plain loop nest), so comparing the two
/// checks this counter.
struct StridedOdometer {
    private let counts: UnsafePointer<Int>
    private let steps: UnsafePointer<Int>
    private let index: UnsafeMutablePointer<Int>
    private let last: Int
    /// `base + Σ index[d] · steps[d]` for the current digits.
    private(set) var offset: Int

    /// A counter over digits `0 ... last` (`index` holds `last + 1` digits) set to position
    /// `position` (its digits in row-major order).
    @inline(__always)
    init(counts: UnsafePointer<Int>, steps: UnsafePointer<Int>, index: UnsafeMutablePointer<Int>,
         last: Int, position: Int, base: Int) {
        self.counts = counts; self.steps = steps; self.index = index; self.last = last
        var rest = position, offset = base
        var d = last
        while d >= 0 {
            index[d] = rest % counts[d]
            rest /= counts[d]
            offset += index[d] * steps[d]
            d -= 1
        }
        self.offset = offset
    }

    /// Counts one position; false when the counter wrapped past its last position.
    @inline(__always)
    mutating func advance() -> Bool {
        var d = last
        while d >= 0 {
            index[d] += 1
            offset += steps[d]
            if index[d] < counts[d] { return true }
            offset -= steps[d] * counts[d]
            index[d] = 0
            d -= 1
        }
        return false
    }
}
