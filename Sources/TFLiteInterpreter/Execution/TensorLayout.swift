import TFLiteSchema

/// Overflow-checked size arithmetic for tensor shapes read from untrusted models.
enum TensorLayout {
    /// The number of elements of `shape`, or nil when a dimension is negative or the
    /// product overflows.
    static func elementCount(_ shape: [Int]) -> Int? {
        var count = 1
        for dimension in shape {
            guard dimension >= 0 else { return nil }
            let (product, overflow) = count.multipliedReportingOverflow(by: dimension)
            guard !overflow else { return nil }
            count = product
        }
        return count
    }

    /// Bytes of a tensor of `type` and `shape`, or nil when the type has no fixed size,
    /// the shape is invalid or the size overflows.
    static func byteCount(_ shape: [Int], _ type: TensorType) -> Int? {
        guard let size = type.byteSize, let count = elementCount(shape) else { return nil }
        let (bytes, overflow) = count.multipliedReportingOverflow(by: size)
        return overflow ? nil : bytes
    }
}

extension TensorLayout {
    /// The largest dimension accepted: TFLite's shapes are 32-bit.
    static let maximumDimension = Int(Int32.max)

    /// The byte count of `tensor`, or a typed error naming `owner` when it has no fixed size,
    /// a dimension beyond 32 bits, or more bytes than the budget's
    /// ``ResourceLimits/maximumTensorByteCount``. Checked after every operator's `prepare`,
    /// before the next operator sees the tensor, so a malformed shape is rejected before any
    /// kernel sizes scratch memory from it.
    static func checkedByteCount(_ tensor: RuntimeTensor, _ owner: @autoclosure () -> String,
                                 budget: MemoryBudget) throws -> Int {
        guard let bytes = byteCount(tensor.shape, tensor.type) else {
            throw InterpreterError.invalidModel(
                "\(owner()): tensor '\(tensor.name)' has no fixed size (\(tensor.type) \(tensor.shape))")
        }
        guard tensor.shape.allSatisfy({ $0 <= maximumDimension }) else {
            throw InterpreterError.invalidShape(
                "\(owner()): tensor '\(tensor.name)' of shape \(tensor.shape) has a dimension above \(maximumDimension) (TFLite shapes are 32-bit)")
        }
        try budget.checkTensor(bytes, "\(owner()): tensor '\(tensor.name)' of shape \(tensor.shape)")
        return bytes
    }
}
