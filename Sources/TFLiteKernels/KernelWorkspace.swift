/// The memory one kernel call carves its per-chunk temporaries from (pointer tables, accumulator
/// tiles, a row of sums, weighted rows): `byteCount` bytes at `start`, 64-byte aligned, used by
/// this call alone while it runs.
///
/// Contract between a kernel and its caller: a kernel that takes a workspace states, in a static
/// `workspaceBytes(...)` function next to it, how many bytes a call needs — a pure function of
/// the layer's shapes and tiles, never of the chunk's size or of data — and takes its pieces with
/// ``take(_:count:)``, in that function's order and sizes (``bytes(_:count:)`` per piece). The
/// interpreter asks every node for that number at prepare and gives each pool thread one block
/// of the largest, shared by every node, so a call finds its temporaries at the same, cache-hot
/// addresses layer after layer. Nothing in a workspace survives a call (the next node's kernel
/// overwrites it): a kernel writes every value before reading it. With
/// `LITEVISION_INTERNAL_CHECKS`, ``take(_:count:)`` traps when a piece does not fit. Callers
/// without one (tests, kernels run outside an interpreter) use ``withTemporary(byteCount:_:)``.
public struct KernelWorkspace {
    /// Alignment of `start` and of every piece ``take(_:count:)`` returns.
    public static let alignment = 64

    /// Start of the bytes, `alignment`-aligned.
    public let start: UnsafeMutableRawPointer
    /// Bytes available from `start`.
    public let byteCount: Int
    /// Bytes already taken by ``take(_:count:)``.
    public private(set) var usedByteCount = 0

    /// A workspace of `byteCount` bytes at `start`, which must be `alignment`-aligned and stay
    /// valid, used by no one else, while the kernel call runs.
    public init(start: UnsafeMutableRawPointer, byteCount: Int) {
        KernelPrecondition.check(Int(bitPattern: start) % Self.alignment == 0, "a kernel workspace must be 64-byte aligned")
        self.start = start
        self.byteCount = byteCount
    }

    /// Bytes a piece of `count` values of `T` takes in a workspace: their stride, rounded up to
    /// `alignment` (what ``take(_:count:)`` advances by). `workspaceBytes` functions add these.
    @inline(__always)
    public static func bytes<T>(_ type: T.Type, count: Int) -> Int {
        (max(0, count) * MemoryLayout<T>.stride + alignment - 1) & ~(alignment - 1)
    }

    /// The next `count` values of `T` (uninitialized, aligned), bound to `T` for this call.
    /// Precondition (checked under `LITEVISION_INTERNAL_CHECKS`): they fit in what is left.
    @inline(__always)
    public mutating func take<T>(_ type: T.Type, count: Int) -> UnsafeMutablePointer<T> {
        let bytes = Self.bytes(T.self, count: count)
        KernelPrecondition.check(usedByteCount + bytes <= byteCount,
                                 "kernel workspace of \(byteCount) bytes: \(count) × \(T.self) at byte \(usedByteCount) do not fit")
        let piece = start + usedByteCount
        usedByteCount += bytes
        return piece.bindMemory(to: T.self, capacity: max(0, count))
    }

    /// Calls `body` with `given` when there is one, else with a workspace of `byteCount` bytes
    /// of its own (stack memory when small, heap otherwise), for calls made without one.
    @inline(__always)
    public static func using<R>(_ given: KernelWorkspace?, orTemporary byteCount: Int,
                                _ body: (inout KernelWorkspace) throws -> R) rethrows -> R {
        if var given { return try body(&given) }
        return try withTemporary(byteCount: byteCount, body)
    }

    /// Calls `body` with a workspace of `byteCount` bytes of its own (stack memory when small,
    /// heap otherwise), valid only during the call.
    public static func withTemporary<R>(byteCount: Int, _ body: (inout KernelWorkspace) throws -> R) rethrows -> R {
        try withUnsafeTemporaryAllocation(byteCount: max(alignment, byteCount), alignment: alignment) { memory in
            var workspace = KernelWorkspace(start: memory.baseAddress!, byteCount: memory.count)
            return try body(&workspace)
        }
    }
}
