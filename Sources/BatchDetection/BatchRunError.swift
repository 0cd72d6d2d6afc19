/// Failures that stop a whole batch run (item failures never do: they become error records).
///
/// Each maps to one of two process exit codes, so that a scheduler can tell whether running
/// the same command again can help: see ``BatchExitCode``.
public enum BatchRunError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Options are malformed or contradictory. Permanent.
    case invalidOptions(String)
    /// A model is missing, unreadable or unsupported. Permanent.
    case modelUnavailable(String)
    /// The work-item list cannot be opened or read. Permanent when the file is missing,
    /// reported with the permanent code.
    case inputUnavailable(String)
    /// Results cannot be written (output directory, disk full, closed pipe). Transient.
    case outputFailed(String)

    /// Whether retrying the same command can succeed.
    public var isTransient: Bool {
        if case .outputFailed = self { return true }
        return false
    }

    /// The process exit code for this failure.
    public var exitCode: Int32 { isTransient ? BatchExitCode.transientFailure : BatchExitCode.permanentFailure }

    /// A message that says what to do.
    public var description: String {
        switch self {
        case .invalidOptions(let m): return "invalid options: \(m)"
        case .modelUnavailable(let m): return "model unavailable: \(m)"
        case .inputUnavailable(let m): return "work items unavailable: \(m)"
        case .outputFailed(let m): return "cannot write results: \(m)"
        }
    }
}

/// The exit codes of `litevision detect --jsonl`.
public enum BatchExitCode {
    /// Every item of the input (or of the shard) has a record, error records included.
    public static let success: Int32 = 0
    /// Retrying cannot help: bad options, a missing or invalid model, a missing work-item
    /// list (64, `EX_USAGE`, the code the argument parser also uses for malformed options).
    public static let permanentFailure: Int32 = 64
    /// Retrying may help: results could not be written (75, `EX_TEMPFAIL`).
    public static let transientFailure: Int32 = 75
}
