import Foundation

/// Weights packed at prepare for the optimized kernels, kept with the ``Model`` (one cache per
/// subgraph blueprint) and shared by every interpreter made from it, as the model's constants
/// are: the first interpreter to prepare a node packs its weights, the others reuse them.
///
/// Only weights that are the model's own constants are cached (not constants an interpreter
/// derives at prepare from its input shapes). A node keeps one packed form, keyed by how it was
/// packed (the plan's kind and the geometry and offsets the packing reads); a prepare that needs
/// another form (after a resize changed the layout) replaces it, so the cache holds at most one
/// form per node. Packed values are immutable once made.
///
/// Memory: like the model's constants, the packed forms are counted once in each interpreter's
/// budget, as model data: every prepare starts by reserving ``byteCount`` (the forms cached so
/// far), and a node reserves its form's bytes only when it packs it (a cache miss). A form
/// another interpreter, or an earlier prepare, packed is therefore not counted again. (Two
/// interpreters preparing at once may each miss the other's new forms until their next prepare.)
///
/// Thread-safe: interpreters on several threads may prepare at once; a form is computed once,
/// under the lock.
final class PackedWeightCache: @unchecked Sendable {
    private let lock = NSLock()
    /// The packed form per operator position, with the key it was packed under.
    private var entries: [Int: (key: String, value: AnyObject, byteCount: Int)] = [:]
    /// Sum of the entries' byte counts.
    private var total = 0
    /// The data of the model's constant tensors, by tensor index.
    private let constantData: [Int: UnsafeMutableRawPointer]

    /// A cache for a subgraph whose constant tensors are `constants` (by tensor index).
    init(constants: [ConstantTensor?]) {
        var data: [Int: UnsafeMutableRawPointer] = [:]
        for (index, constant) in constants.enumerated() { if let constant { data[index] = constant.data } }
        constantData = data
    }

    private var packings = 0

    /// Forms packed since the cache was made (`make` calls that returned), for tests.
    var packingCount: Int { lock.lock(); defer { lock.unlock() }; return packings }

    /// Bytes of the packed forms held, as reserved when each was made (an upper bound of each).
    var byteCount: Int { lock.lock(); defer { lock.unlock() }; return total }

    /// Number of nodes with a packed form (for tests).
    var count: Int { lock.lock(); defer { lock.unlock() }; return entries.count }

    /// Whether `tensor` holds the model's own constant data (shared by every interpreter).
    func isModelConstant(_ tensor: RuntimeTensor) -> Bool {
        guard tensor.isConstant, let data = tensor.deferredHome ?? tensor.data else { return false }
        return constantData[tensor.index] == data
    }

    /// The packed form of the node at `position` under `key`, made by `make` if the cache has
    /// none (or one packed under another key, which it replaces); before `make` runs,
    /// `reserve(byteCount)` counts its bytes (at most `byteCount`) in the caller's budget.
    /// - Throws: what `reserve` or `make` throws; nothing is cached then.
    func packed<T: AnyObject>(position: Int, key: String, byteCount: Int, reserve: (Int) throws -> Void,
                              _ make: () throws -> T) throws -> T {
        lock.lock(); defer { lock.unlock() }
        if let entry = entries[position], entry.key == key, let value = entry.value as? T { return value }
        try reserve(byteCount)
        let value = try make()
        total = total - (entries[position]?.byteCount ?? 0) + byteCount
        entries[position] = (key, value, byteCount)
        packings += 1
        return value
    }
}

/// A node's access to its subgraph's ``PackedWeightCache`` (``NodeContext/packedWeights``).
struct PackedWeightSlot {
    let cache: PackedWeightCache
    /// The node's operator position in the subgraph.
    let position: Int
}

extension NodeContext {
    /// `make()`'s packed form of the constant `weights` (at most `byteCount` bytes; `what` names
    /// it in messages), shared through the model's cache when the node has a slot and `weights`
    /// is a model constant; `key` must name everything the packing reads besides the weights
    /// (kind, geometry, offsets). Otherwise `make()` itself. The bytes are reserved in the node's
    /// budget (``reserveScratch(_:_:)``) before `make` runs, and only then: a cached form is
    /// counted once, with the cache (see ``PackedWeightCache``).
    /// - Throws: ``InterpreterError/resourceLimitExceeded(_:)`` from the reservation, or what `make` throws.
    func packedWeights<T: AnyObject>(of weights: RuntimeTensor, key: String, byteCount: Int,
                                     _ what: @autoclosure () -> String, _ make: () throws -> T) throws -> T {
        guard let slot = packedWeights, slot.cache.isModelConstant(weights) else {
            try reserveScratch(byteCount, what())
            return try make()
        }
        return try slot.cache.packed(position: slot.position, key: key, byteCount: byteCount,
                                     reserve: { try reserveScratch($0, what()) }, make)
    }
}
