#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TFLiteKernels

/// An owned, zero-initialised, 64-byte-aligned block of memory (the arena, copied constants,
/// folded constants, variable tensors). Freed when the object goes away.
/// Allocation is checked: sizes beyond ``maximumByteCount`` and failed allocations throw
/// instead of trapping, so a malformed model cannot crash the process through a huge shape.
final class AlignedBuffer: @unchecked Sendable {
    /// Alignment of every allocation: a cache line, enough for any SIMD load.
    static let alignment = 64
    /// The largest block the interpreter allocates (4 GiB): far above any real model's needs.
    static let maximumByteCount = 1 << 32
    /// Start of the block (never nil, even for zero bytes).
    let pointer: UnsafeMutableRawPointer
    /// What `calloc` returned (freed in `deinit`); nil when the block is `hugePages` or in a `region`.
    private let allocation: UnsafeMutableRawPointer?
    /// The huge-page mapping the block is, if it is one (unmapped when the block goes).
    private let hugePages: HugePageMapping?
    /// The region the block was carved from, if it was (kept alive by the block).
    private let region: PackingRegion?
    /// Usable bytes.
    let byteCount: Int

    /// Allocates `byteCount` zeroed bytes. With `onHugePages` (for memory that will be written
    /// whole, as the arena is by the first invoke), the block is on transparent huge pages where
    /// the system offers them (``HugePageMapping``): its whole 2 MiB blocks, and a last partial
    /// one that is at least half used (``hugeByteCount(for:)``). Measured on the AMD Zen 4, a
    /// 4 KiB page's first-touch fault costs 1.5–2 µs and a huge page's 40–120 µs, and the
    /// arena's first-touch faults were part of every model's first invoke.
    /// - Throws: ``InterpreterError/resourceLimitExceeded(_:)`` when the size is above the
    ///   limit or the system cannot provide the memory.
    init(byteCount: Int, onHugePages: Bool = false) throws {
        guard byteCount >= 0, byteCount <= Self.maximumByteCount else {
            throw InterpreterError.resourceLimitExceeded(
                "a tensor or arena needs \(byteCount) bytes, more than the \(Self.maximumByteCount >> 30) GiB the interpreter allocates at once")
        }
        self.byteCount = byteCount
        region = nil
        let hugeBytes = onHugePages ? Self.hugeByteCount(for: byteCount) : 0
        if hugeBytes > 0, let mapping = HugePageMapping(byteCount: max(byteCount, hugeBytes), hugeByteCount: hugeBytes) {
            hugePages = mapping
            allocation = nil
            pointer = mapping.start
            return
        }
        hugePages = nil
        // calloc: large blocks come straight from the system already zeroed (no page is
        // touched until used); over-allocate to align the start by hand.
        guard let raw = calloc(max(byteCount, Self.alignment) + Self.alignment, 1) else {
            throw InterpreterError.resourceLimitExceeded(
                "the system cannot provide \(byteCount) bytes (an address-space limit, or not enough memory)")
        }
        allocation = raw
        let address = Int(bitPattern: raw)
        pointer = raw + ((Self.alignment - address % Self.alignment) % Self.alignment)
    }

    /// The same memory as a block of `byteCount` zeroed bytes, when this block is on huge pages
    /// with room for them: this block's bytes are cleared (the mapping's rest was never written,
    /// so it is still zero), and the new block shares the mapping, which lives as long as either
    /// block. For memory that held something else for a while (``WeightScratch``) and becomes the
    /// arena, whose pages are then already there. Nil otherwise.
    func reused(asZeroed byteCount: Int) -> AlignedBuffer? {
        guard let hugePages, byteCount >= 0, byteCount <= hugePages.byteCount else { return nil }
        pointer.initializeMemory(as: UInt8.self, repeating: 0, count: self.byteCount)
        return AlignedBuffer(sharing: hugePages, byteCount: byteCount)
    }

    private init(sharing mapping: HugePageMapping, byteCount: Int) {
        hugePages = mapping
        allocation = nil
        region = nil
        pointer = mapping.start
        self.byteCount = byteCount
    }

    /// Whether the block was carved from a region (for tests).
    var isCarved: Bool { region != nil }

    /// `byteCount` zeroed bytes carved from `region` (memory handed out once, zero until
    /// written), or nil when it has no room left. The block keeps the region alive.
    init?(carvedFrom region: PackingRegion, byteCount: Int) {
        guard byteCount > 0, byteCount <= Self.maximumByteCount, let start = region.take(byteCount) else { return nil }
        self.region = region
        hugePages = nil
        allocation = nil
        pointer = start
        self.byteCount = byteCount
    }

    /// Bytes of a `byteCount` block to put on huge pages: its whole 2 MiB blocks, and one more
    /// when the rest is at least half of one: half a huge page in 4 KiB pages costs several
    /// times the first touch of a whole one, and the unused part (under 1 MiB) is the price.
    static func hugeByteCount(for byteCount: Int) -> Int {
        guard byteCount <= maximumByteCount else { return 0 }
        return HugePageMapping.hugeByteCount(for: byteCount, roundingUpRestsOf: HugePageMapping.hugePageBytes / 2)
    }

    /// Allocates a copy of `bytes`.
    convenience init(copying bytes: UnsafeRawBufferPointer) throws {
        try self.init(byteCount: bytes.count)
        if let base = bytes.baseAddress, bytes.count > 0 { pointer.copyMemory(from: base, byteCount: bytes.count) }
    }

    deinit { free(allocation) }  // (nil for a huge-page block: a no-op)
}
