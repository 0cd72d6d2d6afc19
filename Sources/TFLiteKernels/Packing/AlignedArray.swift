#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fixed-size array of plain values in cache-line-aligned memory: the packed operands kernels
/// read with full-width vector loads (weights, packed filters). A Swift `Array`'s elements are
/// only 16-byte aligned, so every 64-byte zmm load from one straddles two cache lines; measured
/// on the Intel Xeon (family 6 model 207), aligning the depthwise window and its filter took the
/// depthwise tiles from 0.69 to 0.41 of the int8 GEMM's time in efficientnet_lite0.
///
/// A class: packed once at prepare, then shared read-only by the threads of every invoke.
/// Copies are never made implicitly.
public final class AlignedArray<Element: BitwiseCopyable>: @unchecked Sendable {
    /// Alignment of the first element, in bytes.
    public static var alignment: Int { 64 }
    /// The number of elements.
    public let count: Int
    /// The first element (valid, if unusable, for `count == 0`).
    public let pointer: UnsafeMutablePointer<Element>
    /// Bytes of the anonymous mapping at `pointer` (unmapped in `deinit`); 0 when `pointer`
    /// comes from `posix_memalign` (freed instead) or from `region`.
    private let mappedBytes: Int
    /// The region the memory was carved from (see ``PackingRegion``), kept alive by the array;
    /// nil when the array owns its memory.
    private let region: PackingRegion?

    /// Sizes from which the memory is an anonymous mapping whose pages the kernel provides in
    /// one pass (`MAP_POPULATE`, Linux) instead of one page fault each as packing first writes
    /// them: the packed weights of a model are written once, at load, where those faults were
    /// a visible part of the cold start.
    static var prefaultedMinimumBytes: Int { 1 << 18 }

    /// Allocates room for `count` elements, not yet initialised (callers reserve the bytes
    /// against their memory budget first).
    /// - Throws: `AlignedArrayAllocationError` when `count` is negative, its size overflows,
    ///   or the system cannot provide the memory.
    private init(allocating count: Int) throws {
        let (bytes, overflow) = count.multipliedReportingOverflow(by: MemoryLayout<Element>.stride)
        guard count >= 0, !overflow else { throw AlignedArrayAllocationError(elements: count, bytes: nil) }
        self.count = count
        if let region = PackingRegion.current, let memory = region.take(bytes) {
            self.region = region
            mappedBytes = 0
            pointer = memory.bindMemory(to: Element.self, capacity: max(1, count))
            return
        }
        region = nil
        #if os(Linux)
        if bytes >= Self.prefaultedMinimumBytes,
           let mapped = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0),
           mapped != MAP_FAILED {
            mappedBytes = bytes
            pointer = mapped.bindMemory(to: Element.self, capacity: max(1, count))
            return
        }
        #endif
        var raw: UnsafeMutableRawPointer?
        guard posix_memalign(&raw, Self.alignment, max(bytes, Self.alignment)) == 0, let raw else {
            throw AlignedArrayAllocationError(elements: count, bytes: bytes)
        }
        mappedBytes = 0
        pointer = raw.bindMemory(to: Element.self, capacity: max(1, count))
    }

    /// `count` copies of `value`. - Throws: `AlignedArrayAllocationError`.
    public convenience init(repeating value: Element, count: Int) throws {
        try self.init(allocating: count)
        pointer.initialize(repeating: value, count: count)
    }

    /// `count` elements written by `initialize`, which must write every one of them (packing
    /// straight into the aligned memory, without a zero fill or an intermediate array).
    /// - Throws: `AlignedArrayAllocationError`, or what `initialize` throws.
    public convenience init(count: Int, initializingWith initialize: (UnsafeMutableBufferPointer<Element>) throws -> Void) throws {
        try self.init(allocating: count)
        try initialize(UnsafeMutableBufferPointer(start: pointer, count: count))
    }

    /// `count` elements of all-zero bytes (0 for the integer and float elements this holds),
    /// then changed by `write`, which may set only some of them (packing that leaves its padding
    /// at 0). An anonymous mapping's pages arrive zeroed (a region's too: its space is handed
    /// out once), so only heap memory is filled here.
    /// - Throws: `AlignedArrayAllocationError`, or what `write` throws.
    public convenience init(zeroedCount count: Int, writingWith write: (UnsafeMutableBufferPointer<Element>) throws -> Void) throws {
        precondition(_isPOD(Element.self), "AlignedArray holds plain values")
        try self.init(allocating: count)
        if mappedBytes == 0, region == nil {
            UnsafeMutableRawPointer(pointer).initializeMemory(as: UInt8.self, repeating: 0,
                                                              count: count * MemoryLayout<Element>.stride)
        }
        try write(UnsafeMutableBufferPointer(start: pointer, count: count))
    }

    /// A copy of `elements`. - Throws: `AlignedArrayAllocationError`.
    public convenience init(_ elements: [Element]) throws {
        try self.init(allocating: elements.count)
        elements.withUnsafeBufferPointer { initialize(from: $0) }
    }

    /// A copy of the elements at `source`. - Throws: `AlignedArrayAllocationError`.
    public convenience init(copying source: UnsafeBufferPointer<Element>) throws {
        try self.init(allocating: source.count)
        initialize(from: source)
    }

    /// Initialises the elements from `source`, which holds `count` of them.
    private func initialize(from source: UnsafeBufferPointer<Element>) {
        if let base = source.baseAddress { pointer.initialize(from: base, count: count) }
    }

    deinit {
        if region != nil { return }  // the region's memory goes with the region
        #if os(Linux)
        if mappedBytes > 0 {
            munmap(UnsafeMutableRawPointer(pointer), mappedBytes)
            return
        }
        #endif
        free(pointer)
    }

    /// Element `i` (`0 ≤ i < count`, checked).
    public subscript(i: Int) -> Element {
        get { precondition(i >= 0 && i < count, "index out of range"); return pointer[i] }
        set { precondition(i >= 0 && i < count, "index out of range"); pointer[i] = newValue }
    }

    /// Calls `body` with the elements (as `Array.withUnsafeBufferPointer`).
    public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: pointer, count: count))
    }

    /// Calls `body` with the elements, writable (as `Array.withUnsafeMutableBufferPointer`).
    public func withUnsafeMutableBufferPointer<R>(_ body: (UnsafeMutableBufferPointer<Element>) throws -> R) rethrows -> R {
        try body(UnsafeMutableBufferPointer(start: pointer, count: count))
    }
}

/// An `AlignedArray` the system could not provide (or whose size overflows).
public struct AlignedArrayAllocationError: Error, CustomStringConvertible {
    /// The elements asked for.
    public let elements: Int
    /// Their size in bytes (nil when it overflows or the count is negative).
    public let bytes: Int?

    public var description: String {
        guard let bytes else { return "cannot allocate \(elements) packed elements: the size is invalid" }
        return "the system cannot provide \(bytes) bytes for packed kernel operands (an address-space limit, or not enough memory)"
    }
}
