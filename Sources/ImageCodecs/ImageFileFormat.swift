/// The image file formats read here, recognised from their first bytes (never from a name).
public enum ImageFileFormat: String, Sendable, CaseIterable {
    /// PNG: starts with `89 50 4E 47 0D 0A 1A 0A`.
    case png
    /// JPEG: starts with `FF D8 FF`.
    case jpeg

    /// The format whose signature starts `bytes`; nil for anything else.
    public init?(sniffing bytes: some Collection<UInt8>) {
        if bytes.starts(with: PNGDecoder.signature) {
            self = .png
        } else if bytes.starts(with: JPEGDecoder.signature) {
            self = .jpeg
        } else {
            return nil
        }
    }

    /// The longest signature, in bytes: reading this many is enough to sniff a file.
    public static let signatureLength = 8

    /// The format chosen for an output path from its extension: `.jpg` and `.jpeg` (any case)
    /// are JPEG, anything else PNG.
    public init(outputPath path: String) {
        let lower = path.lowercased()
        self = lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg") ? .jpeg : .png
    }
}
