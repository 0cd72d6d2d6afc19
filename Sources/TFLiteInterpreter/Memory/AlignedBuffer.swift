/// An owned, zero-initialised, 64-byte-aligned block of memory (the arena, copied constants,
/// folded constants, variable tensors). Freed when the object goes away.
final class AlignedBuffer: @unchecked Sendable {
    /// Alignment of every allocation: a cache line, enough for any SIMD load.
    static let alignment = 64
    /// Start of the block (never nil, even for zero bytes).
    let pointer: UnsafeMutableRawPointer
    /// Usable bytes.
    let byteCount: Int

    /// Allocates `byteCount` zeroed bytes.
    init(byteCount: Int) {
        self.byteCount = max(0, byteCount)
        let allocated = max(self.byteCount, Self.alignment)
        pointer = UnsafeMutableRawPointer.allocate(byteCount: allocated, alignment: Self.alignment)
        pointer.initializeMemory(as: UInt8.self, repeating: 0, count: allocated)
    }

    /// Allocates a copy of `bytes`.
    convenience init(copying bytes: UnsafeRawBufferPointer) {
        self.init(byteCount: bytes.count)
        if let base = bytes.baseAddress, bytes.count > 0 { pointer.copyMemory(from: base, byteCount: bytes.count) }
    }

    deinit { pointer.deallocate() }
}
