import Foundation

/// Reading and writing image files by path with messages that say what is wrong: a
/// directory or a device where a file was expected, a full disk. Writes go to a temporary file
/// beside the target and are renamed over it, so a failed write never leaves half a file, and
/// an existing special file (a device node, a pipe) is refused rather than replaced.
enum RegularFile {
    /// Largest image file read (1 GiB): far above any photo, far below what exhausts memory.
    static let maximumReadSize = 1 << 30

    /// The bytes of the regular file at `path`.
    /// - Throws: ``ImageCodecError/fileAccess(path:reason:)`` for missing files, directories,
    ///   special files, files above ``maximumReadSize`` and read errors (with the system's reason).
    static func read(_ path: String) throws -> [UInt8] {
        var status = stat()
        guard stat(path, &status) == 0 else { throw failure(path, errno) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw ImageCodecError.fileAccess(path: path, reason: "it is a directory, not an image file")
        default: throw ImageCodecError.fileAccess(path: path, reason: "not a regular file (a device, pipe or socket)")
        }
        guard status.st_size <= maximumReadSize else {
            throw ImageCodecError.fileAccess(path: path, reason: "\(status.st_size) bytes, more than the \(maximumReadSize >> 20) MiB limit")
        }
        guard let file = fopen(path, "rb") else { throw failure(path, errno) }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        let read = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
        guard ferror(file) == 0 else { throw failure(path, errno) }
        return Array(bytes.prefix(read))
    }

    /// Writes `bytes` to `path` through a temporary file renamed over it.
    /// - Throws: ``ImageCodecError/fileAccess(path:reason:)`` when `path` is a directory or a
    ///   special file, or the write fails (the reason says why, e.g. "No space left on device").
    static func write(_ bytes: [UInt8], to path: String) throws {
        var status = stat()
        if stat(path, &status) == 0 {
            switch status.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFDIR: throw ImageCodecError.fileAccess(path: path, reason: "it is a directory; give a file name")
            default:
                throw ImageCodecError.fileAccess(
                    path: path, reason: "it is a special file (a device, pipe or socket) and is not replaced; give a regular file name")
            }
        }
        let temporary = path + ".partial-\(getpid())"
        guard let file = fopen(temporary, "wb") else { throw failure(path, errno) }
        var code: Int32 = 0
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        if written != bytes.count { code = errno != 0 ? errno : EIO }
        if fclose(file) != 0, code == 0 { code = errno != 0 ? errno : EIO }
        if code == 0, rename(temporary, path) != 0 { code = errno }
        guard code == 0 else {
            unlink(temporary)
            throw failure(path, code)
        }
    }

    private static func failure(_ path: String, _ code: Int32) -> ImageCodecError {
        .fileAccess(path: path, reason: String(cString: strerror(code)))
    }
}
