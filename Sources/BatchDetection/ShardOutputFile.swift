import Foundation

/// The resumable output of one shard: `DIR/part-I.jsonl`.
///
/// Records go to a temporary file private to this process (`DIR/.part-I.jsonl.HOST-PID.tmp`),
/// which is flushed to disk and atomically renamed to `part-I.jsonl` once the shard's last
/// record is written. So `part-I.jsonl` exists only when it is complete: a run killed halfway
/// leaves no partial `part-I.jsonl`, a rerun (a retry, or a speculative copy running at the same
/// time) redoes the shard into its own temporary file, and a shard whose `part-I.jsonl` exists
/// is skipped. Two copies that both finish write identical content, so whichever rename lands
/// last changes nothing. After a successful commit, temporary files of the same shard left by
/// killed runs are removed.
public final class ShardOutputFile: RecordWriter {
    /// The finished file.
    public let finalPath: String
    /// This process's temporary file.
    public let temporaryPath: String
    private let directory: String
    private let shard: Shard
    private var descriptor: Int32
    private var committed = false

    /// `DIR/part-I.jsonl` for shard `I`.
    public static func finalPath(in directory: String, shard: Shard) -> String {
        (directory as NSString).appendingPathComponent("part-\(shard.index).jsonl")
    }

    /// Whether the shard's output is already complete (its final file exists).
    public static func isComplete(in directory: String, shard: Shard) -> Bool {
        var status = stat()
        return stat(finalPath(in: directory, shard: shard), &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// Creates the directory if needed and opens a fresh temporary file for the shard.
    /// - Throws: ``BatchRunError/outputFailed(_:)``.
    public init(directory: String, shard: Shard) throws {
        self.directory = directory
        self.shard = shard
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw BatchRunError.outputFailed("cannot create the output directory \(directory): \(error.localizedDescription)")
        }
        finalPath = Self.finalPath(in: directory, shard: shard)
        let host = ProcessInfo.processInfo.hostName.replacingOccurrences(of: "/", with: "_")
        temporaryPath = (directory as NSString).appendingPathComponent(
            ".part-\(shard.index).jsonl.\(host)-\(getpid()).tmp")
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw BatchRunError.outputFailed("cannot create \(temporaryPath): \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        if !committed { unlink(temporaryPath) }
    }

    /// Appends the record to the temporary file (one `write` per record, so the file shows progress).
    public func write(line: String) throws {
        try writeAll(descriptor, Array((line + "\n").utf8), what: temporaryPath)
    }

    /// Flushes, syncs and renames the temporary file to `part-I.jsonl`, then syncs the directory.
    public func finish() throws {
        guard fsync(descriptor) == 0 else { throw failure("syncing \(temporaryPath)") }
        close(descriptor)
        descriptor = -1
        if rename(temporaryPath, finalPath) != 0 {
            let code = errno
            // A concurrent copy of this shard finished first and cleaned up our file: its output is ours.
            guard code == ENOENT, Self.isComplete(in: directory, shard: shard) else {
                throw BatchRunError.outputFailed("cannot rename \(temporaryPath) to \(finalPath): \(String(cString: strerror(code)))")
            }
        }
        committed = true
        let directoryDescriptor = open(directory, O_RDONLY)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
        removeStaleTemporaryFiles()
    }

    private func removeStaleTemporaryFiles() {
        let prefix = ".part-\(shard.index).jsonl."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            unlink((directory as NSString).appendingPathComponent(name))
        }
    }

    private func failure(_ what: String) -> BatchRunError {
        .outputFailed("\(what) failed: \(String(cString: strerror(errno)))")
    }
}
