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
    /// The largest single tensor the interpreter accepts (1 GiB). Checked after every
    /// operator's `prepare`, before the next operator sees the tensor, so a malformed shape
    /// is rejected before any kernel sizes scratch memory from it.
    static let maximumTensorByteCount = 1 << 30

    /// The byte count of `tensor`, or a typed error naming `owner` when it has no fixed size
    /// or exceeds ``maximumTensorByteCount``.
    static func checkedByteCount(_ tensor: RuntimeTensor, _ owner: @autoclosure () -> String) throws -> Int {
        guard let bytes = byteCount(tensor.shape, tensor.type) else {
            throw InterpreterError.invalidModel(
                "\(owner()): tensor '\(tensor.name)' has no fixed size (\(tensor.type) \(tensor.shape))")
        }
        guard bytes <= maximumTensorByteCount else {
            throw InterpreterError.invalidModel(
                "\(owner()): tensor '\(tensor.name)' of shape \(tensor.shape) needs \(bytes) bytes, more than the 1 GiB limit")
        }
        return bytes
    }
}
