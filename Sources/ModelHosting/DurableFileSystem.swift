import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The few POSIX calls crash safety needs and Foundation does not expose directly:
/// `fsync` of files and directories, and `rename` that atomically replaces its target.
enum DurableFileSystem {
    /// Flushes the file or directory at `path` to stable storage.
    ///
    /// - Throws: ``ModelHostingError/fileSystem(_:)``.
    static func sync(_ path: String) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw failure("open", path) }
        defer { _ = close(descriptor) }
        guard fsync(descriptor) == 0 else { throw failure("fsync", path) }
    }

    /// Atomically renames `source` to `target`, replacing `target` if it exists; both must be on
    /// the same file system (they are: everything lives in the cache directory).
    ///
    /// - Throws: ``ModelHostingError/fileSystem(_:)``.
    static func rename(_ source: String, to target: String) throws {
        #if canImport(Darwin)
        let result = Darwin.rename(source, target)
        #elseif canImport(Musl)
        let result = Musl.rename(source, target)
        #else
        let result = Glibc.rename(source, target)
        #endif
        guard result == 0 else { throw failure("rename to \(target)", source) }
    }

    /// Writes `data` to `path` so that, after a crash, `path` holds either its previous contents
    /// or all of `data`: a temporary file in the same directory, fsync, rename, fsync directory.
    static func writeAtomically(_ data: Data, to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = (directory as NSString).appendingPathComponent(".tmp-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: temporary, contents: data) else {
            throw ModelHostingError.fileSystem("cannot write \(temporary)")
        }
        do {
            try sync(temporary)
            try rename(temporary, to: path)
            try sync(directory)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
    }

    private static func failure(_ operation: String, _ path: String) -> ModelHostingError {
        .fileSystem("\(operation) \(path): \(String(cString: strerror(errno)))")
    }
}
