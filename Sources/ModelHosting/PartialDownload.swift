import Foundation

/// What is needed to resume a partial download safely: the URL it came from and the server's
/// validator (a strong `ETag`, else `Last-Modified`) sent back as `If-Range`.
struct PartialDownloadInfo: Sendable, Codable, Equatable {
    /// The model file URL the bytes came from.
    var url: String
    /// The validator; without one a partial file is not resumed.
    var validator: String?

    /// Reads the sidecar at `path`, nil if absent or unreadable.
    static func load(_ path: String) -> PartialDownloadInfo? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(PartialDownloadInfo.self, from: data)
    }

    /// Writes the sidecar atomically.
    func save(_ path: String) throws {
        let data: Data
        do { data = try JSONEncoder().encode(self) } catch {
            throw ModelHostingError.fileSystem("cannot encode resume info: \(error)")
        }
        try DurableFileSystem.writeAtomically(data, to: path)
    }

    /// Size of the file at `path`, 0 when absent.
    static func fileSize(_ path: String) -> Int64 {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return 0 }
        return (attributes[.size] as? NSNumber)?.int64Value ?? 0
    }
}

/// Appends response bytes to the partial file. Used from one delegate queue at a time; the lock
/// makes the size readable from the progress reporter.
final class PartialFileWriter: @unchecked Sendable {
    private let path: String
    private let lock = NSLock()
    private var handle: FileHandle?
    private var written: Int64 = 0

    init(path: String) {
        self.path = path
    }

    /// Bytes in the file so far.
    var size: Int64 {
        lock.lock(); defer { lock.unlock() }
        return written
    }

    /// Opens the file, keeping its first `offset` bytes and dropping the rest.
    func open(appendingAt offset: Int64) throws {
        lock.lock(); defer { lock.unlock() }
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw ModelHostingError.fileSystem("cannot create \(path)")
            }
        }
        do {
            let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
            try handle.truncate(atOffset: UInt64(offset))
            try handle.seek(toOffset: UInt64(offset))
            self.handle = handle
            written = offset
        } catch {
            throw ModelHostingError.fileSystem("cannot open \(path): \(ModelHostingError.reason(error))")
        }
    }

    /// Appends `data`.
    func write(_ data: Data) throws {
        lock.lock(); defer { lock.unlock() }
        guard let handle else { throw ModelHostingError.fileSystem("\(path) is not open") }
        do {
            try handle.write(contentsOf: data)
            written += Int64(data.count)
        } catch {
            throw ModelHostingError.fileSystem("write to \(path) failed: \(ModelHostingError.reason(error))")
        }
    }

    /// Flushes and closes; throws if the data could not be flushed (e.g. the disk is full).
    func finish() throws {
        lock.lock(); defer { lock.unlock() }
        guard let handle else { return }
        self.handle = nil
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            throw ModelHostingError.fileSystem("flush of \(path) failed: \(ModelHostingError.reason(error))")
        }
    }

    /// Closes without reporting errors (after a failure).
    func close() {
        lock.lock(); defer { lock.unlock() }
        try? handle?.close()
        handle = nil
    }
}

/// A parsed `Content-Range: bytes start-end/total` header (`total` may be `*`).
struct ContentRange: Equatable {
    var start: Int64
    var end: Int64
    var total: Int64?

    init(start: Int64, end: Int64, total: Int64?) {
        self.start = start
        self.end = end
        self.total = total
    }

    init?(_ header: String?) {
        guard let header else { return nil }
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = trimmed.dropFirst(6)
        let parts = spec.split(separator: "/", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let bounds = parts[0].split(separator: "-", maxSplits: 1)
        guard bounds.count == 2, let start = Int64(bounds[0]), let end = Int64(bounds[1]), start <= end else { return nil }
        self.start = start
        self.end = end
        if parts[1] == "*" {
            total = nil
        } else {
            guard let total = Int64(parts[1]), total > end else { return nil }
            self.total = total
        }
    }
}

/// SHA-256 of a file, read in chunks.
enum FileDigest {
    static func sha256Hex(ofFileAt path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ModelHostingError.fileSystem("cannot open \(path)")
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        while true {
            let chunk: Data
            do { chunk = try handle.read(upToCount: 1 << 20) ?? Data() } catch {
                throw ModelHostingError.fileSystem("read of \(path) failed: \(ModelHostingError.reason(error))")
            }
            if chunk.isEmpty { break }
            hasher.update(chunk)
        }
        return SHA256.hexString(hasher.finalize())
    }
}
