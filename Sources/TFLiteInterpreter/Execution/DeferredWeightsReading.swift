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
    /// file keeps (`TFLiteModelFile.isDeferred`) are copied from the file into the subgraph's
    /// `weightScratch` (a temporary without one), and `tensor.data` points there while `prepare`
    /// runs: a prepare that packs them reads them there, and the model's memory never holds them.
    /// When `readsRawWeights()` then says that the prepared plan reads the weights themselves at
    /// invoke, they are read into the model's memory and `prepare` runs again on them there, so
    /// no plan keeps a pointer into the scratch.
    /// - Throws: what `prepare` throws; ``TFLiteSchemaError/unreadableFile(path:reason:)`` when
    ///   the file was truncated or modified in place since the model was loaded.
    func preparing(with tensor: RuntimeTensor?, _ prepare: () throws -> Void, readsRawWeights: () -> Bool) throws {
        guard let tensor, let deferred = tensor.deferred, let home = tensor.data,
              deferred.file.isDeferred(deferred.buffer) else {
            try prepare()
            return
        }
        let temporary = weightScratch == nil ? WeightScratch() : nil
        // Room for the model's largest deferred weights at once: grown layer by layer, the scratch
        // would take fresh pages at every step.
        let scratch = try (weightScratch ?? temporary!).bytes(deferred.file.largestDeferredByteCount)
        try deferred.file.copyBuffer(deferred.buffer, into: scratch)
        tensor.data = scratch
        tensor.deferredHome = home
        defer {
            tensor.data = home
            tensor.deferredHome = nil
        }
        try prepare()
        guard readsRawWeights() else { return }
        try deferred.file.makeBufferResident(deferred.buffer)
        tensor.data = home
        tensor.deferredHome = nil
        try prepare()
    }
}
