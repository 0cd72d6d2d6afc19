/// The scratch slots one node's kernel requested in its last prepare (see ``ScratchSlot``),
/// shared by reference between the node's ``NodeContext`` and the executor that places them.
///
/// Contract: whoever calls a kernel's `prepare` with this context calls ``removeAll()`` first
/// (the kernel requests its scratch again on every prepare), then, before the kernel's
/// `invoke`, either places every slot (the executor's arena) or calls ``allocateOwn(reserve:)``.
final class NodeScratch {
    /// The slots requested since the last ``removeAll()``, in request order.
    private(set) var slots: [ScratchSlot] = []
    /// The per-thread kernel workspace requested since the last ``removeAll()`` (one per node,
    /// sized by its largest request), or nil.
    private(set) var threadWorkspace: ThreadWorkspaceSlot?

    /// Forgets the slots of an earlier prepare (plans holding them keep their memory alive
    /// only while they hold them; a new prepare replaces the plan).
    func removeAll() { slots = []; threadWorkspace = nil }

    /// The node's per-thread workspace for a pool of `threadCount` threads, raised to at least
    /// `bytes` per thread (created on the first request of a prepare).
    func requireWorkspace(_ bytes: Int, threadCount: Int) -> ThreadWorkspaceSlot {
        let slot = threadWorkspace ?? ThreadWorkspaceSlot(threadCount: threadCount)
        slot.require(bytes)
        threadWorkspace = slot
        return slot
    }

    /// Records a new slot of `byteCount` bytes.
    func add(_ slot: ScratchSlot) { slots.append(slot) }

    /// Total bytes requested.
    var byteCount: Int { slots.reduce(0) { $0 &+ $1.byteCount } }

    /// Gives every slot (and the per-thread workspace) memory of its own, reserving each slot's bytes through `reserve` (bytes,
    /// what for) before allocating them: for nodes that run outside the arena's plan.
    func allocateOwn(_ subject: String, reserve: (Int, String) throws -> Void) throws {
        for slot in slots where !slot.hasOwnMemory {
            try reserve(slot.byteCount, "\(subject): scratch")
            try slot.allocateOwn()
        }
        if let workspace = threadWorkspace, !workspace.hasOwnMemory {
            try reserve(workspace.ownByteCount, "\(subject): per-thread workspace")
            try workspace.allocateOwn()
        }
    }
}
