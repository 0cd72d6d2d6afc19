import FlatBufferReader
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A model-level `metadata` entry (name → buffer index).
public struct MetadataEntry: Sendable, Equatable {
    /// Entry name, e.g. `TFLITE_METADATA`, `min_runtime_version`.
    public var name: String
    /// Buffer index holding its bytes.
    public var buffer: Int
    /// Creates an entry.
    public init(name: String, buffer: Int) { self.name = name; self.buffer = buffer }
}

/// A parsed and validated `.tflite` file: immutable, `Sendable`, shareable across threads.
/// Holds the file bytes in one 64-byte-aligned allocation that lives as long as the object.
public final class TFLiteModelFile: @unchecked Sendable {
    /// Schema version.
    public let version: Int
    /// Model description string.
    public let description: String
    /// Operator-code table.
    public let operatorCodes: [OperatorCode]
    /// Subgraphs; 0 is the main one.
    public let subgraphs: [SubgraphDescription]
    /// Signature definitions.
    public let signatures: [SignatureDescription]
    /// Model-level metadata entries.
    public let metadataEntries: [MetadataEntry]
    /// Decoded `TFLITE_METADATA`, when present and valid.
    public let metadata: ModelMetadata?
    /// Files from the ZIP archive appended to the model (name → bytes).
    public let associatedFiles: [String: [UInt8]]

    /// The whole file.
    private let storage: ByteStorage
    /// Each buffer's byte range in `storage`.
    private let bufferRanges: [Range<Int>]

    /// Parses and validates a model from bytes (copied into owned, aligned storage).
    /// - Throws: ``TFLiteSchemaError`` for malformed files, ``ResourceLimitError`` when its
    ///   archive or label files exceed `limits`.
    public convenience init(bytes: [UInt8], limits: ResourceLimits = .default) throws {
        try self.init(storage: ByteStorage(copying: bytes), limits: limits)
    }

    /// Reads, parses and validates the model at `path`.
    public convenience init(contentsOf path: String, limits: ResourceLimits = .default) throws {
        try self.init(storage: try FileReader.read(path: path), limits: limits)
    }

    /// Parses and validates a model held in `storage`.
    init(storage: ByteStorage, limits: ResourceLimits = .default) throws {
        let decoded = try ModelDecoder(storage: storage).decode()
        try ModelValidator(operatorCodes: decoded.operatorCodes, subgraphs: decoded.subgraphs,
                           bufferSizes: decoded.buffers.map(\.count), signatures: decoded.signatures,
                           metadataEntries: decoded.metadataEntries).validate()
        self.storage = storage
        version = decoded.version
        description = decoded.description
        operatorCodes = decoded.operatorCodes
        subgraphs = decoded.subgraphs
        signatures = decoded.signatures
        metadataEntries = decoded.metadataEntries
        bufferRanges = decoded.buffers
        let extras = try ModelExtras.load(storage: storage, buffers: decoded.buffers, entries: decoded.metadataEntries,
                                          limits: limits)
        metadata = extras.metadata
        associatedFiles = extras.files
    }

    /// Size of the model file in bytes.
    public var fileSize: Int { storage.count }

    /// Number of buffers.
    public var bufferCount: Int { bufferRanges.count }

    /// Byte count of buffer `index` (0 for empty buffers or out-of-range indices).
    public func bufferByteCount(_ index: Int) -> Int {
        guard index >= 0, index < bufferRanges.count else { return 0 }
        return bufferRanges[index].count
    }

    /// Calls `body` with the bytes of buffer `index` (empty for empty or out-of-range buffers).
    /// The pointer stays valid as long as this object lives. Inline buffers are not
    /// necessarily aligned to their element type: read with `loadUnaligned` or copy.
    public func withBufferBytes<R>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        guard index >= 0, index < bufferRanges.count else {
            return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return try body(storage.unsafeBytes(in: bufferRanges[index]))
    }

    /// A copy of buffer `index` (empty for empty or out-of-range buffers).
    public func bufferBytes(_ index: Int) -> [UInt8] {
        withBufferBytes(index) { Array($0) }
    }

    /// Labels of output `index` of subgraph 0 (`TENSOR_AXIS_LABELS` file), when the metadata has them.
    public func labels(forOutput index: Int) -> LabelList? {
        labels(forOutput: index, type: .tensorAxisLabels)
    }

    /// Labels of output `index` of subgraph 0 from its first associated file of `type`:
    /// `.tensorAxisLabels` (one label per element of the output's last axis, classifiers) or
    /// `.tensorValueLabels` (values of the output are label indices, e.g. detection classes).
    /// When several files have that type (one per locale), the first one is used. A file that
    /// is the Ultralytics exporter's metadata dict yields its `names` mapping.
    public func labels(forOutput index: Int, type: AssociatedFileType) -> LabelList? {
        guard let subgraph = metadata?.subgraphs.first, index >= 0, index < subgraph.outputTensors.count
        else { return nil }
        let files = subgraph.outputTensors[index].associatedFiles
        guard let file = files.first(where: { $0.type == type }),
              let bytes = associatedFiles[file.name] else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        // YOLO exports declare the exporter's metadata dict as the label file; use its `names`.
        if text.hasPrefix("{"), var named = LabelList(ultralyticsMetadata: text) {
            named.locale = file.locale
            return named
        }
        return LabelList(text: text, locale: file.locale)
    }
}

/// Reads whole files into aligned storage.
enum FileReader {
    /// Largest model file accepted (FlatBuffers address 2 GiB; external buffers may extend it).
    static let maxFileSize = 1 << 34

    /// Reads the regular file at `path` whole, refusing directories and special files and
    /// files above `maximumSize` bytes before reading anything.
    static func read(path: String, maximumSize: Int = maxFileSize) throws -> ByteStorage {
        guard let file = fopen(path, "rb") else {
            throw TFLiteSchemaError.unreadableFile(path: path, reason: String(cString: strerror(errno)))
        }
        defer { fclose(file) }
        var status = stat()
        guard fstat(fileno(file), &status) == 0 else {
            throw TFLiteSchemaError.unreadableFile(path: path, reason: String(cString: strerror(errno)))
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw TFLiteSchemaError.unreadableFile(path: path, reason: "it is a directory, not a file")
        default: throw TFLiteSchemaError.unreadableFile(path: path, reason: "not a regular file (a device, pipe or socket)")
        }
        guard status.st_size <= maximumSize else {
            throw TFLiteSchemaError.unreadableFile(
                path: path, reason: "the file has \(status.st_size) bytes, more than the limit of \(maximumSize) bytes")
        }
        guard fseek(file, 0, SEEK_END) == 0 else {
            throw TFLiteSchemaError.unreadableFile(path: path, reason: "not a seekable file")
        }
        let size = ftell(file)
        guard size >= 0, fseek(file, 0, SEEK_SET) == 0 else {
            throw TFLiteSchemaError.unreadableFile(path: path, reason: "cannot determine the file size")
        }
        guard size <= maxFileSize else {
            throw TFLiteSchemaError.unreadableFile(path: path, reason: "file larger than \(maxFileSize) bytes")
        }
        let storage = ByteStorage(count: Int(size)) { target in
            target.isEmpty ? 0 : fread(target.baseAddress, 1, target.count, file)
        }
        guard storage.count == Int(size), ferror(file) == 0 else {
            throw TFLiteSchemaError.unreadableFile(path: path, reason: "read \(storage.count) of \(size) bytes")
        }
        return storage
    }
}
