import ArgumentParser
import TFLiteSchema

/// The resource-limit options every command that loads a model shares (`litevision run`,
/// `detect`, `track`, `tflite-dump`): `--max-memory` and `--max-tensor-size` in MiB and
/// `--max-label-count`, each overriding one field of ``ResourceLimits`` (the others keep
/// their defaults).
///
/// Contract: `validate()` rejects zero, negative and too large values with a message naming
/// the option and its range (the values are read unconditionally, so `--max-memory -1` is a
/// value to reject, not an unknown flag); a value that does not fit an `Int` at all is
/// refused by the parser. A size in MiB is at most ``maximumMebibytes``, so converting it to
/// bytes never overflows.
public struct ResourceLimitOptionGroup: ParsableArguments {
    /// The largest size in MiB the options accept (2^30 MiB, one PiB).
    public static let maximumMebibytes = 1 << 30

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Most memory (MiB) a model may make the interpreter allocate in total: constants, arena, kernel scratch (default \(ResourceLimits.default.maximumTotalByteCount >> 20)).",
                               valueName: "MiB"))
    public var maxMemory: Int?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Largest single tensor (MiB) a model may have (default \(ResourceLimits.default.maximumTensorByteCount >> 20)).",
                               valueName: "MiB"))
    public var maxTensorSize: Int?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Most labels one label file may hold, packed in a model or given on the command line (default \(ResourceLimits.default.maximumLabelCount)).",
                               valueName: "count"))
    public var maxLabelCount: Int?

    public init() {}

    public func validate() throws {
        for (name, value) in [("--max-memory", maxMemory), ("--max-tensor-size", maxTensorSize)] {
            guard let value else { continue }
            guard (1...Self.maximumMebibytes).contains(value) else {
                throw ValidationError("\(name) must be a size in MiB from 1 to \(Self.maximumMebibytes), got \(value)")
            }
        }
        if let maxLabelCount, maxLabelCount < 1 {
            throw ValidationError("--max-label-count must be at least 1, got \(maxLabelCount)")
        }
    }

    /// `base` with the given options applied. Requires `validate()` to have passed (the
    /// parser calls it); out-of-range values are clamped, never shifted into an overflow.
    public func resourceLimits(base: ResourceLimits = .default) -> ResourceLimits {
        var limits = base
        func bytes(_ mebibytes: Int) -> Int { min(max(mebibytes, 1), Self.maximumMebibytes) << 20 }
        if let maxMemory { limits.maximumTotalByteCount = bytes(maxMemory) }
        if let maxTensorSize { limits.maximumTensorByteCount = bytes(maxTensorSize) }
        if let maxLabelCount { limits.maximumLabelCount = max(1, maxLabelCount) }
        return limits
    }
}
