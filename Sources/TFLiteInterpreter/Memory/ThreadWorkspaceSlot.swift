import TFLiteKernels

/// The per-thread kernel workspace one node's kernel asked for at prepare
/// (``NodeContext/requestWorkspace(bytesPerThread:_:)``): `bytesPerThread` bytes for each pool
/// thread, where a kernel call takes its per-chunk temporaries (``KernelWorkspace``: pointer
/// tables, accumulator tiles, a row of sums), as the kernel's `workspaceBytes` function states.
///
/// Where the bytes live is decided after the kernel's prepare, before any invoke, as for
/// ``ScratchSlot``:
/// - in an interpreter, every node's slot points at the same region of the activation arena:
///   one block per pool thread, as large as the largest request of the nodes that run, live for
///   the whole run (``SubgraphExecutor``). Every layer finds its temporaries at the same,
///   cache-hot addresses, and the arena counts the bytes once, not per node;
/// - nodes evaluated ahead of time, nodes sized at invoke and kernels run outside an
///   interpreter get memory of their own (``allocateOwn()``).
/// Blocks are 64-byte aligned either way. Nothing in a block survives from one kernel call to the
/// next (the next node's kernel overwrites it).
final class ThreadWorkspaceSlot {
    /// Threads of the pool the node was prepared with: the worker indices the blocks serve.
    let threadCount: Int
    /// Bytes the kernel asked for per thread (the largest of its requests since the last prepare).
    private(set) var bytesPerThread = 0
    /// Start of block 0; nil until the slot is placed or given its own memory.
    private(set) var base: UnsafeMutableRawPointer?
    /// Bytes from one block to the next (at least `bytesPerThread`, a multiple of 64).
    private(set) var blockStride = 0
    /// Own memory, when the slot is not in an arena.
    private var own: AlignedBuffer?

    /// A slot for a pool of `threadCount` threads, asking for nothing yet.
    init(threadCount: Int) { self.threadCount = max(1, threadCount) }

    /// Raises the request to at least `bytes` per thread (a kernel calling more than one
    /// workspace-taking kernel asks for the largest; the calls run one after the other).
    func require(_ bytes: Int) { bytesPerThread = max(bytesPerThread, bytes) }

    /// Whether the slot has its own memory (then no arena places it).
    var hasOwnMemory: Bool { own != nil }

    /// `bytesPerThread` rounded up to the blocks' 64-byte alignment.
    var alignedBytesPerThread: Int { (bytesPerThread + AlignedBuffer.alignment - 1) / AlignedBuffer.alignment * AlignedBuffer.alignment }

    /// Points the slot at `threadCount` blocks of `stride` bytes from `base` (the arena's shared
    /// region, kept valid and 64-byte aligned until the next prepare).
    /// Precondition: `stride ≥ bytesPerThread`, a multiple of 64.
    func place(at base: UnsafeMutableRawPointer, stride: Int) {
        precondition(stride >= bytesPerThread && stride % AlignedBuffer.alignment == 0,
                     "thread workspace: blocks of \(stride) bytes for a request of \(bytesPerThread)")
        own = nil
        self.base = base
        blockStride = stride
    }

    /// Gives the slot zeroed memory of its own (``ownByteCount`` bytes, kept while the slot lives);
    /// the caller has reserved them in its budget. Does nothing when it already has some.
    /// - Throws: ``InterpreterError/resourceLimitExceeded(_:)`` when the system cannot provide it.
    func allocateOwn() throws {
        guard own == nil else { return }
        let buffer = try AlignedBuffer(byteCount: max(AlignedBuffer.alignment, ownByteCount))
        own = buffer
        base = buffer.pointer
        blockStride = alignedBytesPerThread
    }

    /// Bytes ``allocateOwn()`` allocates: one aligned block per thread.
    var ownByteCount: Int { threadCount * alignedBytesPerThread }

    /// The block of pool thread `worker` (the index the indexed `ThreadPool.parallelFor` gives a body).
    /// Precondition (always checked: a trap, not a wild write): placed, and `worker` within the
    /// pool the node was prepared with.
    @inline(__always)
    func workspace(_ worker: Int) -> KernelWorkspace {
        guard let base, worker < threadCount else {
            fatalError("thread workspace of \(bytesPerThread) bytes: worker \(worker) of \(threadCount), placed: \(self.base != nil)")
        }
        return KernelWorkspace(start: base + worker * blockStride, byteCount: blockStride)
    }
}
