import ArgumentParser
import TFLiteSchema

/// The download limits of `litevision models download`, each overriding one field of
/// ``ResourceLimits``: `--deadline S` (``ResourceLimits/downloadDeadline``), `--min-rate B`
/// (``ResourceLimits/minimumTransferRate``, bytes per second) and `--min-rate-window S`
/// (``ResourceLimits/transferRateWindow``: the seconds over which the rate is averaged, so how
/// long a slow start or a stall is tolerated before the rate is enforced).
///
/// Contract: `validate()` rejects a deadline or window that is not a positive finite number of
/// seconds, a negative or non-finite rate, and a window longer than the deadline in force (the
/// given one, else the default: the rate would never be checked), with a message naming the
/// option and the value; the values are read unconditionally, so `--min-rate-window -5` is a
/// value to reject, not an unknown flag.
public struct DownloadLimitOptionGroup: ParsableArguments {
    @Option(parsing: .unconditional,
            help: ArgumentHelp("Seconds the whole download may take (default \(Int(ResourceLimits.default.downloadDeadline))).",
                               valueName: "seconds"))
    public var deadline: Double?

    @Option(name: .customLong("min-rate"), parsing: .unconditional,
            help: ArgumentHelp("Slowest acceptable transfer in bytes per second, averaged over --min-rate-window (default \(Int(ResourceLimits.default.minimumTransferRate))).",
                               valueName: "bytes/s"))
    public var minimumRate: Double?

    @Option(name: .customLong("min-rate-window"), parsing: .unconditional,
            help: ArgumentHelp("Seconds over which --min-rate is averaged: a slow start or a stall is tolerated this long (default \(Int(ResourceLimits.default.transferRateWindow))).",
                               valueName: "seconds"))
    public var minimumRateWindow: Double?

    public init() {}

    public func validate() throws {
        if let deadline, !(deadline.isFinite && deadline > 0) {
            throw ValidationError("--deadline must be a positive number of seconds, got \(deadline)")
        }
        if let minimumRate, !(minimumRate.isFinite && minimumRate >= 0) {
            throw ValidationError("--min-rate must be a number of bytes per second (0 or more), got \(minimumRate)")
        }
        if let minimumRateWindow {
            guard minimumRateWindow.isFinite, minimumRateWindow > 0 else {
                throw ValidationError("--min-rate-window must be a positive number of seconds, got \(minimumRateWindow)")
            }
            let deadlineInForce = deadline ?? ResourceLimits.default.downloadDeadline
            guard minimumRateWindow <= deadlineInForce else {
                throw ValidationError("--min-rate-window \(minimumRateWindow) is longer than the download deadline of \(deadlineInForce) s (--deadline): the minimum rate would never be checked")
            }
        }
    }

    /// `base` with the given options applied. Requires `validate()` to have passed (the parser
    /// calls it).
    public func resourceLimits(base: ResourceLimits = .default) -> ResourceLimits {
        var limits = base
        if let deadline { limits.downloadDeadline = deadline }
        if let minimumRate { limits.minimumTransferRate = minimumRate }
        if let minimumRateWindow { limits.transferRateWindow = minimumRateWindow }
        return limits
    }
}
