import Foundation
import TFLiteSchema

/// The resource variables of one interpreter (VAR_HANDLE, ASSIGN_VARIABLE, READ_VARIABLE) and
/// the record of which CALL_ONCE initialisation subgraphs have run. Shared by the interpreter's
/// main graph, every subgraph it calls and its signature runners, as in the reference runtime,
/// where resources belong to the interpreter. Guarded by a lock, since signature runners may be
/// used from other threads than the interpreter.
final class ResourceVariables: @unchecked Sendable {
    /// The value of one variable: type, shape and bytes (owned).
    struct Value {
        let type: TensorType
        let shape: [Int]
        let storage: AlignedBuffer
        var byteCount: Int { TensorLayout.byteCount(shape, type) ?? 0 }
    }

    private let lock = NSRecursiveLock()
    private var ids: [String: Int32] = [:]
    private var values: [Int32: Value] = [:]
    private var initialised: Set<Int> = []
    /// The limits every assigned value is checked against (its size, and all values together).
    let limits: ResourceLimits

    init(limits: ResourceLimits) { self.limits = limits }

    /// The handle of the variable named `container`/`sharedName` (the same name always gives the
    /// same handle; handles are small non-negative integers).
    func handle(container: String, sharedName: String) -> Int32 {
        lock.lock(); defer { lock.unlock() }
        let key = "\(container)\u{0}\(sharedName)"
        if let id = ids[key] { return id }
        let id = Int32(ids.count)
        ids[key] = id
        return id
    }

    /// Whether `handle` was given out by ``handle(container:sharedName:)``.
    func isKnown(_ handle: Int32) -> Bool {
        lock.lock(); defer { lock.unlock() }
        return handle >= 0 && Int(handle) < ids.count
    }

    /// Stores a copy of `bytes` (of `type` and `shape`) as the value of `handle`; reuses the
    /// previous storage when the size is unchanged.
    /// - Throws: ``InterpreterError/resourceLimitExceeded(_:)`` when the value, or all values
    ///   together, pass ``ResourceLimits/maximumTensorByteCount`` / ``ResourceLimits/maximumTotalByteCount``.
    func assign(_ handle: Int32, type: TensorType, shape: [Int], from bytes: UnsafeRawPointer?, byteCount: Int) throws {
        lock.lock(); defer { lock.unlock() }
        var storage = values[handle].flatMap { $0.storage.byteCount == byteCount ? $0.storage : nil }
        if storage == nil {
            let others = values.filter { $0.key != handle }.reduce(0) { $0 + $1.value.storage.byteCount }
            var budget = MemoryBudget(limits: limits, alreadyUsed: others)
            try budget.checkTensor(byteCount, "resource variable \(handle)")
            try budget.reserve(byteCount, "resource variable \(handle)")
            storage = try AlignedBuffer(byteCount: byteCount)
        }
        if byteCount > 0, let bytes { storage!.pointer.copyMemory(from: bytes, byteCount: byteCount) }
        values[handle] = Value(type: type, shape: shape, storage: storage!)
    }

    /// The current value of `handle`, nil before its first assignment.
    func value(of handle: Int32) -> Value? {
        lock.lock(); defer { lock.unlock() }
        return values[handle]
    }

    /// Runs `body` unless the initialisation subgraph `subgraphIndex` has already completed once
    /// for this interpreter; marks it done when `body` returns without error. The lock is held
    /// while `body` runs, so two runners cannot both initialise.
    func runOnce(subgraph subgraphIndex: Int, _ body: () throws -> Void) throws {
        lock.lock(); defer { lock.unlock() }
        guard !initialised.contains(subgraphIndex) else { return }
        try body()
        initialised.insert(subgraphIndex)
    }
}
