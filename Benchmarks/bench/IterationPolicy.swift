/// How many times a benchmark runs: warm-up runs, then measured runs until either a fixed
/// count or a time budget is reached. The reference-runtime helper gets the same policy.
struct IterationPolicy: Sendable {
    /// Unmeasured runs before measuring.
    var warmUpCount: Int
    /// Exact number of measured runs, or nil to use the time budget.
    var fixedIterations: Int?
    /// Fewest measured runs when time-boxed.
    var minimumIterations: Int
    /// Most measured runs when time-boxed.
    var maximumIterations: Int
    /// Time budget of the measured runs when time-boxed, in seconds.
    var secondsBudget: Double

    /// Runs `body` by this policy (warm-up, then measured runs) and returns the measured
    /// latencies in milliseconds.
    func measure(_ body: () throws -> Void) throws -> [Double] {
        try warmUp(body)
        return try measuredRuns(body)
    }

    /// The unmeasured warm-up runs. When time-boxed, warm-up stops after a run longer than
    /// half the budget (slow models need no second warm-up run).
    func warmUp(_ body: () throws -> Void) throws {
        for _ in 0..<max(0, warmUpCount) {
            let milliseconds = try Self.time(body)
            if fixedIterations == nil && milliseconds > secondsBudget * 500 { break }
        }
    }

    /// The measured runs; their latencies in milliseconds.
    func measuredRuns(_ body: () throws -> Void) throws -> [Double] {
        var samples: [Double] = []
        var elapsed = 0.0
        while true {
            if let fixed = fixedIterations {
                if samples.count >= fixed { break }
            } else if samples.count >= maximumIterations
                        || (samples.count >= minimumIterations && elapsed >= secondsBudget * 1000) {
                break
            }
            let milliseconds = try Self.time(body)
            samples.append(milliseconds)
            elapsed += milliseconds
        }
        return samples
    }

    /// Arguments passing this policy to `Scripts/reference-bench.py`.
    var scriptArguments: [String] {
        var arguments = ["--warmup", String(warmUpCount), "--min-iterations", String(minimumIterations),
                         "--max-iterations", String(maximumIterations), "--seconds", String(secondsBudget)]
        if let fixedIterations { arguments += ["--iterations", String(fixedIterations)] }
        return arguments
    }

    /// Wall time of one call of `body`, in milliseconds.
    static func time(_ body: () throws -> Void) throws -> Double {
        let start = ContinuousClock.now
        try body()
        let duration = ContinuousClock.now - start
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
