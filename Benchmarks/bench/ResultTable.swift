import Foundation

/// Formats benchmark rows as an aligned text table (plus failures and profiles below it).
struct ResultTable {
    /// The rows, in measurement order.
    let rows: [BenchmarkRow]
    /// Whether to show the reference-runtime columns.
    let showsComparison: Bool
    /// Operator types shown per profiled row.
    let profileEntries: Int

    /// The table text.
    func render() -> String {
        var header = ["model", "thr", "median ms", "p90 ms", "min ms", "img/s", "GMAC", "GMAC/s", "arena MB", "live MB", "peak RSS MB", "speedup"]
        header += ["cold ms"]
        if showsComparison { header += ["builtin ms", "xnnpack ms", "ours/builtin", "ours/xnnpack", "xnnpack cold ms"] }
        var lines: [[String]] = [header]
        var failures: [String] = []
        for row in rows {
            if let error = row.error {
                failures.append("\(row.model) @ \(row.threads) thread(s): \(error)")
                lines.append([row.model, String(row.threads), "failed"] + Array(repeating: "", count: header.count - 3))
                continue
            }
            var cells = [row.model, String(row.threads), milliseconds(row.medianMilliseconds),
                         milliseconds(row.p90Milliseconds), milliseconds(row.minimumMilliseconds),
                         fixed(row.imagesPerSecond, 1), fixed(row.macs.map { Double($0) / 1e9 }, 3),
                         fixed(row.gmacPerSecond, 1),
                         megabytes(row.arenaBytes), megabytes(row.peakLiveBytes), megabytes(row.peakRSSBytes), speedup(of: row),
                         milliseconds(row.coldStartMilliseconds)]
            if showsComparison {
                cells += [reference(row.referenceBuiltin), reference(row.referenceXNNPACK),
                          fixed(row.ratioToBuiltin, 2), fixed(row.ratioToXNNPACK, 2),
                          milliseconds(row.referenceXNNPACK?.coldStartMilliseconds)]
                for measurement in [row.referenceBuiltin, row.referenceXNNPACK].compactMap({ $0 }) {
                    if let error = measurement.error {
                        failures.append("reference \(measurement.runtime) \(row.model) @ \(row.threads): \(error)")
                    }
                }
            }
            lines.append(cells)
        }
        var text = align(lines)
        if !failures.isEmpty { text += "\n\nFailures:\n" + failures.map { "  " + $0 }.joined(separator: "\n") }
        for row in rows {
            guard let profile = row.profile, !profile.isEmpty else { continue }
            text += "\n\nProfile \(row.model) @ \(row.threads) thread(s), per invoke:\n"
            text += align([["operator", "count", "ms", "%"]] + profile.prefix(profileEntries).map {
                [$0.name, String($0.count), fixed($0.milliseconds, 2), fixed($0.percent, 1)]
            })
            if let slowest = row.slowestOperators, !slowest.isEmpty {
                text += "\n\nSlowest operators:\n"
                text += align([["#", "operator", "output shape", "ms", "%"]] + slowest.map {
                    [String($0.position), $0.name, "[" + $0.outputShape.map(String.init).joined(separator: "x") + "]",
                     fixed($0.milliseconds, 2), fixed($0.percent, 1)]
                })
            }
        }
        return text
    }

    /// Median at the row's model's first (lowest) thread count divided by this row's median.
    private func speedup(of row: BenchmarkRow) -> String {
        guard let base = rows.filter({ $0.model == row.model && $0.path == row.path && $0.threads < row.threads })
                .min(by: { $0.threads < $1.threads })?.medianMilliseconds,
              let median = row.medianMilliseconds, median > 0 else { return "" }
        return fixed(base / median, 2) + "x"
    }

    private func reference(_ measurement: ReferenceMeasurement?) -> String {
        guard let measurement else { return "" }
        return measurement.error == nil ? milliseconds(measurement.medianMilliseconds) : "failed"
    }

    private func milliseconds(_ value: Double?) -> String {
        guard let value else { return "-" }
        return fixed(value, value < 10 ? 3 : value < 100 ? 2 : 1)
    }

    private func megabytes(_ bytes: Int?) -> String {
        guard let bytes else { return "-" }
        return fixed(Double(bytes) / 1_048_576, 1)
    }

    private func fixed(_ value: Double?, _ digits: Int) -> String {
        guard let value, value.isFinite else { return "-" }
        return String(format: "%.\(digits)f", value)
    }

    /// Left-aligns the first column, right-aligns the others.
    private func align(_ lines: [[String]]) -> String {
        let columns = lines.map(\.count).max() ?? 0
        var widths = Array(repeating: 0, count: columns)
        for line in lines { for (k, cell) in line.enumerated() { widths[k] = max(widths[k], cell.count) } }
        return lines.map { line in
            line.enumerated().map { k, cell in
                let padding = String(repeating: " ", count: widths[k] - cell.count)
                return k == 0 ? cell + padding : padding + cell
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
