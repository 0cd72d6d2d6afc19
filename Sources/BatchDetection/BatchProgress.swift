import Foundation

/// A one-line progress bar on standard error — items, items/s, errors and ETA — redrawn at
/// most a few times a second. It draws only when standard error is a terminal, so logs
/// collected by Spark, Ray or Kubernetes never fill with carriage returns.
public final class BatchProgress {
    private let descriptor: Int32
    private let label: String
    private var lastDraw = Date.distantPast
    private var drew = false

    /// A progress bar on standard error, or nil when standard error is not a terminal.
    public static func onTerminal(label: String) -> BatchProgress? {
        isatty(2) != 0 ? BatchProgress(descriptor: 2, label: label) : nil
    }

    /// Draws to `descriptor` with `label` in front (e.g. the shard).
    public init(descriptor: Int32, label: String) {
        self.descriptor = descriptor
        self.label = label
    }

    /// Redraws when the last drawing is more than a quarter second old (or `force`).
    public func update(_ statistics: BatchStatistics, force: Bool = false) {
        let now = Date()
        guard force || now.timeIntervalSince(lastDraw) >= 0.25 else { return }
        lastDraw = now
        drew = true
        try? writeAll(descriptor, Array(("\r\u{1B}[K" + Self.line(statistics, label: label)).utf8), what: "standard error")
    }

    /// Ends the bar's line.
    public func finish(_ statistics: BatchStatistics) {
        update(statistics, force: true)
        if drew { try? writeAll(descriptor, [0x0A], what: "standard error") }
    }

    /// The text of the bar, e.g. `shard 0/4 [#####.....] 120/240 items  11.8 items/s  3 errors  ETA 0:10`.
    public static func line(_ s: BatchStatistics, label: String) -> String {
        let rate = s.wallSeconds > 0 ? Double(s.items) / s.wallSeconds : 0
        var parts = [label]
        if let total = s.expectedItems, total > 0 {
            let width = 20
            let filled = min(width, s.items * width / total)
            parts.append("[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]")
            parts.append("\(s.items)/\(total) items")
        } else {
            parts.append("\(s.items) items")
        }
        parts.append(String(format: "%.1f items/s", rate))
        parts.append("\(s.errors) error\(s.errors == 1 ? "" : "s")")
        if let total = s.expectedItems, rate > 0 {
            let remaining = Int((Double(max(0, total - s.items)) / rate).rounded())
            parts.append("ETA " + (remaining >= 3600 ? String(format: "%d:%02d:%02d", remaining / 3600, remaining / 60 % 60, remaining % 60)
                                                       : String(format: "%d:%02d", remaining / 60, remaining % 60)))
        } else {
            parts.append("ETA --")
        }
        return parts.joined(separator: "  ")
    }
}
