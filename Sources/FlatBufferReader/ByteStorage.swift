#if os(Linux) && canImport(Glibc)
import Glibc
#endif

/// An immutable, 64-byte-aligned copy of a byte sequence that lives as long as the object.
///
/// All views (`FlatBuffer`, `FlatTable`, `FlatVector`, FlexBuffer references) keep a
/// reference to their storage, so the memory stays valid while any view exists.
/// The bytes are never mutated after `init`, which makes sharing across threads safe.
public final class ByteStorage: @unchecked Sendable {
    /// Alignment of the first byte.
    public static let alignment = 64

    /// Number of bytes.
    public let count: Int
    private let pointer: UnsafeMutableRawPointer
    /// Bytes of the anonymous mapping `pointer` starts (unmapped in `deinit`); 0 when `pointer`
    /// comes from `allocate` (deallocated instead).
    private let mappedBytes: Int

    /// Copies `bytes` into a new aligned allocation.
    public init<C: Collection>(copying bytes: C) where C.Element == UInt8 {
        let count = bytes.count
        self.count = count
        mappedBytes = 0
        pointer = UnsafeMutableRawPointer.allocate(byteCount: Swift.max(count, 1), alignment: Self.alignment)
        let copied: Void? = bytes.withContiguousStorageIfAvailable { source in
            pointer.copyMemory(from: UnsafeRawPointer(source.baseAddress ?? UnsafePointer(bitPattern: 1)!), byteCount: count)
        }
        if copied == nil {
            let target = UnsafeMutableRawBufferPointer(start: pointer, count: count)
            _ = target.initializeMemory(as: UInt8.self, from: bytes)
        }
    }

    /// Allocates `count` bytes and lets `fill` write them; `fill` returns how many bytes it
    /// wrote, which becomes the storage's `count` (never more than requested).
    /// Bytes past the count are never read, so they are not zeroed first. On Linux, `count` of
    /// at least `prefaultedMinimum` bytes come from an anonymous mapping whose pages the kernel
    /// provides in one pass (`MAP_POPULATE`) instead of one page fault each as `fill` writes
    /// them: reading a 5 MB model took 3.4 ms with a zero fill and page faults, 1.5 ms this way
    /// (Intel Xeon VM).
    public init(count: Int, fill: (UnsafeMutableRawBufferPointer) throws -> Int) rethrows {
        let capacity = Swift.max(count, 0)
        let mapping = Self.prefaultedMapping(byteCount: capacity)
        pointer = mapping ?? UnsafeMutableRawPointer.allocate(byteCount: Swift.max(capacity, 1), alignment: Self.alignment)
        mappedBytes = mapping == nil ? 0 : capacity
        do {
            let written = try fill(UnsafeMutableRawBufferPointer(start: pointer, count: capacity))
            self.count = Swift.min(Swift.max(written, 0), capacity)
        } catch {
            Self.release(pointer, mappedBytes: mappedBytes)
            throw error
        }
    }

    /// Sizes from which `init(count:fill:)` maps prefaulted pages.
    static let prefaultedMinimum = 1 << 20

    /// Read-write private anonymous pages for `byteCount` bytes, populated by the kernel at
    /// once (page-aligned, so 64-byte aligned); nil below `prefaultedMinimum`, off Linux, or
    /// when the system refuses (the caller allocates instead). `TFLiteKernels`' `AlignedArray`
    /// maps its packed weights the same way; the two modules share no dependency to hold one
    /// helper, so a change to the mapping belongs in both.
    private static func prefaultedMapping(byteCount: Int) -> UnsafeMutableRawPointer? {
        #if os(Linux) && canImport(Glibc)
        guard byteCount >= prefaultedMinimum,
              let raw = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0),
              raw != MAP_FAILED else { return nil }
        return raw
        #else
        return nil
        #endif
    }

    /// Frees memory from `prefaultedMapping` (`mappedBytes` > 0) or `allocate`.
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
        try body(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    /// The bytes in `range`, or an empty buffer when `range` is not inside the storage.
    /// The pointer stays valid while `self` is alive.
    public func unsafeBytes(in range: Range<Int>) -> UnsafeRawBufferPointer {
        guard range.lowerBound >= 0, range.upperBound <= count, !range.isEmpty else {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
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
        return T(littleEndian: pointer.loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}
