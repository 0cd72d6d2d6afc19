#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Zeroed anonymous memory whose pages cost nothing until written (an address-space
/// reservation): the homes of values that are usually never materialized.
final class UntouchedMemory: @unchecked Sendable {
    /// The first byte, page-aligned.
    let start: UnsafeMutableRawPointer
    private let byteCount: Int

    /// `byteCount` (> 0) bytes.
    /// - Throws: ``InterpreterError/resourceLimitExceeded(_:)`` when the size is above
    ///   ``AlignedBuffer/maximumByteCount`` or the system refuses the mapping.
    init(byteCount: Int) throws {
        guard byteCount > 0, byteCount <= AlignedBuffer.maximumByteCount,
              let mapped = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              mapped != MAP_FAILED else {
            throw InterpreterError.resourceLimitExceeded("the system cannot reserve \(byteCount) bytes of address space")
        }
        start = mapped
        self.byteCount = byteCount
    }

    deinit { munmap(start, byteCount) }
}
