/// The draws the optimized-kernel tests make from a `SeededGenerator`.
extension SeededGenerator {
    /// An integer in `range` (the next 64 bits modulo its size).
    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// A float in [-1, 1) from the top 24 of the next 64 bits.
    public mutating func float() -> Float { Float(next() >> 40) / Float(1 << 24) * 2 - 1 }

    /// `0..<count` split into random contiguous chunks, as the thread pool might split it.
    public mutating func chunks(_ count: Int) -> [Range<Int>] {
        var result: [Range<Int>] = [], start = 0
        while start < count {
            let end = min(count, start + int(1...max(1, count / 2 + 1)))
            result.append(start..<end); start = end
        }
        return result
    }
}
