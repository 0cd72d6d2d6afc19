import TFLiteSchema

/// Memory that the prepares of one subgraph's nodes share to read deferred weights into
/// (``NodeContext/preparing(with:_:readsRawWeights:)``): sized for the largest weights read,
/// reused from node to node (its pages are provided once per prepare, not once per layer), and
/// released when the subgraph's prepare ends — or, when it is on huge pages with room for the
/// arena that prepare plans, handed over to be that arena (``takeMemory(asZeroed:)``), so the
/// pages the weights were read into are not provided twice.
final class WeightScratch {
    private var buffer: AlignedBuffer?

    /// At least `byteCount` bytes, 64-byte aligned, valid until the next call or `release`.
    /// - Throws: ``InterpreterError/resourceLimitExceeded(_:)`` when the system cannot provide them.
    func bytes(_ byteCount: Int) throws -> UnsafeMutableRawPointer {
        if let buffer, buffer.byteCount >= byteCount { return buffer.pointer }
        release()
        let buffer = try AlignedBuffer(byteCount: byteCount, onHugePages: true)
        self.buffer = buffer
        return buffer.pointer
    }

    /// The scratch's memory as `byteCount` zeroed bytes (``AlignedBuffer/reused(asZeroed:)``),
    /// which the scratch then no longer has; nil, keeping it, when it does not fit there.
    func takeMemory(asZeroed byteCount: Int) -> AlignedBuffer? {
        guard let memory = buffer?.reused(asZeroed: byteCount) else { return nil }
        buffer = nil
        return memory
    }

    func release() { buffer = nil }
}

extension NodeContext {
    /// Runs `prepare` — the prepare of a layer with weights `tensor` (CONV_2D, DEPTHWISE_CONV_2D,
    /// FULLY_CONNECTED) — with the weights' bytes readable at `tensor.data`. Weights the model
    /// does not hold yet — kept by the file (`TFLiteModelFile.isDeferred`) or float32 values of
    /// float16 weights (``DeferredDequantization``) — are copied or converted into the
    /// subgraph's `weightScratch` (a temporary without one), and `tensor.data` points there
    /// while `prepare` runs: a prepare that packs them reads them there, and the model's memory
    /// never holds them. When `readsRawWeights()` then says that the prepared plan reads the
    /// weights themselves at invoke, they are made the model's (read or converted into their
    /// home) and `prepare` runs again on them there, so no plan keeps a pointer into the scratch.
    /// - Throws: what `prepare` throws; ``TFLiteSchemaError/unreadableFile(path:reason:)`` when
    ///   the file was truncated or modified in place since the model was loaded.
    func preparing(with tensor: RuntimeTensor?, _ prepare: () throws -> Void, readsRawWeights: () -> Bool) throws {
        guard let tensor, let home = tensor.data, let weights = PendingWeights(tensor) else {
            try prepare()
            return
        }
        let temporary = weightScratch == nil ? WeightScratch() : nil
        // Room for the model's largest such weights at once: grown layer by layer, the scratch
        // would take fresh pages at every step.
        let scratch = try (weightScratch ?? temporary!).bytes(weights.scratchByteCount)
        try weights.write(into: scratch)
        tensor.data = scratch
        tensor.deferredHome = home
        defer {
            tensor.data = home
            tensor.deferredHome = nil
        }
        try prepare()
        guard readsRawWeights() else { return }
        try weights.makeResident()
        tensor.data = home
        tensor.deferredHome = nil
        try prepare()
    }
}

/// Weights whose bytes the model does not hold yet, as ``NodeContext/preparing(with:_:readsRawWeights:)``
/// reads them.
private enum PendingWeights {
    /// Kept by the model file.
    case file(DeferredWeights)
    /// Float32 values of float16 weights, not materialized.
    case float16(DeferredDequantization)

    /// The pending weights of `tensor`, nil when the model holds them.
    init?(_ tensor: RuntimeTensor) {
        if let deferred = tensor.deferred, deferred.file.isDeferred(deferred.buffer) {
            self = .file(deferred)
        } else if let dequantization = tensor.dequantization, !dequantization.isMaterialized {
            self = .float16(dequantization)
        } else {
            return nil
        }
    }

    /// Scratch bytes that hold any of the model's pending weights of this kind.
    var scratchByteCount: Int {
        switch self {
        case .file(let deferred): deferred.file.largestDeferredByteCount
        case .float16(let dequantization): dequantization.scratchByteCount
        }
    }

    /// Copies or converts the weights to `scratch`.
    func write(into scratch: UnsafeMutableRawPointer) throws {
        switch self {
        case .file(let deferred): try deferred.file.copyBuffer(deferred.buffer, into: scratch)
        case .float16(let dequantization): dequantization.convert(into: scratch)
        }
    }

    /// Puts the weights in their home in the model's memory.
    func makeResident() throws {
        switch self {
        case .file(let deferred): try deferred.file.makeBufferResident(deferred.buffer)
        case .float16(let dequantization): dequantization.materialize()
        }
    }
}
