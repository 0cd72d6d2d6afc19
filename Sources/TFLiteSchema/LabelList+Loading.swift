import FlatBufferReader
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension LabelList {
    /// Largest label index accepted in "index name" files.
    static let maxIndexedLabel = 1_000_000

    /// Parses a label file: one label per line (`labels.txt`, `labelmap.txt`, `dict.txt`),
    /// or "index name" lines, where each label goes to its index (gaps become empty labels).
    /// Windows line endings and a UTF-8 byte-order mark are accepted; trailing empty lines
    /// are dropped; a background slot such as `???` is kept as a label so indices stay aligned.
    public init(text: String, locale: String? = nil) {
        var body = Substring(text)
        if body.hasPrefix("\u{FEFF}") { body = body.dropFirst() }
        var lines = body.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).map { line -> String in
            var trimmed = Substring(line)
            while let last = trimmed.last, last == "\r" || last == " " || last == "\t" { trimmed = trimmed.dropLast() }
            return String(trimmed)
        }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        self.init(labels: LabelList.indexedLabels(lines) ?? lines, locale: locale)
    }

    /// Reads a side-car label file from disk.
    /// - Throws: ``TFLiteSchemaError/unreadableFile(path:reason:)`` for missing files,
    ///   directories and special files; ``ResourceLimitError`` when the file has more bytes
    ///   or lines than `limits` allow (checked before the file is read or split).
    public init(contentsOf path: String, locale: String? = nil, limits: ResourceLimits = .default) throws {
        let storage: ByteStorage
        do { storage = try FileReader.read(path: path, maximumSize: limits.maximumLabelByteCount) } catch
            TFLiteSchemaError.unreadableFile(_, let reason) where reason.hasPrefix("the file has") {
            throw ResourceLimitError(limit: "maximumLabelByteCount", subject: "label file \(path)",
                                     requested: Self.fileSize(path), allowed: limits.maximumLabelByteCount, unit: "bytes")
        }
        try storage.withUnsafeBytes { try Self.checkBounds($0, limits: limits, "label file \(path)") }
        let text = storage.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        self.init(text: text, locale: locale)
    }

    /// Checks a label file's size and line count against `limits` without splitting it.
    /// - Throws: ``ResourceLimitError`` naming `subject`.
    public static func checkBounds<Bytes: Collection<UInt8>>(_ bytes: Bytes, limits: ResourceLimits,
                                                             _ subject: @autoclosure () -> String) throws {
        try ResourceLimitError.check(bytes.count, limits.maximumLabelByteCount, limit: "maximumLabelByteCount",
                                     unit: "bytes", subject())
        // Lines end in LF, CRLF or CR, as `init(text:)` splits them; a last line may lack one.
        let lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
        var lines = 0, previous: UInt8 = 0
        for byte in bytes {
            if byte == cr || (byte == lf && previous != cr) { lines += 1 }
            previous = byte
        }
        if !bytes.isEmpty, previous != lf, previous != cr { lines += 1 }
        try ResourceLimitError.check(lines, limits.maximumLabelCount, limit: "maximumLabelCount", unit: "labels", subject())
    }

    /// The size of the file at `path` (0 when unknown), for messages.
    private static func fileSize(_ path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : 0
    }

    /// Labels of "index name" lines, or nil when not every line has that form.
    private static func indexedLabels(_ lines: [String]) -> [String]? {
        guard !lines.isEmpty else { return nil }
        var entries: [(Int, String)] = []
        for line in lines {
            let digits = line.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 7, let index = Int(digits) else { return nil }
            let rest = line.dropFirst(digits.count)
            guard let separator = rest.first, separator == " " || separator == "\t" || separator == ":" else { return nil }
            let name = rest.drop { $0 == " " || $0 == "\t" || $0 == ":" }
            guard !name.isEmpty, index <= maxIndexedLabel else { return nil }
            entries.append((index, String(name)))
        }
        let count = (entries.map(\.0).max() ?? -1) + 1
        guard count <= entries.count * 2 + 16 else { return nil }
        var labels = [String](repeating: "", count: count)
        for (index, name) in entries { labels[index] = name }
        return labels
    }
}
