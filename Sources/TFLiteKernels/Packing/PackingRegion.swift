#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One anonymous mapping that a model's packed weights are carved from, in order, so that Linux
/// can back it with transparent huge pages (2 MiB) instead of one 4 KiB page per fault.
///
/// Packing writes every byte of its output once, at prepare; on a 4 KiB page each of those
/// pages costs a fault, an allocation, a clear and the bookkeeping of a page. Measured on the
/// AMD Zen 4 (EPYC family 25 model 17), page faults were about 40% of efficientnet_lite0's cold
/// start, most of them in packing; carving its packed weights from one huge-page region took
/// that cold start from 15.49 to 14.15 ms (medians of 15 alternated fresh processes; paired
/// median -1.35 ms), with the same resident memory for a process's model.
///
/// While ``allocating(in:_:)`` runs, ``AlignedArray`` takes its memory from the region (on the
/// calling thread only). Each array keeps the region alive; the region unmaps when its last
/// array goes. Memory is never reused within a region: space is handed out once, so it is
/// zero until written (an anonymous mapping's pages arrive zeroed), and an array that is freed
/// early leaves a hole until the region goes (the packed forms of a model live as long as it).
///
/// Memory: only the blocks that the expected byte count (given at `init`, an estimate) reaches
/// far enough into are huge pages (``hugeByteCount(expected:)``, see ``HugePageMapping``); the
/// rest of the region has 4 KiB pages. ``releaseUnusedTail()`` gives the unused part of the
/// last block written back (call it once packing is done), though the peak resident size has
/// seen it. Without transparent huge pages there is no region (`init` fails) and arrays are
/// allocated one by one, as before. The interpreter also carves the outputs it folds at load
/// from a region of their own (``take(_:)``).
///
/// Not thread-safe: its owner serializes ``allocating(in:_:)`` and ``releaseUnusedTail()``.
public final class PackingRegion: @unchecked Sendable {
    /// Alignment of each allocation (that of ``AlignedArray``).
    static var alignment: Int { 64 }

    /// The memory: address space only, until written.
    private let memory: HugePageMapping
    /// Bytes handed out from the start.
    public private(set) var usedByteCount = 0

    /// Usable bytes.
    public var capacity: Int { memory.byteCount }

    /// Reserves `capacity` bytes of address space (at least the huge part), whose first
    /// `hugeByteCount(expected: expectedByteCount)` bytes are to be huge pages; fails when that
    /// is none, when the system has no transparent huge pages to offer, or when it refuses the
    /// reservation. (A capacity under one huge page, twice an expected 256 KiB to 1 MiB, used to
    /// leave no huge part at all.)
    public init?(capacity: Int, expectedByteCount: Int) {
        let huge = Self.hugeByteCount(expected: expectedByteCount)
        guard let memory = HugePageMapping(byteCount: max(capacity, huge), hugeByteCount: huge, reserveOnly: true) else { return nil }
        self.memory = memory
    }

    /// The huge-page part of a region expected to hold `expected` bytes: its whole 2 MiB
    /// blocks, and one more when the rest is at least an eighth of one (256 KiB). That rest in
    /// 4 KiB pages costs more faults (64 or more, about 1.5–2 µs each on the AMD Zen 4, EPYC
    /// family 25 model 17) than one huge page's first touch (40–120 µs), and what the last
    /// huge page does not use is given back after packing (``releaseUnusedTail()``).
    static func hugeByteCount(expected: Int) -> Int {
        HugePageMapping.hugeByteCount(for: expected, roundingUpRestsOf: HugePageMapping.hugePageBytes / 8)
    }

    /// `byteCount` bytes (rounded up to the alignment), zero until written, or nil when the
    /// region has no room left (the caller allocates elsewhere). The memory lives as long as the
    /// region: whoever keeps it keeps the region.
    public func take(_ byteCount: Int) -> UnsafeMutableRawPointer? {
        let (rounded, overflow) = byteCount.addingReportingOverflow(Self.alignment - 1)
        guard byteCount > 0, !overflow else { return nil }
        let size = rounded / Self.alignment * Self.alignment
        guard size <= capacity - usedByteCount else { return nil }
        defer { usedByteCount += size }
        return memory.start + usedByteCount
    }

    /// Whether `pointer` is in the bytes handed out so far (for tests).
    func contains(_ pointer: UnsafeRawPointer) -> Bool {
        let offset = pointer - UnsafeRawPointer(memory.start)
        return offset >= 0 && offset < usedByteCount
    }

    /// Gives back the pages after the used bytes in the last huge page written: the kernel
    /// splits that page and frees its unused part. Later allocations may continue in the
    /// block, on 4 KiB pages.
    public func releaseUnusedTail() {
        let huge = HugePageMapping.hugePageBytes
        memory.release(usedByteCount..<((usedByteCount + huge - 1) / huge * huge))
    }

    /// Runs `body` with ``AlignedArray``s made on this thread taken from `region` (nil: the
    /// usual allocations); the previous region, if any, is restored afterwards.
    public static func allocating<R>(in region: PackingRegion?, _ body: () throws -> R) rethrows -> R {
        guard let region else { return try body() }
        let previous = current
        setCurrent(region)
        defer { setCurrent(previous) }
        return try body()
    }

    /// The region ``AlignedArray`` allocations on this thread come from, if any.
    static var current: PackingRegion? {
        guard let raw = pthread_getspecific(currentKey) else { return nil }
        return Unmanaged<PackingRegion>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Sets ``current`` (unretained: ``allocating(in:_:)`` holds the region while it is set).
    private static func setCurrent(_ region: PackingRegion?) {
        pthread_setspecific(currentKey, region.map { Unmanaged.passUnretained($0).toOpaque() })
    }

    /// The thread-specific slot behind ``current``.
    private static let currentKey: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key is available")
        return key
    }()
}
