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
/// Holds the file bytes in one 64-byte-aligned allocation that lives as long as the object. A
/// model read from a file (`init(contentsOf:)`) leaves the weights that the interpreter packs in
/// the file (`DeferredWeights`, `isDeferred`) and keeps the file open: they are read when needed,
/// and a file truncated or modified in place meanwhile fails those reads with
/// ``TFLiteSchemaError/unreadableFile(path:reason:)`` (a file replaced by a rename is not
/// affected: the opened one is read).
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
    /// Buffers whose bytes the file keeps until they are needed (`DeferredWeights`).
    private let deferredBuffers: Set<Int>
    /// Bytes of the largest deferred buffer (0 without any): room to read any of them into.
    public let largestDeferredByteCount: Int
    /// The file read, for messages.
    private let path: String

    /// Parses and validates a model from bytes (copied into owned, aligned storage).
    /// - Throws: ``TFLiteSchemaError`` for malformed files, ``ResourceLimitError`` when its
    ///   archive or label files exceed `limits`.
    public convenience init(bytes: [UInt8], limits: ResourceLimits = .default) throws {
        try self.init(storage: ByteStorage(copying: bytes), limits: limits)
    }

    /// Reads, parses and validates the model at `path`: the pages the parse touches, then every
    /// other byte but the deferred weights (`DeferredWeights`).
    public convenience init(contentsOf path: String, limits: ResourceLimits = .default) throws {
        try self.init(storage: try FileReader.read(path: path, onDemand: true), limits: limits, path: path)
    }

    /// Parses and validates a model held in `storage` (read from `path` when it reads on demand).
    init(storage: ByteStorage, limits: ResourceLimits = .default, path: String = "the model's bytes") throws {
        let decoded: ModelDecoder.Decoded
        do {
            let decoder = try ModelDecoder(storage: storage)
            var buffers: [Range<Int>]?
            if storage.readsOnDemand {
                // Every byte but the buffers large enough to be deferred (`DeferredWeights`), in a
                // few long reads: the decode would otherwise read the tables page by page, and
                // the rest is read below anyway.
                let ranges = try decoder.bufferRanges()
                try storage.makeResident(allBut: ranges.filter { $0.count >= DeferredWeights.minimumBytes })
                buffers = ranges
            }
            decoded = try decoder.decode(bufferRanges: buffers)
            try ModelValidator(operatorCodes: decoded.operatorCodes, subgraphs: decoded.subgraphs,
                               bufferSizes: decoded.buffers.map(\.count), signatures: decoded.signatures,
                               metadataEntries: decoded.metadataEntries).validate()
        } catch {
            // Bytes a failed read left as zeros explain a malformed parse better than the parse does.
            if let failure = storage.readFailure ?? error as? FileReadError {
                throw TFLiteSchemaError.unreadableFile(path: path, reason: failure.reason)
            }
            throw error
        }
        self.storage = storage
        self.path = path
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
        deferredBuffers = storage.readsOnDemand
            ? DeferredWeights.buffers(operatorCodes: decoded.operatorCodes, subgraphs: decoded.subgraphs,
                                      signatures: decoded.signatures, metadataEntries: decoded.metadataEntries,
                                      bufferRanges: decoded.buffers)
            : []
        largestDeferredByteCount = deferredBuffers.map { decoded.buffers[$0].count }.max() ?? 0
        do {
            if let failure = storage.readFailure { throw failure }
            try storage.makeResident(allBut: deferredBuffers.map { decoded.buffers[$0] })
            for (index, range) in decoded.buffers.enumerated() where !deferredBuffers.contains(index) {
                try storage.makeResident(range)     // one overlapping a deferred buffer's pages
            }
            try storage.seal()
        } catch let failure as FileReadError {
            throw TFLiteSchemaError.unreadableFile(path: path, reason: failure.reason)
        }
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

    /// Calls `body` with the bytes of buffer `index` (empty for empty or out-of-range buffers),
    /// reading a deferred buffer into memory first (`makeBufferResident`). The pointer stays
    /// valid as long as this object lives. Inline buffers are not necessarily aligned to their
    /// element type: read with `loadUnaligned` or copy.
    /// - Throws: ``TFLiteSchemaError/unreadableFile(path:reason:)`` when a deferred buffer cannot
    ///   be read (the file was truncated or modified in place), or what `body` throws.
    public func withBufferBytes<R>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        guard index >= 0, index < bufferRanges.count else {
            return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        try makeBufferResident(index)
        return try body(storage.unsafeBytes(in: bufferRanges[index]))
    }

    /// A copy of buffer `index` (empty for empty or out-of-range buffers).
    /// - Throws: as `withBufferBytes`.
    public func bufferBytes(_ index: Int) throws -> [UInt8] {
        try withBufferBytes(index) { Array($0) }
    }

    /// Whether buffer `index` is still only in the file (`DeferredWeights`): `withBufferBytes`,
    /// `makeBufferResident` and `copyBuffer` read it.
    public func isDeferred(_ index: Int) -> Bool {
        deferredBuffers.contains(index) && !storage.isResident(bufferRanges[index])
    }

    /// Where buffer `index`'s bytes are, or will be once read, in memory (nil for empty or
    /// out-of-range buffers); reads nothing. A deferred buffer's bytes there read as zeros
    /// until `makeBufferResident(index)`.
    public func bufferAddress(_ index: Int) -> UnsafeRawPointer? {
        guard index >= 0, index < bufferRanges.count, !bufferRanges[index].isEmpty else { return nil }
        return storage.unsafeBytes(in: bufferRanges[index]).baseAddress
    }

    /// Reads buffer `index` into memory if it is deferred and not in yet. Thread-safe.
    /// - Throws: ``TFLiteSchemaError/unreadableFile(path:reason:)`` when the file was truncated
    ///   or modified in place since it was opened, or cannot be read.
    public func makeBufferResident(_ index: Int) throws {
        guard deferredBuffers.contains(index) else { return }
        do { try storage.makeResident(bufferRanges[index]) } catch let failure as FileReadError {
            throw TFLiteSchemaError.unreadableFile(path: path, reason: failure.reason)
        }
    }

    /// Copies buffer `index` (`bufferByteCount(index)` bytes) to `destination`, straight from the
    /// file when it is deferred, without keeping it in memory. Thread-safe.
    /// - Throws: as `makeBufferResident`.
    public func copyBuffer(_ index: Int, into destination: UnsafeMutableRawPointer) throws {
        guard index >= 0, index < bufferRanges.count, !bufferRanges[index].isEmpty else { return }
        do { try storage.copyBytes(in: bufferRanges[index], into: destination) } catch let failure as FileReadError {
            throw TFLiteSchemaError.unreadableFile(path: path, reason: failure.reason)
        }
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

    /// Reads the regular file at `path`, refusing directories and special files and files above
    /// `maximumSize` bytes before reading anything: whole, or, `onDemand`, into storage that
    /// reads its pages as they are first needed (`ByteStorage(readingOnDemand:count:)`).
    static func read(path: String, maximumSize: Int = maxFileSize, onDemand: Bool = false) throws -> ByteStorage {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw TFLiteSchemaError.unreadableFile(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw TFLiteSchemaError.unreadableFile(path: path, reason: String(cString: strerror(errno)))
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw TFLiteSchemaError.unreadableFile(path: path, reason: "it is a directory, not a file")
        default: throw TFLiteSchemaError.unreadableFile(path: path, reason: "not a regular file (a device, pipe or socket)")
        }
        let size = Int(status.st_size)
        guard size <= maximumSize, size <= maxFileSize else {
            throw TFLiteSchemaError.unreadableFile(
                path: path, reason: "the file has \(size) bytes, more than the limit of \(min(maximumSize, maxFileSize)) bytes")
        }
        do {
            let storage = try ByteStorage(readingOnDemand: descriptor, count: size)
            if !onDemand {
                try storage.makeResident(0..<size)
                try storage.seal()
            }
            return storage
        } catch let failure as FileReadError {
            throw TFLiteSchemaError.unreadableFile(path: path, reason: failure.reason)
        }
    }
}
