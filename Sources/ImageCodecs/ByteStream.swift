import Foundation

/// A forward-only byte source with a small look-ahead buffer, over memory or a file handle
/// (including pipes such as standard input).
final class ByteStream {
    private enum Source {
        case memory
        case handle(FileHandle)
    }

    private let source: Source
    private var buffer: [UInt8]
    private var position = 0
    private var reachedEnd = false
    private let chunkSize = 1 << 20

    /// Reads from bytes held in memory.
    init(bytes: [UInt8]) {
        source = .memory
        buffer = bytes
        reachedEnd = true
    }

    /// Reads from a file handle until it reports end of file.
    init(handle: FileHandle) {
        source = .handle(handle)
        buffer = []
    }

    /// Bytes buffered but not yet consumed.
    private var available: Int { buffer.count - position }

    /// Reads another chunk from the handle; returns false at end of input.
    private func refill() throws -> Bool {
        guard case let .handle(handle) = source, !reachedEnd else { return false }
        let chunk: Data?
        do {
            chunk = try handle.read(upToCount: chunkSize)
        } catch {
            throw ImageCodecError.fileAccess(path: "stream", reason: "\(error)")
        }
        guard let chunk, !chunk.isEmpty else {
            reachedEnd = true
            return false
        }
        if position > 0 {
            buffer.removeFirst(position)
            position = 0
        }
        buffer.append(contentsOf: chunk)
        return true
    }

    /// True when no byte is left.
    func isAtEnd() throws -> Bool {
        while available == 0 {
            if try !refill() { return true }
        }
        return false
    }

    /// Reads bytes up to and excluding the next `terminator`, which is consumed.
    /// Returns nil when the input ends first or when more than `maxLength` bytes precede it.
    func readLine(terminator: UInt8 = 0x0A, maxLength: Int) throws -> (line: [UInt8], complete: Bool) {
        var scanned = 0
        while true {
            while scanned < available {
                if buffer[position + scanned] == terminator {
                    let line = Array(buffer[position..<(position + scanned)])
                    position += scanned + 1
                    return (line, true)
                }
                scanned += 1
                if scanned > maxLength {
                    return (Array(buffer[position..<(position + scanned)]), false)
                }
            }
            if try !refill() {
                let line = Array(buffer[position...])
                position = buffer.count
                return (line, false)
            }
        }
    }

    /// Reads exactly `count` bytes, or fewer if the input ends first.
    func read(count: Int) throws -> [UInt8] {
        var out = [UInt8]()
        // Reserve at most 64 MiB up front so a header promising huge frames cannot make a
        // short stream allocate them.
        out.reserveCapacity(min(count, 1 << 26))
        while out.count < count {
            if available == 0, try !refill() { break }
            let take = min(count - out.count, available)
            out.append(contentsOf: buffer[position..<(position + take)])
            position += take
        }
        if position == buffer.count, case .handle = source {
            buffer.removeAll(keepingCapacity: true)
            position = 0
        }
        return out
    }
}
