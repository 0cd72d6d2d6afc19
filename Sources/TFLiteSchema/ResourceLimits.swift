/// The ceilings on what untrusted input (a model, its ZIP archive, a label file, an image, a
/// download) may make the engine allocate or wait for. Every limit is checked before the
/// allocation or the wait it bounds, and exceeding one throws a typed error that names the
/// limit, the amount asked for and where it came from.
///
/// The defaults are far above what real models need (the largest reference model, YOLOv8n at
/// 640×640, plans a 4.3 MB arena; ImageNet has 1,001 labels) and far below what takes a
/// machine down. Adjust them through `Interpreter.Options.resourceLimits` and, on the command
/// line (`litevision run`, `detect`, `track`, `models download`, `tflite-dump`), `--max-memory MiB`,
/// `--max-tensor-size MiB`, `--max-label-count N`, `--max-label-size MiB`,
/// `--max-archive-entry-size MiB` and `--max-archive-size MiB`; `detect` and `track` take
/// `--max-image-pixels N`, `litevision models download` `--deadline S`, `--min-rate B` and `--min-rate-window S`.
///
/// | limit | default |
/// |---|---|
/// | ``maximumTensorByteCount`` | 1 GiB |
/// | ``maximumTotalByteCount`` (arena + scratch + derived constants) | 2 GiB |
/// | ``maximumLabelCount`` | 100,000 |
/// | ``maximumLabelByteCount`` | 16 MiB |
/// | ``maximumImagePixelCount`` | 2^28 pixels (268 megapixels) |
/// | ``maximumArchiveEntryByteCount`` | 64 MiB |
/// | ``maximumArchiveByteCount`` | 256 MiB |
/// | ``downloadDeadline`` | 600 s |
/// | ``minimumTransferRate`` | 1,024 bytes/s, averaged over ``transferRateWindow`` (30 s) |
/// | ``maximumWhileIterations`` | 1,000,000 body runs per invoke (all WHILE loops together) |
public struct ResourceLimits: Hashable, Sendable {
    /// Largest single tensor (its bytes), checked at prepare before any kernel sizes memory from it.
    public var maximumTensorByteCount: Int
    /// Largest sum of everything an interpreter allocates for a model: derived constants
    /// (realigned copies, folded outputs), outputs evaluated at prepare, kernel scratch (packed
    /// weights, padded or quantized copies of inputs), the arena and variable tensors; a
    /// tensor copied out (`Interpreter.output(at:)`) is checked against it on top of those. The
    /// command line also bounds one image decode by it (`ImageLimits.maxDecodeByteCount`).
    public var maximumTotalByteCount: Int
    /// Most labels one label list may hold.
    public var maximumLabelCount: Int
    /// Largest label file (bytes), in a model's archive or on disk.
    public var maximumLabelByteCount: Int
    /// Largest image (width × height) decoded or preprocessed; the image readers take it as
    /// `ImageLimits(maxPixelCount: limits.maximumImagePixelCount)` (the same default).
    public var maximumImagePixelCount: Int
    /// Largest uncompressed entry of a model's ZIP archive.
    public var maximumArchiveEntryByteCount: Int
    /// Largest total uncompressed size of a model's ZIP archive.
    public var maximumArchiveByteCount: Int
    /// Longest a whole download (manifest and model) may take, in seconds.
    public var downloadDeadline: Double
    /// Slowest acceptable transfer, in bytes per second, averaged over ``transferRateWindow``.
    public var minimumTransferRate: Double
    /// Seconds over which ``minimumTransferRate`` is averaged (a slow start is allowed this long).
    public var transferRateWindow: Double
    /// Most WHILE body runs in one invoke of an interpreter or signature runner, counted over
    /// every WHILE operator of every subgraph it calls (nested loops count each inner run), so a
    /// loop whose condition never becomes false ends with a typed error instead of hanging.
    public var maximumWhileIterations: Int

    /// The documented defaults (see the table above).
    public init(maximumTensorByteCount: Int = 1 << 30, maximumTotalByteCount: Int = 2 << 30,
                maximumLabelCount: Int = 100_000, maximumLabelByteCount: Int = 16 << 20,
                maximumImagePixelCount: Int = 1 << 28, maximumArchiveEntryByteCount: Int = 64 << 20,
                maximumArchiveByteCount: Int = 256 << 20, downloadDeadline: Double = 600,
                minimumTransferRate: Double = 1024, transferRateWindow: Double = 30,
                maximumWhileIterations: Int = 1_000_000) {
        self.maximumTensorByteCount = maximumTensorByteCount
        self.maximumTotalByteCount = maximumTotalByteCount
        self.maximumLabelCount = maximumLabelCount
        self.maximumLabelByteCount = maximumLabelByteCount
        self.maximumImagePixelCount = maximumImagePixelCount
        self.maximumArchiveEntryByteCount = maximumArchiveEntryByteCount
        self.maximumArchiveByteCount = maximumArchiveByteCount
        self.downloadDeadline = downloadDeadline
        self.minimumTransferRate = minimumTransferRate
        self.transferRateWindow = transferRateWindow
        self.maximumWhileIterations = maximumWhileIterations
    }

    /// The defaults.
    public static let `default` = ResourceLimits()
}

/// A limit of ``ResourceLimits`` that an input exceeds.
public struct ResourceLimitError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The limit's name as in ``ResourceLimits``, e.g. "maximumLabelCount".
    public let limit: String
    /// What asked for the resource, e.g. "label file labels.txt in the model's archive".
    public let subject: String
    /// The amount asked for.
    public let requested: Int
    /// The limit's value.
    public let allowed: Int
    /// The unit of both amounts ("bytes", "labels", "pixels").
    public let unit: String

    /// Creates the error.
    public init(limit: String, subject: String, requested: Int, allowed: Int, unit: String) {
        self.limit = limit; self.subject = subject; self.requested = requested; self.allowed = allowed
        self.unit = unit
    }

    /// "label file labels.txt has 26214400 labels, more than the limit of 100000 labels (maximumLabelCount)".
    public var description: String {
        "\(subject) needs \(requested) \(unit), more than the limit of \(allowed) \(unit) (ResourceLimits.\(limit))"
    }

    /// Throws when `requested` exceeds `allowed`.
    public static func check(_ requested: Int, _ allowed: Int, limit: String, unit: String,
                             _ subject: @autoclosure () -> String) throws {
        guard requested <= allowed else {
            throw ResourceLimitError(limit: limit, subject: subject(), requested: requested, allowed: allowed, unit: unit)
        }
    }
}
