/// Summary of repeated latency samples.
struct LatencyStatistics: Sendable {
    /// Number of samples.
    let count: Int
    /// Median, in milliseconds.
    let medianMilliseconds: Double
    /// 90th percentile (nearest rank), in milliseconds.
    let p90Milliseconds: Double
    /// Fastest sample, in milliseconds.
    let minimumMilliseconds: Double

    /// Summarizes `samples` (milliseconds); nil when there are none.
    init?(milliseconds samples: [Double]) {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        count = sorted.count
        let middle = sorted.count / 2
        medianMilliseconds = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        // Nearest-rank percentile: the smallest sample with at least 90% of samples at or below it.
        let rank = Int((0.9 * Double(sorted.count)).rounded(.up))
        p90Milliseconds = sorted[max(0, min(sorted.count - 1, rank - 1))]
        minimumMilliseconds = sorted[0]
    }
}
