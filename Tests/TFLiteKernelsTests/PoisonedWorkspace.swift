import XCTest
@testable import TFLiteKernels

/// A ``KernelWorkspace`` of exactly the bytes a kernel declares (its `workspaceBytes`), filled
/// with a byte pattern (as the previous node's temporaries would leave it) and followed by a
/// guard zone: a kernel that reads a value it did not write first gives other outputs than the
/// reference, one that writes past what it declared changes the guard (``assertGuardIntact``),
/// and with `LITEVISION_INTERNAL_CHECKS` one that takes more than it declared traps in
/// `KernelWorkspace.take`.
final class PoisonedWorkspace {
    /// Bytes after the declared ones that must stay as filled.
    static let guardBytes = 256
    /// The declared bytes.
    let byteCount: Int
    private let memory: UnsafeMutableRawPointer
    private let pattern: UInt8

    /// A workspace of `byteCount` bytes (and the guard) filled with `pattern` (0xFF reads as NaN
    /// floats, -1 integers and a wild pointer).
    init(byteCount: Int, pattern: UInt8 = 0xFF) {
        self.byteCount = byteCount
        self.pattern = pattern
        memory = .allocate(byteCount: byteCount + Self.guardBytes, alignment: KernelWorkspace.alignment)
        memory.initializeMemory(as: UInt8.self, repeating: pattern, count: byteCount + Self.guardBytes)
    }

    deinit { memory.deallocate() }

    /// The declared bytes as a kernel workspace.
    var workspace: KernelWorkspace { KernelWorkspace(start: memory, byteCount: byteCount) }

    /// Fails when a call wrote into the guard zone past the declared bytes.
    func assertGuardIntact(_ what: @autoclosure () -> String, file: StaticString = #filePath, line: UInt = #line) {
        let guardZone = UnsafeRawBufferPointer(start: memory + byteCount, count: Self.guardBytes)
        XCTAssertTrue(guardZone.allSatisfy { $0 == pattern }, "\(what()): wrote past its \(byteCount) declared workspace bytes",
                      file: file, line: line)
    }
}
