import ArgumentParser
import TFLiteSchema

/// The resource-limit options every command that loads a model shares (`litevision run`,
/// `detect`, `track`, `models download` — the limits its downloaded model is checked under
/// before install — and `tflite-dump`), each overriding one field of ``ResourceLimits`` (the
/// others keep their defaults): `--max-memory` (``ResourceLimits/maximumTotalByteCount``),
/// `--max-tensor-size` (``ResourceLimits/maximumTensorByteCount``), `--max-label-size`
/// (``ResourceLimits/maximumLabelByteCount``), `--max-archive-entry-size`
/// (``ResourceLimits/maximumArchiveEntryByteCount``) and `--max-archive-size`
/// (``ResourceLimits/maximumArchiveByteCount``) in MiB, and `--max-label-count`
/// (``ResourceLimits/maximumLabelCount``). The download limits are options of
/// `litevision models download` (``DownloadLimitOptionGroup``: `--deadline`, `--min-rate`,
/// `--min-rate-window`); the image size is `detect` and
/// `track`'s `--max-image-pixels`.
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

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Largest label file (MiB), packed in a model or given on the command line (default \(ResourceLimits.default.maximumLabelByteCount >> 20)).",
                               valueName: "MiB"))
    public var maxLabelSize: Int?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Largest uncompressed entry (MiB) of the ZIP archive packed in a model (default \(ResourceLimits.default.maximumArchiveEntryByteCount >> 20)).",
                               valueName: "MiB"))
    public var maxArchiveEntrySize: Int?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Largest total uncompressed size (MiB) of the ZIP archive packed in a model (default \(ResourceLimits.default.maximumArchiveByteCount >> 20)).",
                               valueName: "MiB"))
    public var maxArchiveSize: Int?

    public init() {}

    /// The options given in MiB, with their names.
    private var sizesInMebibytes: [(name: String, value: Int?)] {
        [("--max-memory", maxMemory), ("--max-tensor-size", maxTensorSize), ("--max-label-size", maxLabelSize),
         ("--max-archive-entry-size", maxArchiveEntrySize), ("--max-archive-size", maxArchiveSize)]
    }

    public func validate() throws {
        for (name, value) in sizesInMebibytes {
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
        if let maxLabelSize { limits.maximumLabelByteCount = bytes(maxLabelSize) }
        if let maxArchiveEntrySize { limits.maximumArchiveEntryByteCount = bytes(maxArchiveEntrySize) }
        if let maxArchiveSize { limits.maximumArchiveByteCount = bytes(maxArchiveSize) }
        return limits
    }
}
