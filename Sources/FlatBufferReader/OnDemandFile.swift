#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A reason a file could not be read on demand: an I/O error, or the file was truncated,
/// replaced in place or modified after it was opened.
public struct FileReadError: Error, Equatable, Sendable, CustomStringConvertible {
    public let reason: String
    public var description: String { reason }
}

/// The open file behind a `ByteStorage` whose pages are read when first needed
/// (`ByteStorage(readingOnDemand:count:)`): the storage's memory is an anonymous mapping of the
/// file's size whose untouched pages cost nothing, and this object reads the file's pages into
/// it (`pread`), one bit per 4 KiB page recording which are in.
///
/// The file stays open (a duplicate of the caller's descriptor) as long as the storage lives, so
/// a file replaced by a rename keeps being read from the one opened. A file truncated or written
/// in place is detected: `verifyUnchanged` checks that its size and modification time are those
/// it had when opened, which the storage does when it is sealed (covering every read before) and
/// after every read since, failing with `FileReadError` otherwise: bytes of two versions are never
/// handed out. Reads past the end (a file truncated under us) fail the same way instead of the
/// `SIGBUS` a mapping of the file would raise.
///
/// Thread-safe: reads take a lock; a page's bit is set only after its bytes are written.
final class OnDemandFile: @unchecked Sendable {
    static let pageBytes = 4096
    /// Reads of at least this many bytes have their pages provided first (Linux).
    private static let populatedReadBytes = 16 * pageBytes
    /// `MADV_POPULATE_WRITE` (Linux 5.14), which the C library headers may not name.
    private static let populateWrite: Int32 = 23

    private let descriptor: Int32
    private let size: Int
    private let modified: (seconds: Int, nanoseconds: Int)
    /// One bit per page. Guarded by the mutex (or owned by the loading thread before the seal),
    /// so the dynamic exclusivity check of a class's stored property is left out: it was about
    /// 7% of efficientnet_lite0's load, one per page test.
    @exclusivity(unchecked) private var resident: [UInt64]
    /// Allocated, so that its address stays fixed for pthread.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// Duplicates `descriptor`, whose file must hold `size` bytes.
    init(duplicating descriptor: Int32, size: Int) throws {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw FileReadError(reason: Self.systemError("fstat")) }
        guard Int(status.st_size) == size else {
            throw FileReadError(reason: "the file has \(status.st_size) bytes, not the \(size) expected")
        }
        let duplicate = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        guard duplicate >= 0 else { throw FileReadError(reason: Self.systemError("fcntl(F_DUPFD_CLOEXEC)")) }
        self.descriptor = duplicate
        self.size = size
        modified = Self.modificationTime(status)
        resident = [UInt64](repeating: 0, count: (size + 64 * Self.pageBytes - 1) / (64 * Self.pageBytes))
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        close(descriptor)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Reads the pages of `range` (bytes of the file, clamped to it) that are not in yet into
    /// `memory` (the storage's base address), at their file offsets, then checks the file
    /// (`verifyUnchanged`). Without `locking` (for a storage not yet shared: its owner's single
    /// thread, whose reads the seal checks at once) neither the lock nor the check is taken.
    /// - Complexity: one bit test per page; one `pread` per run of missing pages.
    func makeResident(_ range: Range<Int>, memory: UnsafeMutableRawPointer, locking: Bool = true) throws {
        let lower = max(0, range.lowerBound), upper = min(size, range.upperBound)
        guard lower < upper else { return }
        let first = lower / Self.pageBytes, last = (upper - 1) / Self.pageBytes
        if !locking && isResident(first) && isResident(last) && last - first <= 1 { return }
        if locking { pthread_mutex_lock(mutex) }
        defer { if locking { pthread_mutex_unlock(mutex) } }
        var page = first
        while page <= last {
            guard !isResident(page) else { page += 1; continue }
            var end = page + 1
            while end <= last, !isResident(end) { end += 1 }
            let start = page * Self.pageBytes, stop = min(size, end * Self.pageBytes)
            Self.populate(memory + start, byteCount: stop - start)
            try read(start..<stop, into: memory + start)
            for p in page..<end { resident[p >> 6] |= 1 << UInt64(p & 63) }
            page = end
        }
        if locking { try verifyUnchanged() }
    }

    /// Whether every page of `range` is in.
    func isResident(_ range: Range<Int>) -> Bool {
        let lower = max(0, range.lowerBound), upper = min(size, range.upperBound)
        guard lower < upper else { return true }
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return (lower / Self.pageBytes...(upper - 1) / Self.pageBytes).allSatisfy(isResident)
    }

    /// Reads file bytes `range` into `destination` without keeping them (`range` inside the file).
    func copy(_ range: Range<Int>, into destination: UnsafeMutableRawPointer) throws {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        try read(range, into: destination)
        try verifyUnchanged()
    }

    private func isResident(_ page: Int) -> Bool { resident[page >> 6] & (1 << UInt64(page & 63)) != 0 }

    /// Has the kernel provide the fresh anonymous pages of a long run in one call, before
    /// `pread` writes them: cheaper than the page fault each would take (a quarter of a 2.5 MB
    /// model's read on a Zen 4 virtual machine). An older kernel refuses the advice (EINVAL), and
    /// the faults provide the pages as before. `start` is page-aligned (the storage's mapping).
    private static func populate(_ start: UnsafeMutableRawPointer, byteCount: Int) {
        #if os(Linux)
        if byteCount >= populatedReadBytes, Int(bitPattern: start) % pageBytes == 0 {
            _ = madvise(start, byteCount, populateWrite)
        }
        #endif
    }

    /// `pread` of `range` in full.
    private func read(_ range: Range<Int>, into destination: UnsafeMutableRawPointer) throws {
        var done = 0
        while done < range.count {
            let n = pread(descriptor, destination + done, range.count - done, off_t(range.lowerBound + done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                throw FileReadError(reason: n == 0
                    ? "the file ends before byte \(range.upperBound): it was truncated after it was opened; load the model again"
                    : Self.systemError("read"))
            }
            done += n
        }
    }

    /// Checks that the file still has the size and modification time it had when opened.
    /// - Throws: `FileReadError` when it does not, or cannot be checked.
    func verifyUnchanged() throws {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw FileReadError(reason: Self.systemError("fstat")) }
        guard Int(status.st_size) == size, Self.modificationTime(status) == modified else {
            throw FileReadError(reason: "the file was modified after it was opened (now \(status.st_size) bytes); load the model again")
        }
    }

    private static func modificationTime(_ status: stat) -> (seconds: Int, nanoseconds: Int) {
        #if canImport(Darwin)
        (Int(status.st_mtimespec.tv_sec), Int(status.st_mtimespec.tv_nsec))
        #else
        (Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec))
        #endif
    }

    private static func systemError(_ call: String) -> String { "\(call) failed: \(String(cString: strerror(errno)))" }
}
