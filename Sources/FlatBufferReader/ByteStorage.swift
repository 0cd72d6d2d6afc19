#if os(Linux) && canImport(Glibc)
import Glibc
#endif

/// An immutable, 64-byte-aligned copy of a byte sequence that lives as long as the object.
///
/// All views (`FlatBuffer`, `FlatTable`, `FlatVector`, FlexBuffer references) keep a
/// reference to their storage, so the memory stays valid while any view exists.
/// The bytes are never mutated after `init`, which makes sharing across threads safe.
///
/// A storage read from a file on demand (`init(readingOnDemand:count:)`) holds only the pages
/// read so far: until `seal()`, every accessor first reads the pages it touches (a failure is
/// kept in `readFailure` and the bytes read as zeros); after it, accessors read memory only, and
/// pages still out are read by `makeResident(_:)` or copied by `copyBytes(in:into:)` — the
/// owner's explicit, throwing steps. Bytes once read never change.
public final class ByteStorage: @unchecked Sendable {
    /// Alignment of the first byte.
    public static let alignment = 64

    /// Number of bytes.
    public let count: Int
    private let pointer: UnsafeMutableRawPointer
    /// Bytes of the anonymous mapping `pointer` starts (unmapped in `deinit`); 0 when `pointer`
    /// comes from `allocate` (deallocated instead).
    private let mappedBytes: Int
    /// The file whose pages are read on demand, nil for storage filled at `init`.
    private let onDemand: OnDemandFile?
    /// Set by `seal()`: accessors no longer read pages.
    private var sealed = false
    /// The first failure of a read an accessor made before `seal()` (the bytes then read as zeros).
    public private(set) var readFailure: FileReadError?

    /// Copies `bytes` into a new aligned allocation.
    public init<C: Collection>(copying bytes: C) where C.Element == UInt8 {
        let count = bytes.count
        self.count = count
        mappedBytes = 0
        onDemand = nil
        pointer = UnsafeMutableRawPointer.allocate(byteCount: Swift.max(count, 1), alignment: Self.alignment)
        let copied: Void? = bytes.withContiguousStorageIfAvailable { source in
            pointer.copyMemory(from: UnsafeRawPointer(source.baseAddress ?? UnsafePointer(bitPattern: 1)!), byteCount: count)
        }
        if copied == nil {
            let target = UnsafeMutableRawBufferPointer(start: pointer, count: count)
            _ = target.initializeMemory(as: UInt8.self, from: bytes)
        }
    }

