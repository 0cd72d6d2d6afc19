import Foundation

/// Where the JSON records of a batch run go, one line each.
public protocol RecordWriter: AnyObject {
    /// Writes one record line (without its newline).
    /// - Throws: ``BatchRunError/outputFailed(_:)``.
    func write(line: String) throws
    /// Makes everything written durable and visible; called once after the last record.
    func finish() throws
}

/// Writes records to a file descriptor (standard output), one `write` per line, so each record
/// reaches the reader (a pipe to Spark or Ray) as soon as it is done.
public final class LineStreamWriter: RecordWriter {
    private let descriptor: Int32

    /// Writes to `descriptor` (default: standard output).
    public init(descriptor: Int32 = 1) {
        self.descriptor = descriptor
    }

    public func write(line: String) throws {
        try writeAll(descriptor, Array((line + "\n").utf8), what: "standard output")
    }

    public func finish() throws {}
}

/// Writes all of `bytes` to `descriptor`, retrying short writes and interruptions.
func writeAll(_ descriptor: Int32, _ bytes: [UInt8], what: String) throws {
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else {
            throw BatchRunError.outputFailed("writing \(what) failed: \(String(cString: strerror(errno)))")
        }
        offset += n
    }
}
