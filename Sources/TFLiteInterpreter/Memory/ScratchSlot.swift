/// Bytes one node's kernel asked for at prepare (``NodeContext/requestScratch(_:count:_:)``) and
/// uses only while its own invoke runs, as tflite-micro's `RequestScratchBufferInArena`.
///
/// Where the bytes live is decided after the kernel's prepare, before any invoke:
/// - in an interpreter, the executor places the slot in the activation arena, live only for
///   the node's step (``SubgraphExecutor``), so scratch of different nodes and tensors that are
///   not live at that step share bytes: a kernel must not expect anything it wrote to survive
///   from one invoke to the next (refill every invoke whatever it reads);
/// - nodes evaluated ahead of time, nodes sized at invoke and kernels run outside an
///   interpreter get memory of their own (``allocateOwn()``).
/// The address is 64-byte aligned (``AlignedBuffer/alignment``) either way.
final class ScratchSlot {
    /// Bytes requested.
    let byteCount: Int
    /// Start of the bytes; nil until the slot is placed or given its own memory.
    private(set) var address: UnsafeMutableRawPointer?
    /// Own memory, when the slot is not in an arena.
    private var own: AlignedBuffer?

    /// A slot of `byteCount` bytes, not yet placed.
    init(byteCount: Int) { self.byteCount = byteCount }

    /// Whether the slot has its own memory (then no arena places it).
    var hasOwnMemory: Bool { own != nil }

    /// Points the slot at `address`, `byteCount` bytes the caller keeps valid and 64-byte aligned
    /// until the next prepare (the arena).
    func place(at address: UnsafeMutableRawPointer) {
        own = nil
        self.address = address
    }

    /// Gives the slot zeroed memory of its own (kept while the slot lives); the caller has
    /// reserved ``byteCount`` bytes in its budget. Does nothing when it already has some.
    /// - Throws: ``InterpreterError/resourceLimitExceeded(_:)`` when the system cannot provide it.
    func allocateOwn() throws {
        guard own == nil else { return }
        let buffer = try AlignedBuffer(byteCount: byteCount)
        own = buffer
        address = buffer.pointer
    }
}
