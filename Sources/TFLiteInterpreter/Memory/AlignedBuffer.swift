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
    /// What `calloc` returned (freed in `deinit`); nil when the block is `hugePages`.
    private let allocation: UnsafeMutableRawPointer?
    /// The huge-page mapping the block is, if it is one (unmapped when the block goes).
    private let hugePages: HugePageMapping?
    /// Usable bytes.
    let byteCount: Int

    /// Allocates `byteCount` zeroed bytes. With `onHugePages` (for memory that will be written
    /// whole, as the arena is by the first invoke), the whole 2 MiB blocks of a large enough
    /// block are transparent huge pages where the system offers them (``HugePageMapping``):
    /// measured on the AMD Zen 4, the arena's first-touch page faults were part of every
    /// model's first invoke.
    /// - Throws: ``InterpreterError/resourceLimitExceeded(_:)`` when the size is above the
    ///   limit or the system cannot provide the memory.
    init(byteCount: Int, onHugePages: Bool = false) throws {
        guard byteCount >= 0, byteCount <= Self.maximumByteCount else {
            throw InterpreterError.resourceLimitExceeded(
                "a tensor or arena needs \(byteCount) bytes, more than the \(Self.maximumByteCount >> 30) GiB the interpreter allocates at once")
        }
        self.byteCount = byteCount
        if onHugePages, let mapping = HugePageMapping(byteCount: byteCount, hugeByteCount: byteCount) {
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

    /// Allocates a copy of `bytes`.
    convenience init(copying bytes: UnsafeRawBufferPointer) throws {
        try self.init(byteCount: bytes.count)
        if let base = bytes.baseAddress, bytes.count > 0 { pointer.copyMemory(from: base, byteCount: bytes.count) }
    }

    deinit { free(allocation) }  // (nil for a huge-page block: a no-op)
}
