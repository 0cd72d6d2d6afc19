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
/// Thread-safe: interpreters on several threads may prepare at once; a form is computed once,
/// under the lock. Each interpreter still reserves the packed bytes in its own memory budget (a
/// conservative count: the bytes are shared).
final class PackedWeightCache: @unchecked Sendable {
    private let lock = NSLock()
    /// The packed form per operator position, with the key it was packed under.
    private var entries: [Int: (key: String, value: AnyObject)] = [:]
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

    /// Number of nodes with a packed form (for tests).
    var count: Int { lock.lock(); defer { lock.unlock() }; return entries.count }

    /// Whether `tensor` holds the model's own constant data (shared by every interpreter).
    func isModelConstant(_ tensor: RuntimeTensor) -> Bool {
        guard tensor.isConstant, let data = tensor.data else { return false }
        return constantData[tensor.index] == data
    }

    /// The packed form of the node at `position` under `key`, made by `make` if the cache has
    /// none (or one packed under another key, which it replaces).
    /// - Throws: what `make` throws; nothing is cached then.
    func packed<T: AnyObject>(position: Int, key: String, _ make: () throws -> T) rethrows -> T {
        lock.lock(); defer { lock.unlock() }
        if let entry = entries[position], entry.key == key, let value = entry.value as? T { return value }
        let value = try make()
        entries[position] = (key, value)
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
    /// `make()`'s packed form of the constant `weights`, shared through the model's cache when
    /// the node has a slot and `weights` is a model constant; `key` must name everything the
    /// packing reads besides the weights (kind, geometry, offsets). Otherwise `make()` itself.
    func packedWeights<T: AnyObject>(of weights: RuntimeTensor, key: String, _ make: () throws -> T) rethrows -> T {
        guard let slot = packedWeights, slot.cache.isModelConstant(weights) else { return try make() }
        return try slot.cache.packed(position: slot.position, key: key, make)
    }
}
