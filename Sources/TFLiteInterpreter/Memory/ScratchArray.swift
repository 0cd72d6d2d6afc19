/// A typed view of a ``ScratchSlot``: `count` elements of `Element` that one node's invoke
/// writes and reads (GEMM activations in an operand layout, a bias plus its zero-point
/// correction, pixel sums, quantized hybrid rows). A value a plan can hold; the memory is the
/// slot's, placed after prepare. Nothing written survives to the next invoke (another node may
/// use the same bytes in between), so an invoke refills everything it reads.
struct ScratchArray<Element> {
    /// The slot holding the elements.
    let slot: ScratchSlot
    /// Elements in the view.
    let count: Int

    /// The elements, bound to `Element` for this access.
    /// Precondition: the slot was placed or given its own memory (always checked: a trap, not a
    /// wild write, when an executor forgets to place it).
    @inline(__always)
    var pointer: UnsafeMutablePointer<Element> {
        guard let address = slot.address else { fatalError("scratch of \(slot.byteCount) bytes used before it was placed") }
        // The arena's bytes hold other types between invokes: rebinding is the typed access to them.
        return address.bindMemory(to: Element.self, capacity: count)
    }

    /// Calls `body` with the elements, writable.
    @inline(__always)
    func withUnsafeMutableBufferPointer<R>(_ body: (inout UnsafeMutableBufferPointer<Element>) -> R) -> R {
        var buffer = UnsafeMutableBufferPointer(start: pointer, count: count)
        return body(&buffer)
    }
}
