import Foundation

/// Checked access to graph tensors, shared by ``Interpreter`` and ``SignatureRunner``.
extension SubgraphExecutor {
    /// A snapshot of tensor `index`. Requires a prepared graph.
    /// - Throws: ``InterpreterError/resourceLimitExceeded(_:)`` when the copy would take the
    ///   interpreter's memory past ``ResourceLimits/maximumTotalByteCount`` (see
    ///   ``checkCopyOut(_:_:)``) or the system cannot provide it (use the zero-copy `withBytes`
    ///   access for huge tensors).
    func snapshot(of index: Int) throws -> Tensor {
        let tensor = try allocatedTensor(index)
        let dataType = try Self.dataType(of: tensor)
        try checkCopyOut(tensor.byteCount, "a copy of tensor '\(tensor.name)' (read it in place with withUnsafeOutputBytes)")
        return Self.snapshot(tensor, dataType, data: try Self.copy(tensor.data!, count: tensor.byteCount, name: tensor.name))
    }

    /// Tensor `index` described with `data`, which must hold exactly its bytes (the data just
    /// copied into it): no copy is made, so nothing is allocated or counted.
    func snapshot(of index: Int, holding data: Data) throws -> Tensor {
        let tensor = try allocatedTensor(index)
        precondition(data.count == tensor.byteCount, "the data must be the tensor's bytes")
        return Self.snapshot(tensor, try Self.dataType(of: tensor), data: data)
    }

    /// The ``Tensor`` element type of `tensor`.
    /// - Throws: ``InterpreterError/invalidTensorDataType(expected:got:)`` for other types.
    static func dataType(of tensor: RuntimeTensor) throws -> Tensor.DataType {
        guard let dataType = Tensor.DataType(tensor.type) else {
            throw InterpreterError.invalidTensorDataType(expected: "a numeric or bool type", got: "\(tensor.type)")
        }
        return dataType
    }

    private static func snapshot(_ tensor: RuntimeTensor, _ dataType: Tensor.DataType, data: Data) -> Tensor {
        Tensor(name: tensor.name, dataType: dataType, shape: Tensor.Shape(tensor.shape), data: data,
               quantizationParameters: QuantizationParameters(tensor.quantization))
    }

    /// A `Data` copy of `count` bytes that throws instead of trapping when memory runs out.
    private static func copy(_ source: UnsafeMutableRawPointer, count: Int, name: String) throws -> Data {
        guard count > 0 else { return Data() }
        guard let copy = malloc(count) else {
            throw InterpreterError.resourceLimitExceeded(
                "cannot allocate \(count) bytes to copy tensor '\(name)'; read it in place with withUnsafeOutputBytes")
        }
        copy.copyMemory(from: source, byteCount: count)
        return Data(bytesNoCopy: copy, count: count, deallocator: .free)
    }

    /// Copies `data` into tensor `index`; the byte count must match exactly.
    func copy(_ data: Data, into index: Int) throws {
        try withMutableBytes(of: index) { destination in
            guard data.count == destination.count else {
                throw InterpreterError.invalidDataCount(provided: data.count, required: destination.count)
            }
            data.withUnsafeBytes { source in
                if let base = source.baseAddress, source.count > 0 {
                    destination.baseAddress!.copyMemory(from: base, byteCount: source.count)
                }
            }
        }
    }

    /// Calls `body` with the writable bytes of tensor `index` (not constant).
    func withMutableBytes<R>(of index: Int, _ body: (UnsafeMutableRawBufferPointer) throws -> R) throws -> R {
        let tensor = try allocatedTensor(index)
        guard !tensor.isConstant else {
            throw InterpreterError.invalidTensorDataType(expected: "a writable tensor", got: "constant tensor '\(tensor.name)'")
        }
        return try body(UnsafeMutableRawBufferPointer(start: tensor.data, count: tensor.byteCount))
    }

    /// Calls `body` with the bytes of tensor `index`.
    func withBytes<R>(of index: Int, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        let tensor = try allocatedTensor(index)
        return try body(UnsafeRawBufferPointer(start: tensor.data, count: tensor.byteCount))
    }

    private func allocatedTensor(_ index: Int) throws -> RuntimeTensor {
        let tensor = tensors[index]
        guard isPrepared || tensor.isConstant, tensor.data != nil else {
            throw InterpreterError.allocateTensorsRequired
        }
        // Weights the model file kept (packed, never read into memory): read them now.
        if let deferred = tensor.deferred {
            try KernelErrors.preparing("tensor '\(tensor.name)'") { try deferred.file.makeBufferResident(deferred.buffer) }
        }
        tensor.dequantization?.materialize()
        return tensor
    }
}