    /// Storage for the `count` bytes of the regular file open at `descriptor` (duplicated: the
    /// caller closes its own), read page by page as they are first needed: pages never touched
    /// cost neither memory nor reading. Zeros stand for the pages not read (on Linux an
    /// anonymous mapping that the kernel provides as they are written; elsewhere zeroed memory).
    /// - Throws: `FileReadError` when the descriptor cannot be duplicated or the file does not
    ///   have `count` bytes.
    public init(readingOnDemand descriptor: Int32, count: Int) throws {
        let capacity = Swift.max(count, 0)
        var mapping: UnsafeMutableRawPointer?
        #if os(Linux) && canImport(Glibc)
        if capacity > 0, let raw = mmap(nil, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
           raw != MAP_FAILED {
            mapping = raw
        }
        #endif
        if mapping == nil {
            let memory = UnsafeMutableRawPointer.allocate(byteCount: Swift.max(capacity, 1), alignment: Self.alignment)
            memory.initializeMemory(as: UInt8.self, repeating: 0, count: Swift.max(capacity, 1))
            pointer = memory
        } else {
            pointer = mapping!
        }
        mappedBytes = mapping == nil ? 0 : capacity
        self.count = capacity
        do {
            onDemand = try OnDemandFile(duplicating: descriptor, size: capacity)
        } catch {
            Self.release(pointer, mappedBytes: mappedBytes)
            throw error
        }
    }

    /// Ends the accessors' reading of pages (see the type's comment); call once everything the
    /// views will read is in, before the storage is shared with other threads. Checks that the
    /// file did not change while they read it (their reads are not checked one by one).
    /// - Throws: `FileReadError` when it did, or when an accessor's read failed.
    public func seal() throws {
        sealed = true
        if let readFailure { throw readFailure }
        try onDemand?.verifyUnchanged()
    }

    /// Reads the pages of `range` that are not in yet (nothing for storage filled at `init`).
    /// Thread-safe once sealed.
    /// - Throws: `FileReadError` when the file cannot be read or changed since it was opened.
    public func makeResident(_ range: Range<Int>) throws {
        // Before `seal()` only the owner's thread reads, and `seal()` checks the file.
        try onDemand?.makeResident(range, memory: pointer, locking: sealed)
    }

    /// Whether the storage reads its file's pages on demand.
    public var readsOnDemand: Bool { onDemand != nil }

    /// Reads every page but those wholly inside one of `excluded` (a no-op for storage filled at
    /// `init`). Thread-safe.
    /// - Throws: `FileReadError` as `makeResident(_:)`.
    public func makeResident(allBut excluded: [Range<Int>]) throws {
        guard onDemand != nil else { return }
        let page = OnDemandFile.pageBytes
        let holes = excluded.compactMap { range -> Range<Int>? in
            let lower = (range.lowerBound + page - 1) / page * page, upper = range.upperBound / page * page
            return lower < upper ? lower..<upper : nil
        }.sorted { $0.lowerBound < $1.lowerBound }
        var start = 0
        for hole in holes {
            if hole.lowerBound > start { try makeResident(start..<hole.lowerBound) }
            start = Swift.max(start, hole.upperBound)
        }
        if start < count { try makeResident(start..<count) }
    }

    /// Whether every byte of `range` is in memory.
    public func isResident(_ range: Range<Int>) -> Bool { onDemand?.isResident(range) ?? true }

    /// Copies the bytes of `range` (inside the storage) to `destination`: from memory where they
    /// are in, else straight from the file without keeping them. Thread-safe.
    /// - Throws: `FileReadError` as `makeResident`.
    public func copyBytes(in range: Range<Int>, into destination: UnsafeMutableRawPointer) throws {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "copyBytes: range outside the storage")
        if let onDemand, !onDemand.isResident(range) {
            try onDemand.copy(range, into: destination)
        } else {
            destination.copyMemory(from: pointer + range.lowerBound, byteCount: range.count)
        }
    }

    /// Before `seal()`, reads the pages of `range` an accessor is about to read.
    @inline(__always)
    private func pageIn(_ range: Range<Int>) {
        guard let onDemand, !sealed else { return }
        do {
            try onDemand.makeResident(range, memory: pointer, locking: false)
        } catch {
            if readFailure == nil { readFailure = error as? FileReadError ?? FileReadError(reason: "\(error)") }
        }
    }

    /// Frees memory from an anonymous mapping (`mappedBytes` > 0) or `allocate`.
    private static func release(_ pointer: UnsafeMutableRawPointer, mappedBytes: Int) {
        #if os(Linux) && canImport(Glibc)
        if mappedBytes > 0 {
            munmap(pointer, mappedBytes)
            return
        }
        #endif
        pointer.deallocate()
    }

    deinit { Self.release(pointer, mappedBytes: mappedBytes) }

    /// Calls `body` with all bytes. The pointer stays valid while `self` is alive.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        pageIn(0..<count)
        return try body(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// The bytes in `range`, or an empty buffer when `range` is not inside the storage.
    /// The pointer stays valid while `self` is alive.
    public func unsafeBytes(in range: Range<Int>) -> UnsafeRawBufferPointer {
        guard range.lowerBound >= 0, range.upperBound <= count, !range.isEmpty else {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        pageIn(range)
        return UnsafeRawBufferPointer(start: pointer + range.lowerBound, count: range.count)
    }

    /// Copies the bytes in `range` into an array (empty when out of range).
    public func copyBytes(in range: Range<Int>) -> [UInt8] {
        Array(unsafeBytes(in: range))
    }

    /// Reads a little-endian integer at `offset`; nil when it does not fit.
    @inline(__always)
    public func load<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) -> T? {
        guard offset >= 0, offset <= count - MemoryLayout<T>.size else { return nil }
        pageIn(offset..<(offset + MemoryLayout<T>.size))
        return T(littleEndian: pointer.loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}
