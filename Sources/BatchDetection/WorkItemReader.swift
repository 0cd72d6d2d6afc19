import Foundation

/// Reads work-item lines from a file descriptor (stdin or a list file), one at a time, so
/// memory stays flat however long the list is.
///
/// Blank lines are skipped and are not items. Every other line is an item with a 0-based
/// ordinal (its position among items): shards are assigned by ordinal, so a line that does not
/// parse still belongs to exactly one shard and becomes that shard's error record.
/// A line longer than ``maximumLineLength`` bytes is read past (never held whole) and reported
/// as an invalid item.
public final class WorkItemReader {
    /// The longest accepted line, in bytes (64 KiB: paths are at most a few KiB on every system).
    public static let maximumLineLength = 1 << 16

    /// One item read from the input.
    public struct Entry: Sendable {
        /// Position among the input's items, from 0.
        public var ordinal: Int
        /// The parsed item, or why the line is not one.
        public var item: Result<WorkItem, BatchFailure>
    }

    private let descriptor: Int32
    private let closesDescriptor: Bool
    private var buffer: [UInt8] = []
    private var start = 0
    private var reachedEnd = false
    private var nextOrdinal = 0

    /// Reads from an open descriptor (not closed by the reader).
    public init(descriptor: Int32) {
        self.descriptor = descriptor
        closesDescriptor = false
    }

    /// Opens a list file.
    /// - Throws: ``BatchRunError/inputUnavailable(_:)`` when it cannot be opened.
    public init(path: String) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw BatchRunError.inputUnavailable("cannot open the work-item list \(path): \(String(cString: strerror(errno)))")
        }
        descriptor = fd
        closesDescriptor = true
    }

    deinit {
        if closesDescriptor { close(descriptor) }
    }

    /// The next item, or nil at the end of the input.
    /// - Throws: ``BatchRunError/inputUnavailable(_:)`` on a read error.
    public func next() throws -> Entry? {
        while let line = try nextLine() {
            let parsed: Result<WorkItem, BatchFailure>
            switch line {
            case .text(let bytes):
                if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
                if let text = String(validating: bytes, as: UTF8.self) {
                    parsed = WorkItem.parse(line: text)
                } else {
                    parsed = .failure(BatchFailure(id: .string(String(decoding: bytes, as: UTF8.self)),
                                                   error: BatchItemError(.invalidItem, "the line is not valid UTF-8")))
                }
            case .tooLong(let prefix):
                parsed = .failure(BatchFailure(id: .string(String(decoding: prefix, as: UTF8.self) + "…"), error: BatchItemError(
                    .invalidItem, "the line is longer than \(Self.maximumLineLength) bytes")))
            }
            defer { nextOrdinal += 1 }
            return Entry(ordinal: nextOrdinal, item: parsed)
        }
        return nil
    }

    /// Counts the items left in a regular file without consuming them (for progress and ETA),
    /// or nil when the input is a pipe or terminal (cannot be read twice).
    public func countRemainingItems() throws -> Int? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        let position = lseek(descriptor, 0, SEEK_CUR)
        guard position >= 0 else { return nil }
        let counter = WorkItemReader(descriptor: descriptor)
        var count = 0
        while try counter.nextLine() != nil { count += 1 }
        count -= counter.blankLines
        guard lseek(descriptor, position, SEEK_SET) == position else { return nil }
        return count + bufferedItemCount()
    }

    // MARK: - Lines

    private enum Line { case text(ArraySlice<UInt8>), tooLong(ArraySlice<UInt8>) }
    private var blankLines = 0

    /// The next raw line (without `\n`), or nil at end of input.
    private func nextLine() throws -> Line? {
        var discarding: ArraySlice<UInt8>?
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let line = buffer[start..<newline]
                start = newline + 1
                if let prefix = discarding { return .tooLong(prefix) }
                if line.count > Self.maximumLineLength { return .tooLong(line.prefix(200)) }
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { blankLines += 1 }
                return .text(line)
            }
            if buffer.count - start > Self.maximumLineLength {
                if discarding == nil { discarding = buffer[start..<(start + 200)] }
                buffer.removeAll(keepingCapacity: true)
                start = 0
            }
            if reachedEnd {
                guard start < buffer.count || discarding != nil else { return nil }
                let line = buffer[start...]
                start = buffer.count
                if let prefix = discarding { return .tooLong(prefix) }
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { blankLines += 1 }
                return .text(line)
            }
            try fill()
        }
    }

    /// Appends the next chunk of the input to the buffer (compacting consumed bytes first).
    private func fill() throws {
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        let chunk = 1 << 16
        let oldCount = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunk))
        var readCount: Int
        repeat {
            readCount = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + oldCount, chunk) }
        } while readCount < 0 && errno == EINTR
        guard readCount >= 0 else {
            buffer.removeLast(chunk)
            throw BatchRunError.inputUnavailable("cannot read the work items: \(String(cString: strerror(errno)))")
        }
        buffer.removeLast(chunk - readCount)
        if readCount == 0 { reachedEnd = true }
    }

    /// Items already buffered by this reader but not yet returned.
    private func bufferedItemCount() -> Int {
        guard start < buffer.count else { return 0 }
        var count = 0
        var lineStart = start
        for i in start..<buffer.count where buffer[i] == 0x0A {
            if !buffer[lineStart..<i].allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { count += 1 }
            lineStart = i + 1
        }
        if lineStart < buffer.count, !buffer[lineStart...].allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
            count += 1
        }
        return count
    }
}
