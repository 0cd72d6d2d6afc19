import Foundation
import TFLiteKernels

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
/// The forms are carved from one ``PackingRegion`` where the system offers transparent huge
/// pages: made at the first packing, with room for three times the subgraph's constant bytes
/// (an address-space reservation only; forms that do not fit are allocated one by one), and
/// huge pages up to ``expectedPackedByteCount``: the constant bytes, with the 8-bit ones
/// counted twice where the integer GEMM may pack its weights as int16 pairs (every level without
/// VNNI). Packed weights are most of the constants, so that is close to what packing writes
/// with int16 pairs (measured on efficientnet_lite0, ssd_fish_uint8, yolov8n_int8_640 and
/// yolov8n_dynamic_range_640: within 7%), and an upper bound where layers of few pixels keep
/// their weights as bytes (``QuantizedGEMM/pairLayout(signedWeights:filterOffset:outputPixels:)``);
/// huge pages past the end are address space only, and the unused
/// part of the last one written is given back (``releaseUnusedMemory()``). A form replaced after
/// a resize keeps its space in the region until the model goes; the region's bound caps that.
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
    /// Bytes of the model's constant tensors (what sizes the region).
    private let constantByteCount: Int
    /// Bytes of the model's 8-bit constant tensors (`int8`, `uint8`): mostly weights, which the
    /// int16-pair layout packs at twice their size.
    private let byteConstantByteCount: Int
    /// Where packings take their memory: made at the first one; nil before, and for good when
    /// the system offers no huge pages.
    private var region: PackingRegion?
    /// Whether `region` was tried.
    private var regionTried = false

    /// A cache for a subgraph whose constant tensors are `constants` (by tensor index).
    init(constants: [ConstantTensor?]) {
        var data: [Int: UnsafeMutableRawPointer] = [:]
        var bytes = 0, byteBytes = 0
        for (index, constant) in constants.enumerated() {
            guard let constant else { continue }
            data[index] = constant.data
            bytes = bytes.addingReportingOverflow(constant.byteCount).partialValue
            if constant.type == .int8 || constant.type == .uint8 {
                byteBytes = byteBytes.addingReportingOverflow(constant.byteCount).partialValue
            }
        }
        constantData = data
        constantByteCount = bytes
        byteConstantByteCount = byteBytes
    }

    /// The bytes packing is expected to write for the whole subgraph, at the code-generation
    /// level in use (``QuantizedGEMM/prefersInt8Quads``): the huge-page part of the region.
    /// An estimate: Int.max when it overflows (the region then caps it).
    var expectedPackedByteCount: Int {
        if QuantizedGEMM.prefersInt8Quads { return constantByteCount }
        let (sum, overflow) = constantByteCount.addingReportingOverflow(byteConstantByteCount)
        return overflow ? Int.max : sum
    }

    private var packings = 0

    /// Forms packed since the cache was made (`make` calls that returned), for tests.
    var packingCount: Int { lock.lock(); defer { lock.unlock() }; return packings }

    /// Bytes of the packed forms held, as reserved when each was made (an upper bound of each).
    var byteCount: Int { lock.lock(); defer { lock.unlock() }; return total }

    /// Bytes carved from the region so far, nil without one (for tests).
    var regionByteCount: Int? { lock.lock(); defer { lock.unlock() }; return region?.usedByteCount }

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
        if !regionTried {
            regionTried = true
            let (room, overflow) = constantByteCount.multipliedReportingOverflow(by: 3)
            if !overflow { region = PackingRegion(capacity: room, expectedByteCount: expectedPackedByteCount) }
        }
        let value = try PackingRegion.allocating(in: region, make)
        total = total - (entries[position]?.byteCount ?? 0) + byteCount
        entries[position] = (key, value, byteCount)
        packings += 1
        return value
    }

    /// Gives back the unused part of the region's last huge page; called when a prepare has
    /// packed what it needs (``PackingRegion/releaseUnusedTail()``).
    func releaseUnusedMemory() {
        lock.lock(); defer { lock.unlock() }
        region?.releaseUnusedTail()
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
